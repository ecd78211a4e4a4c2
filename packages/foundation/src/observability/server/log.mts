// The server's one logger (pino): every line the server prints is one JSON object. The production server's preload
// (packages/foundation/src/server/preload.mts) starts it before Next loads, so that Next's own first lines are JSON
// too; the app's code (bundled by Next) gets the same instance from globalThis. `next dev` has no preload: there the
// app starts it in register(). TypeScript that Node runs as it is (`.mts`, erasable syntax only), since the preload
// loads it outside the bundle.
import type { IncomingHttpHeaders } from 'node:http';
import { format } from 'node:util';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { logger as loggerKey, processGlobals, reportingLogFields, requestLogFields } from '../../processGlobals.mts';
import { redactedLogPaths, withRedactedReferer } from '../privacy/logs.mts';
import { redactedUrl, redactedUrlsIn } from '../privacy/urls.mts';
import { sourceMappedStack } from './sourceMappedStack.mts';

/** The name every line carries, as a log collector groups services. */
export const serviceName = 'web-foundation';

/** Fields a line logged inside a request adds: set by the error reporter. */
export interface RequestLogFields {
  request_id?: string;
  trace_id?: string;
  span_id?: string;
}

/**
 * Lets the error reporter (packages/foundation/src/observability/server/reporter.ts) add the fields of the request a
 * line is logged in.
 */
export function setRequestLogFields(fields: () => RequestLogFields): void {
  processGlobals[requestLogFields] = fields;
}

/** Lets the error reporter name the release and environment its events name, so that lines and events agree. */
export function setReportingLogFields(fields: { release: string; environment: string }): void {
  Object.assign(processGlobals[reportingLogFields]!, fields);
}

/** pino's error serializer, with the stack mapped to the source files (`next dev`: see sourceMappedStack.mts). */
function sourceMappedErr(err: Error) {
  const serialized = pino.stdSerializers.err(err);
  return typeof serialized.stack === 'string'
    ? { ...serialized, stack: sourceMappedStack(serialized.stack) }
    : serialized;
}

/**
 * The logger, writing to `destination` (stdout, synchronously, by default). `collectPersonalData` turns redaction off;
 * `sourceMapStacks` (`next dev`) logs errors' stacks in the source files rather than the compiled chunks.
 */
export function createServerLogger(
  options: {
    level: string;
    release: string;
    environment: string;
    collectPersonalData: boolean;
    sourceMapStacks?: boolean;
  },
  destination?: DestinationStream,
): Logger {
  const { level, release, environment, collectPersonalData, sourceMapStacks = false } = options;
  processGlobals[reportingLogFields] = { release, environment };
  const pinoOptions: LoggerOptions = {
    level,
    base: { service: serviceName },
    // ISO time: readable in a terminal and sorted as text by every collector.
    timestamp: pino.stdTimeFunctions.isoTime,
    // Level names, not numbers: what Sentry and collectors show, and what LOG_LEVEL takes.
    formatters: { level: (label) => ({ level: label }) },
    mixin: () => ({ ...processGlobals[reportingLogFields], ...processGlobals[requestLogFields]?.() }),
    serializers: {
      err: sourceMapStacks ? sourceMappedErr : pino.stdSerializers.err,
      // A request is its method, target and headers (never the whole IncomingMessage), its URLs redacted.
      req: (req: { method?: string; url?: string; headers?: IncomingHttpHeaders }) => ({
        method: req.method,
        url: collectPersonalData ? req.url : redactedUrl(req.url ?? ''),
        headers: collectPersonalData || !req.headers?.referer ? req.headers : withRedactedReferer(req.headers),
      }),
    },
    ...(collectPersonalData ? {} : { redact: { paths: redactedLogPaths, censor: '[redacted]' } }),
  };
  // Synchronous writes to stdout: a line is out before the next statement runs. pino's default writes through libuv's
  // thread pool, and process.exit() does not wait for a write queued there: on a busy server the last lines (a shutdown
  // hook's, before "drained, exiting") came out after later ones, or could be lost. Sync also bounds what a slow reader
  // of stdout can make the server hold: nothing, where the default buffers without a limit.
  return pino(pinoOptions, destination ?? pino.destination({ dest: 1, sync: true }));
}

/**
 * Next's prefixes (next/dist/build/output/log.js: ⨯ ⚠ ○ ▲ ✓ »), with their colours, and the indent before its lines.
 */
const nextPrefix = /^(?:\u001b\[[\d;]*m)*[⨯⚠○▲✓»]?(?:\u001b\[[\d;]*m)*\s*/;

/**
 * A console call's arguments as one pino record: an Error becomes `err` (type, message, stack), the rest the message.
 */
export function consoleRecord(args: unknown[]): [string] | [{ err: Error }, string] {
  const err = args.find((arg): arg is Error => arg instanceof Error);
  const rest = err ? args.filter((arg) => arg !== err) : args;
  const msg = (rest.length ? format(...rest) : '').replace(nextPrefix, '');
  if (!err) return [msg];
  return [{ err }, msg || err.message];
}

const consoleLevels: Record<string, 'error' | 'warn' | 'info' | 'debug' | 'trace'> = {
  error: 'error',
  warn: 'warn',
  info: 'info',
  log: 'info',
  debug: 'debug',
  trace: 'trace',
};

/**
 * Next and libraries print with console: each call becomes one line of the logger at the console method's level.
 * Unless `collectPersonalData`, the URLs in a line's message are redacted: Next writes request targets into some
 * (`API resolved without sending a response for /api/…?…`).
 */
export function routeConsoleToLogger(logger: Logger, collectPersonalData = false): void {
  const console = globalThis.console as unknown as Record<string, (...args: unknown[]) => void>;
  const next = logger.child({ logger: 'console' });
  // Next logs a failed page render twice, the same Error alone both times (the route module's onRequestError, then the
  // server's logError): an error printed with nothing else is printed once.
  const printedAlone = new WeakSet<Error>();
  for (const [method, level] of Object.entries(consoleLevels)) {
    console[method] = (...args: unknown[]) => {
      const record = consoleRecord(args);
      if (record.length === 2 && record[1] === record[0].err.message) {
        if (printedAlone.has(record[0].err)) return;
        printedAlone.add(record[0].err);
      }
      if (!collectPersonalData) record[record.length - 1] = redactedUrlsIn(record.at(-1) as string);
      if (record.length === 2) next[level](record[0], record[1]);
      else next[level](record[0]);
    };
  }
  // Node's own listener prints warnings (deprecations) over several lines: this one logs each as one line instead.
  process.removeAllListeners('warning');
  process.on('warning', (warning) => logger.warn({ err: warning }, warning.message));
}

/** What the logger is made with: packages/foundation/src/config/settings.mts's values. */
export interface LoggerSettings {
  logLevel: string;
  release: string;
  environment: string;
  collectPersonalData: boolean;
}

/**
 * The process's logger: made once, with Next's and everyone's console routed to it. Made without settings (a
 * configuration error to print, a unit test) it logs at info, naming no release and keeping nothing personal.
 */
export function serverLogger(settings?: LoggerSettings): Logger {
  const made = processGlobals[loggerKey];
  if (made) return made;
  const {
    logLevel = 'info',
    release = 'unknown',
    environment = 'production',
    collectPersonalData = false,
  } = settings ?? {};
  // `next dev` sets NODE_ENV to development; `next build` and the production server to production.
  const sourceMapStacks = process.env.NODE_ENV === 'development';
  const logger = createServerLogger({ level: logLevel, release, environment, collectPersonalData, sourceMapStacks });
  processGlobals[loggerKey] = logger;
  routeConsoleToLogger(logger, collectPersonalData);
  return logger;
}
