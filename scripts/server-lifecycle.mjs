// Preloaded into the production server (`node --import`, see scripts/start.mjs): the things `next start` does not do as
// the app needs. It refuses requests Next 16 mishandles (TRACE, several Host headers, odd request targets and image
// sources), upgrades and bodies too large to hold in memory, holds every body until it is whole, bounds what each
// connection and all of them hold, and owns graceful shutdown. First of all it starts the server's
// logger, so that everything the process prints, Next's own lines included, is one JSON line
// (src/observability/serverLog.mjs and redaction.mjs, copied beside it by the build).

import diagnosticsChannel from 'node:diagnostics_channel';
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
  closeAfterAnswer(res.req);
  return true;
}

/** Why a body is refused before it is read, or undefined when it may be read (a chunked one is counted as it comes). */
function bodyRefusal(headers) {
  if (Number(headers['content-length'] ?? 0) > maxBodyBytes) return tooLarge;
  return undefined;
}
const tooLarge = {
  status: 413,
  message: `The body is larger than ${maxBodyBytes} bytes, the most this server accepts.`,
};
const serverFull = {
  status: 503,
  message: 'The server is holding as many request bodies as it can; try again in a second.',
  headers: { 'Retry-After': '1' },
};

/** The rest of a refused body is read and dropped up to this size: nginx forwards up to 1 MB (client_max_body_size). */
const drainedBodyBytes = 1024 * 1024;
/** How long a client may go on sending a refused body (nginx's lingering_timeout); then it is cut off. */
const refusedBodyLingerMs = 5000;

/**
 * After an answer that says `Connection: close`, the connection closes as RFC 9112 §9.6 asks: the server's side ends
 * at once, the body still coming is read and dropped up to drainedBodyBytes (a larger one stays unread: TCP holds the
 * client back), and the socket closes when the client has closed its side or, at the latest, after the linger. Closing
 * at once would reset the connection under a client still sending, and it could lose the answer.
 */
function closeAfterAnswer(req) {
  const { socket } = req;
  if (socket.destroyed) return;
  // Node would destroy the socket as soon as the answer is written (resOnFinish); ending it keeps the read side open.
  socket.destroySoon = () => socket.end();
  // read(0) takes the body over from Node, which would otherwise read all of it to drop it (req._dump()).
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if ((chunked ? Infinity : Number(req.headers['content-length'] ?? 0)) > drainedBodyBytes) req.read(0);
  const cutOff = setTimeout(() => socket.destroy(), refusedBodyLingerMs).unref();
  socket.once('close', () => clearTimeout(cutOff));
  req.once('end', () => socket.end());
}

/** The API routes' JSON error (src/server/api.ts): only API routes take bodies; pages answer GET and HEAD. */
function refuseBody(req, res, { status, message, headers = {} }) {
  const requestId = requestIdFor(req.headers['x-request-id']);
  // Set, not passed to writeHead: the access log and the request's transaction read it back.
  res.setHeader('X-Request-Id', requestId);
  // Some of the body is unread: the connection cannot carry another request (RFC 9112 §9.6).
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...headers,
  });
  res.end(JSON.stringify({ error: { status, message, requestId } }));
  closeAfterAnswer(req);
  return true;
}

/**
 * All request bodies the server holds at once, in bytes: those arriving and those a route has yet to finish with.
 * 256 bodies of the largest size; a request whose body would go past it gets 503 and its connection is closed.
 */
const heldBodyBytesLimit = 256 * 64 * 1024;
let heldBodyBytes = 0;

/**
 * A request with a body reaches the SDK and Next once the body has arrived whole, counted as it comes: past the limit
 * it gets 413 at once, past what all bodies together may hold 503, and a client that goes away mid-body costs nothing
 * more (Next would have read the body itself, rendered its error page for the aborted read and reported it; the SDK
 * would have opened a trace and a span for it). Chunked bodies are taken so too: their size is known only as they come.
 */
function deliverWithWholeBody(server, req, res) {
  const chunks = [];
  let bytes = 0;
  let refused = false;
  const push = req.push;
  const release = () => {
    heldBodyBytes -= bytes;
    bytes = 0;
  };
  const deliver = () => {
    req.push = push;
    res.once('close', release);
    // Through the server's own emit again, which the SDK wraps: it starts the request's trace now.
    delete req[sdkHandled];
    whole.add(req);
    server.emit('request', req, res);
    for (const chunk of chunks) push.call(req, chunk);
    push.call(req, null);
  };
  req.once('close', () => {
    if (!req.complete) release();
  });
  req.push = function holdUntilWhole(chunk, encoding) {
    // The rest of a refused body is left unread, its size unknown: TCP holds the client back until the linger ends.
    if (refused) return false;
    if (chunk === null) {
      deliver();
      return false;
    }
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
    const refusal =
      bytes + buffer.length > maxBodyBytes
        ? tooLarge
        : heldBodyBytes + buffer.length > heldBodyBytesLimit
          ? serverFull
          : undefined;
    if (refusal) {
      refused = true;
      release();
      chunks.length = 0;
      refuseBody(req, res, refusal);
      return true;
    }
    chunks.push(buffer);
    bytes += buffer.length;
    heldBodyBytes += buffer.length;
    return true;
  };
  return true;
}

const hasBody = (headers) => headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * The SDK's mark of a request it has taken in (`@sentry/core`, server-subscription.js): a marked request passes its
 * wrapper of the server's emit untouched. A request with a body is marked when it starts, before that wrapper runs,
 * and unmarked when its body is whole. Were the mark renamed, the SDK would trace every request as it arrives again;
 * tests/e2e/connection-bounds.spec.ts counts what 200 aborts send and would fail.
 */
const sdkHandled = Symbol.for('sentry_http_server_instrumented');
/** Requests whose body has arrived whole and that go on to Next unchecked. */
const whole = new WeakSet();
diagnosticsChannel.subscribe('http.server.request.start', ({ request }) => {
  if (hasBody(request.headers)) request[sdkHandled] = true;
});

/**
 * Next 16 answers an upgrade (a WebSocket) only on a route that takes one, which no page or API route does, and leaves
 * any other open: each held a socket until the process ran out of file descriptors. So every upgrade is answered 404,
 * as no resource here speaks another protocol (426 would ask the client to switch protocols, which it just tried),
 * and closed.
 */
function refuseUpgrade(req, socket) {
  const text = 'No resource here takes an upgrade.';
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${text.length}\r\n` +
      `Connection: close\r\n\r\n${text}`,
  );
  const cutOff = setTimeout(() => socket.destroy(), refusedBodyLingerMs).unref();
  socket.once('close', () => clearTimeout(cutOff));
  if (logRequests) {
    const url = collectPersonalData ? req.url : redactedUrl(req.url ?? '');
    log.info({ method: req.method, url, status: 404, duration_ms: 0 }, 'request answered');
  }
  return true;
}

const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function emitUnlessRefused(event, req, res) {
  if (event === 'upgrade') return refuseUpgrade(req, res);
  if (event === 'request' && !whole.has(req)) {
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
    if (hasBody(req.headers)) return deliverWithWholeBody(this, req, res);
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

// Next names its own origin after HOSTNAME (initURL, next/dist/server/lib/router-utils/resolve-routes.js), while its
// NextURL calls every loopback address `localhost` (next/dist/server/web/next-url.js). On 127.0.0.1 or ::1 the proxy's
// rewrites to the status pages looked external, and Next proxied them to http://localhost:<port>, which need not
// answer. So Next is told `localhost`, and its server binds the address asked for.
const listenAddress = process.env.HOSTNAME?.trim() ?? '';
const loopbackAddress = /^(?:127(?:\.\d{1,3}){3}|::1|\[::1\])$/.test(listenAddress)
  ? listenAddress.replace(/^\[(.*)\]$/, '$1')
  : undefined;
if (loopbackAddress) process.env.HOSTNAME = 'localhost';

/** Listen errors that mean HOSTNAME is not an address of this machine. */
const notOurAddress = new Set(['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

// The servers Next opens, so that shutdown can stop them accepting connections.
const servers = new Set();
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function listenAndRemember(...args) {
  servers.add(this);
  boundConnections(this);
  if (loopbackAddress && args[1] === 'localhost') args[1] = loopbackAddress;
  // First: Next's own listener exits at once, with its error's stack.
  this.prependOnceListener('error', (error) => {
    if (!notOurAddress.has(error.code)) return;
    log.fatal(
      `Configuration error: HOSTNAME=${listenAddress} is no address of this machine (${error.code}): set it to one of its addresses or names, to localhost, or leave it unset for every interface.`,
    );
    process.exit(1);
  });
  return listen.apply(this, args);
};

/** The process's limit on open files (Linux /proc), or Infinity where it cannot be read. */
function openFileLimit() {
  try {
    return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity);
  } catch {
    return Infinity;
  }
}

/**
 * Every connection's life and all connections together are bounded (docs/reliability-and-security.md, "Connections"):
 * Node's defaults give a request 5 minutes to arrive and let a silent socket live forever.
 */
function boundConnections(server) {
  server.headersTimeout = 10_000;
  // Node checks these every 30 s, so a request that has not arrived whole is cut off 30 to 60 s after it began.
  server.requestTimeout = 30_000;
  // A socket silent both ways for 2 minutes is closed, an answer in progress included.
  server.setTimeout(120_000, (socket) => socket.destroy());
  server.maxRequestsPerSocket = 1000;
  // Past this, new connections are closed at once; below the file limit, so that the process can still open files
  // and reach Redis and the ingest.
  server.maxConnections = Math.max(64, Math.min(4096, openFileLimit() - 512));
}

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
