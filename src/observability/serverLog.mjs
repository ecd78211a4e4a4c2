// The server's one logger (pino): every line the server prints is one JSON object. Plain JavaScript, because the
// production server's preload (scripts/server-lifecycle.mjs) starts it before Next loads, so that Next's own first lines
// are JSON too; the app's code (bundled by Next) gets the same instance from globalThis. `next dev` has no preload: there
// the app starts it in register().
import { format } from 'node:util';
import pino from 'pino';
import { redactedUrl, redactedUrlsIn } from './redaction.mjs';

/** The name every line carries, as a log collector groups services. */
export const serviceName = 'web-foundation';

export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A level variable's value, or the sentence that tells the operator what to set instead. */
export function parseLogLevel(name, value, fallback) {
  const trimmed = value?.trim().toLowerCase();
  if (!trimmed) return fallback;
  if (logLevels.includes(trimmed)) return trimmed;
  throw new Error(
    `${name} must be one of ${logLevels.join(', ')} (got ${JSON.stringify(value)}); unset it to use the default ${fallback}.`,
  );
}

/** A 1/0 switch (also true/false; unset or empty is 0), with the sentence of src/config/env.ts flag(). */
export function parseSwitch(name, value) {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new Error(`${name} must be 1 or 0 (got ${JSON.stringify(value)}); unset it to use the default 0.`);
}

/**
 * What never reaches a log line unless an operator turns personal data on (SENTRY_COLLECT_PII=1, as for events):
 * cookies, credentials and bodies, on any object logged directly or one level down (`req.headers.cookie`,
 * `err.headers.authorization`).
 */
export const redactedPaths = [
  'headers.cookie',
  'headers.authorization',
  'headers["proxy-authorization"]',
  'headers["set-cookie"]',
  'body',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headers["proxy-authorization"]',
  '*.headers["set-cookie"]',
  '*.body',
  '*.cookies',
];

/** Fields a line logged inside a request adds (request_id, trace_id, span_id): set by the error reporter. */
const requestFieldsKey = Symbol.for('app.requestLogFields');
/** What the error reporter names the build and the deployment (release, environment), once it knows. */
const reportingFieldsKey = Symbol.for('app.reportingLogFields');

/** Lets the error reporter (src/observability/server.ts) add the fields of the request a line is logged in. */
export function setRequestLogFields(fields) {
  globalThis[requestFieldsKey] = fields;
}

/** Lets the error reporter name the release and environment its events name, so that lines and events agree. */
export function setReportingLogFields(fields) {
  Object.assign(globalThis[reportingFieldsKey], fields);
}

/** The Referer names another page, with whatever its query held. */
function withRedactedReferer(headers) {
  return { ...headers, referer: redactedUrl(headers.referer) };
}

/** The logger, writing to `destination` (stdout by default). `collectPersonalData` turns redaction off. */
export function createServerLogger({ level, release, environment, collectPersonalData }, destination) {
  globalThis[reportingFieldsKey] = { release, environment };
  const options = {
    level,
    base: { service: serviceName },
    // ISO time: readable in a terminal and sorted as text by every collector.
    timestamp: pino.stdTimeFunctions.isoTime,
    // Level names, not numbers: what Sentry and collectors show, and what LOG_LEVEL takes.
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => ({ ...globalThis[reportingFieldsKey], ...globalThis[requestFieldsKey]?.() }),
    serializers: {
      err: pino.stdSerializers.err,
      // A request is its method, target and headers (never the whole IncomingMessage), its URLs redacted.
      req: (req) => ({
        method: req.method,
        url: collectPersonalData ? req.url : redactedUrl(req.url ?? ''),
        headers: collectPersonalData || !req.headers?.referer ? req.headers : withRedactedReferer(req.headers),
      }),
    },
    ...(collectPersonalData ? {} : { redact: { paths: redactedPaths, censor: '[redacted]' } }),
  };
  return destination ? pino(options, destination) : pino(options);
}

/** Next's prefixes (next/dist/build/output/log.js: ⨯ ⚠ ○ ▲ ✓ »), with their colours, and the indent before its lines. */
const nextPrefix = /^(?:\u001b\[[\d;]*m)*[⨯⚠○▲✓»]?(?:\u001b\[[\d;]*m)*\s*/;

/** A console call's arguments as one pino record: an Error becomes `err` (type, message, stack), the rest the message. */
export function consoleRecord(args) {
  const err = args.find((arg) => arg instanceof Error);
  const rest = err ? args.filter((arg) => arg !== err) : args;
  const msg = (rest.length ? format(...rest) : '').replace(nextPrefix, '');
  if (!err) return [msg];
  return [{ err }, msg || err.message];
}

const consoleLevels = { error: 'error', warn: 'warn', info: 'info', log: 'info', debug: 'debug', trace: 'trace' };

/**
 * Next and libraries print with console: each call becomes one line of the logger at the console method's level.
 * Unless `collectPersonalData`, the URLs in a line's message are redacted: Next writes request targets into some
 * (`API resolved without sending a response for /api/…?…`).
 */
export function routeConsoleToLogger(logger, collectPersonalData = false) {
  const console = globalThis.console;
  const next = logger.child({ logger: 'console' });
  // Next logs a failed page render twice, the same Error alone both times (the route module's onRequestError, then the
  // server's logError): an error printed with nothing else is printed once.
  const printedAlone = new WeakSet();
  for (const [method, level] of Object.entries(consoleLevels)) {
    console[method] = (...args) => {
      const record = consoleRecord(args);
      if (record.length === 2 && record[1] === record[0].err.message) {
        if (printedAlone.has(record[0].err)) return;
        printedAlone.add(record[0].err);
      }
      if (!collectPersonalData) record[record.length - 1] = redactedUrlsIn(record.at(-1));
      next[level](...record);
    };
  }
  // Node's own listener prints warnings (deprecations) over several lines: this one logs each as one line instead.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ err: warning }, warning.message));
}

const loggerKey = Symbol.for('app.logger');

/**
 * The process's logger: made once, with Next's and everyone's console routed to it. An invalid LOG_LEVEL stops the
 * process with one JSON line that says what to set.
 */
export function serverLogger(env = process.env, defaults = {}) {
  if (globalThis[loggerKey]) return globalThis[loggerKey];
  let level = 'info';
  let problem;
  try {
    level = parseLogLevel('LOG_LEVEL', env.LOG_LEVEL, 'info');
  } catch (error) {
    problem = error.message;
  }
  const collectPersonalData = env.SENTRY_COLLECT_PII === '1' || env.SENTRY_COLLECT_PII === 'true';
  const logger = createServerLogger({
    level,
    release: env.SENTRY_RELEASE?.trim() || defaults.release || 'unknown',
    environment: env.SENTRY_ENVIRONMENT?.trim() || defaults.environment || 'production',
    collectPersonalData,
  });
  if (problem) {
    logger.fatal(`Configuration error: ${problem}`);
    process.exit(1);
  }
  globalThis[loggerKey] = logger;
  routeConsoleToLogger(logger, collectPersonalData);
  return logger;
}
