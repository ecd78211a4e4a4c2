// Preloaded into the production server (`node --import`, see scripts/start.mjs): the things `next start` does not do as
// the app needs. It refuses requests Next 16 mishandles (TRACE, several Host headers, odd request targets and image
// sources) and bodies too large to hold in memory, and owns graceful shutdown. First of all it starts the server's
// logger, so that everything the process prints, Next's own lines included, is one JSON line
// (src/observability/serverLog.mjs and redaction.mjs, copied beside it by the build).

import { readFileSync } from 'node:fs';
import http from 'node:http';
import { hasDotSegment } from './dot-segments.mjs';
import { redactedUrl } from './redaction.mjs';
import { requestIdFor } from './request-id.mjs';
import { parseSwitch, serverLogger } from './server-log.mjs';
import { runShutdownHooks } from './shutdown.mjs';

const serverFiles = `${process.env.NEXT_DIST_DIR || '.next'}/required-server-files.json`;

/** The Next config the build resolved (next.config.ts), for the values the preload shares with the app. */
function builtConfig() {
  try {
    return JSON.parse(readFileSync(serverFiles, 'utf8')).config;
  } catch {
    return undefined;
  }
}
const built = builtConfig();

const log = serverLogger(process.env, {
  // For the lines Next prints before the app starts.
  release: built?.env?.APP_RELEASE,
  environment: process.env.NEXT_PUBLIC_SENTRY_ENVIRONMENT?.trim(),
});

// Next holds a request's body in memory for the proxy, whole, before any route runs. Past its limit it drops the rest
// and passes the route what it kept, and it answers nothing until the body has ended (docs/architecture.md, "Request
// bodies"). So a larger body is refused here, unread. The limit is src/config/requestBody.ts, which the build gave
// Next.
const maxBodyBytes = built?.experimental?.proxyClientMaxBodySize;
if (!Number.isSafeInteger(maxBodyBytes)) {
  log.fatal(`Configuration error: no request body limit in ${serverFiles}: set NEXT_DIST_DIR to the build's folder.`);
  process.exit(1);
}

let logRequests = false;
try {
  logRequests = parseSwitch('LOG_REQUESTS', process.env.LOG_REQUESTS);
} catch (error) {
  log.fatal(`Configuration error: ${error.message}`);
  process.exit(1);
}
// Validated by the app at start-up (src/config/env.ts); a wrong value stops the server there.
const collectPersonalData = ['1', 'true'].includes(process.env.SENTRY_COLLECT_PII ?? '');

/**
 * LOG_REQUESTS=1: one line per answered request (off by default: docs/logging.md has its cost). The target as it
 * arrived, redacted: an absolute-form one (`GET http://user:password@host/path`) still carries its user-info here.
 */
function logRequest(req, res) {
  const started = performance.now();
  const url = collectPersonalData ? req.url : redactedUrl(req.url ?? '');
  res.once('finish', () => {
    const requestId = res.getHeader('x-request-id');
    log.info(
      {
        method: req.method,
        url,
        status: res.statusCode,
        duration_ms: Math.round(performance.now() - started),
        ...(typeof requestId === 'string' ? { request_id: requestId } : {}),
      },
      'request answered',
    );
  });
}

// Next 16 builds a WHATWG Request for every request, which rejects TRACE: it would answer 500.
// (TRACK and other unknown methods never get this far: Node's parser answers them 400.)
const methodsNextCannotHandle = new Set(['TRACE']);

function refuse(res, status, text, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', ...headers });
  res.end(text);
  return true;
}

/** Why a body is refused before it is read, or undefined when Next may buffer it. */
function bodyRefusal(headers) {
  // Chunked: its size is known only once it has all arrived, and Next would buffer it first. RFC 9112 §6.3 allows 411.
  if (headers['transfer-encoding'] !== undefined) {
    return { status: 411, message: `Send the body with a Content-Length header; at most ${maxBodyBytes} bytes.` };
  }
  if (Number(headers['content-length'] ?? 0) > maxBodyBytes) {
    return { status: 413, message: `The body is larger than ${maxBodyBytes} bytes, the most this server accepts.` };
  }
  return undefined;
}

/** The rest of a refused body is read and dropped up to this size: nginx forwards up to 1 MB (client_max_body_size). */
const drainedBodyBytes = 1024 * 1024;
/** How long a client may go on sending a refused body (nginx's lingering_timeout); then it is cut off. */
const refusedBodyLingerMs = 5000;

/** The API routes' JSON error (src/server/api.ts): only API routes take bodies; pages answer GET and HEAD. */
function refuseBody(req, res, { status, message }) {
  const requestId = requestIdFor(req.headers['x-request-id']);
  // Set, not passed to writeHead: the access log and the request's transaction read it back.
  res.setHeader('X-Request-Id', requestId);
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify({ error: { status, message, requestId } }));
  // Node reads and drops the body nobody read, so that a client still sending it (nginx forwarding it) gets this answer
  // rather than a reset connection. A larger or endless body stays unread, as reading costs its size in garbage:
  // read(0) takes it over from Node, and TCP holds the client back. HTTP clients read the answer while they send.
  if (Number(req.headers['content-length'] ?? Infinity) > drainedBodyBytes) req.read(0);
  // Either way, a client still sending after the linger is cut off.
  const { socket } = req;
  const cutOff = setTimeout(() => socket.destroy(), refusedBodyLingerMs).unref();
  req.once('end', () => clearTimeout(cutOff));
  return true;
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitUnlessRefused(event, req, res) {
  if (event === 'request') {
    if (logRequests) logRequest(req, res);
    if (methodsNextCannotHandle.has(req.method)) {
      return refuse(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD, OPTIONS' });
    }
    // RFC 9112 §3.2: a request with more than one Host header gets 400 (Node's parser lets it through).
    if ((req.headersDistinct.host?.length ?? 0) > 1) return refuse(res, 400, 'Bad Request');
    const target = requestTarget(req.url ?? '');
    if (target === 'options *') {
      return req.method === 'OPTIONS'
        ? refuse(res, 204, '', { Allow: 'GET, HEAD, OPTIONS' })
        : refuse(res, 400, 'Bad Request');
    }
    if (target === undefined) return refuse(res, 400, 'Bad Request');
    // The proxy sees the path with its dot segments collapsed; Next would route it as it is and answer 500.
    if (hasDotSegment(target)) return refuse(res, 400, 'Bad Request');
    req.url = target;
    const refusal = bodyRefusal(req.headers);
    if (refusal) return refuseBody(req, res, refusal);
    // Static assets and the image optimiser are read-only, but Next serves them to any method.
    if (isReadOnly(target) && req.method !== 'GET' && req.method !== 'HEAD') {
      return refuse(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
    }
    // The image optimiser answers 500 to a source it cannot decode or that is not a plain local path.
    if (target.startsWith('/_next/image') && !isPlainLocalImage(target)) return refuse(res, 400, 'Bad Request');
  }
  return emit.apply(this, arguments);
};

/**
 * The request target in origin form (`/path?query`). An absolute-form target (`GET http://host/path`) is served as
 * its path, so Next never redirects to the host it names; `*` is only OPTIONS's; anything else is refused.
 */
function requestTarget(url) {
  if (url.startsWith('/')) return url;
  if (url === '*') return 'options *';
  try {
    const absolute = new URL(url);
    return /^https?:$/.test(absolute.protocol) ? `${absolute.pathname}${absolute.search}` : undefined;
  } catch {
    return undefined;
  }
}

function isReadOnly(target) {
  return target.startsWith('/_next/static/') || target === '/_next/image' || target.startsWith('/_next/image?');
}

function isPlainLocalImage(target) {
  const source = new URL(target, 'http://local').searchParams.get('url');
  if (source === null || !source.startsWith('/')) return true; // an external or missing URL: Next answers 400 itself
  try {
    decodeURIComponent(source);
  } catch {
    return false;
  }
  return !source.startsWith('//') && !source.includes('\\') && !hasDotSegment(source);
}

// A response's status, once sent, stays what the client got. After a proxy error's 500, Next's router goes on to its
// not-found case and sets statusCode to 404 (next/dist/server/lib/router-server.js); a compressed body is still being
// written then, so the access log and the SDK, which read statusCode when the response ends, saw a 404, and the SDK
// dropped the transaction as a not-found one. Setting statusCode after the headers went out changes nothing on the
// wire, so it is ignored. Node's default, 200, is the prototype's value, read by a response that never sets one.
const statusCode = Symbol('statusCode');
const defaultStatusCode = http.ServerResponse.prototype.statusCode;
Object.defineProperty(http.ServerResponse.prototype, 'statusCode', {
  configurable: true,
  enumerable: true,
  get() {
    return this[statusCode] ?? defaultStatusCode;
  },
  set(status) {
    if (!this.headersSent) this[statusCode] = status;
  },
});

// The servers Next opens, so that shutdown can stop them accepting connections.
const servers = new Set();
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function listenAndRemember(...args) {
  servers.add(this);
  return listen.apply(this, args);
};

const seconds = (name, fallback) => {
  const value = process.env[name]?.trim();
  const parsed = value ? Number(value) : fallback;
  if (!Number.isFinite(parsed) || parsed < 0) {
    log.fatal(`Configuration error: ${name} must be a number of seconds (got ${JSON.stringify(value)}).`);
    process.exit(1);
  }
  return parsed * 1000;
};
const drainMs = seconds('SHUTDOWN_DRAIN_SECONDS', 5);
const timeoutMs = seconds('SHUTDOWN_TIMEOUT_SECONDS', 10);
const hookTimeoutMs = seconds('SHUTDOWN_HOOK_TIMEOUT_SECONDS', 5);

// Next would close the server and exit 143 at once; the app drains instead (below).
process.env.NEXT_MANUAL_SIG_HANDLE = 'true';

let shuttingDown = false;
async function shutdown(signal) {
  if (shuttingDown) return;
  shuttingDown = true;
  // From now on /api/ready answers 503, so that a load balancer stops sending new requests.
  globalThis[Symbol.for('app.draining')] = true;
  log.info(`${signal}: draining for ${drainMs / 1000} s, then closing.`);
  await new Promise((done) => setTimeout(done, drainMs));
  const closed = [...servers].map(
    (server) =>
      new Promise((done) => {
        server.close(() => done());
        server.closeIdleConnections?.();
      }),
  );
  // In-flight requests finish; a request still running after the time-out is cut.
  await Promise.race([Promise.all(closed), new Promise((done) => setTimeout(done, timeoutMs))]);
  // No request runs any more: what the app registered with onShutdown() (a database pool's end) runs now, each hook
  // bounded, a failing one logged (src/server/shutdown.mjs).
  await runShutdownHooks({ timeoutMs: hookTimeoutMs, log });
  const flushReports = globalThis[Symbol.for('app.flushReports')];
  if (typeof flushReports === 'function') await flushReports(2000).catch(() => undefined);
  log.info(`${signal}: drained, exiting.`);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
