// @ts-check
// A local ingest that speaks the Sentry envelope protocol, for the end-to-end tests and benchmarks.
// It records every envelope item and can answer slowly, refuse, stall, fail or rate-limit on command. Loopback only.
// Control API on the same port under /__ingest/ (see packages/testing/src/ingest.ts for the typed client).
// Every request and item carries `arrivedNs`: when the request reached the server, on this machine's monotonic clock
// (process.hrtime), which the client on the same machine reads too. `?after=<ns>` lists what arrived after such a
// moment, so that a wait marks its start without asking the ingest.
// With INGEST_TLS_PORT, INGEST_TLS_KEY and INGEST_TLS_CERT (PEM files), it also takes envelopes over HTTPS on that port,
// as production's ingest does; the control API stays on plain HTTP. /__ingest/health counts the TLS connections it
// accepted (`tlsConnections`): a sender that keeps its connection alive opens one for many envelopes.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { parseEnvelope } from '@sentry/core';

// The tests and benches say where; by hand, the run's ingest port (tests/support/e2e-env.mts).
const port = Number(process.env.INGEST_PORT ?? (await import('./e2e-env.mts')).ingestPort);
const maxRecords = 50_000; // bounded memory: the oldest records go first

let seq = 0;
let tlsConnections = 0;
/**
 * What the typed client (./ingest.ts) reads back; a binary item has `binary` instead of `payload`.
 * @typedef {Omit<import('./ingest.ts').IngestItem, 'payload'> & { payload?: unknown }} ItemRecord
 * @typedef {import('./ingest.ts').IngestRequest} RequestRecord
 * @typedef {{ mode: import('./ingest.ts').IngestMode, retryAfterSeconds: number, delayMs: number }} Mode
 */
/** @type {ItemRecord[]} */
let items = [];
/** @type {RequestRecord[]} */
let requests = [];
/**
 * The mode at start and after a reset: accept everything at once.
 * @type {Mode}
 */
const acceptMode = { mode: 'accept', retryAfterSeconds: 60, delayMs: 0 };
let mode = acceptMode;
/** @type {Set<http.ServerResponse>} */
const stalled = new Set();

const cors = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Expose-Headers': 'X-Sentry-Rate-Limits, Retry-After',
};

/**
 * @template T
 * @param {T[]} list
 * @param {T} record
 */
function keep(list, record) {
  list.push(record);
  if (list.length > maxRecords) list.splice(0, list.length - maxRecords);
}

/**
 * @param {Buffer} body
 * @param {string | undefined} encoding the request's Content-Encoding
 */
function decode(body, encoding) {
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  return body;
}

/**
 * An envelope's header and items, split by the SDK's own parser. A payload with a `length` comes as bytes: kept as
 * base64 (`binary`: a replay's recording, compressed or not) unless it is JSON.
 * @param {Buffer} buffer
 */
function envelopeOf(buffer) {
  const [header, items] = parseEnvelope(buffer);
  return {
    header,
    items: items.map(([itemHeader, payload]) => {
      if (!(payload instanceof Uint8Array)) return { type: itemHeader.type, header: itemHeader, payload };
      const json = jsonOrUndefined(payload);
      return json === undefined
        ? { type: itemHeader.type, header: itemHeader, binary: Buffer.from(payload).toString('base64') }
        : { type: itemHeader.type, header: itemHeader, payload: json };
    }),
  };
}

/** @param {Uint8Array} bytes */
function jsonOrUndefined(bytes) {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * @param {http.ServerResponse} res
 * @param {number} status
 * @param {unknown} body
 * @param {Record<string, string>} [headers]
 */
function sendJson(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...cors, ...headers });
  res.end(JSON.stringify(body));
}

/**
 * @param {http.IncomingMessage} req
 * @returns {Promise<Buffer>}
 */
function readBody(req) {
  return new Promise((resolve, reject) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const envelopePath = /^\/api\/(\d+)\/envelope\/?$/;

/**
 * A request's method and path as the records keep them: a server's request always has both (Node's types make them
 * optional for a client's response).
 * @param {http.IncomingMessage} req
 */
const methodAndPath = (req) => ({ method: /** @type {string} */ (req.method), path: /** @type {string} */ (req.url) });

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {string} projectId
 * @param {string} arrivedNs
 */
async function handleEnvelope(req, res, projectId, arrivedNs) {
  const from = { userAgent: req.headers['user-agent'] ?? '', origin: req.headers.origin ?? null };
  /** @type {RequestRecord} */
  const request = {
    seq: ++seq,
    ...methodAndPath(req),
    mode: mode.mode,
    receivedAt: Date.now(),
    arrivedNs,
    from,
  };
  keep(requests, request);
  // Refusing: the connection is cut before any answer, so the sender's fetch fails as on a network outage.
  if (mode.mode === 'refuse') return req.socket.destroy();
  const body = await readBody(req);
  if (mode.mode === 'stall') {
    stalled.add(res);
    res.on('close', () => stalled.delete(res));
    return;
  }
  // Slow: accepts, after a delay like a distant ingest's, so that envelopes pile up in the sender.
  if (mode.mode === 'slow') await new Promise((done) => setTimeout(done, mode.delayMs));
  let envelope;
  try {
    envelope = envelopeOf(decode(body, req.headers['content-encoding']));
  } catch (error) {
    return sendJson(res, 400, { detail: `not an envelope: ${/** @type {Error} */ (error).message}` });
  }
  // What it carried, also when it is refused below: what a test counts can say what it was.
  request.types = envelope.items.map((item) => item.type);
  if (mode.mode === 'error500') return sendJson(res, 500, { detail: 'ingest failing on purpose' });
  if (mode.mode === 'rateLimit') {
    // The window asked for is the browsers' (their requests carry an Origin). The server meets its 429 too, for a
    // second: held back for a minute, it would send nothing to the tests that come after.
    const seconds = String(from.origin === null ? 1 : mode.retryAfterSeconds);
    return sendJson(
      res,
      429,
      { detail: 'rate limited on purpose' },
      {
        'Retry-After': seconds,
        'X-Sentry-Rate-Limits': `${seconds}::organization`,
      },
    );
  }
  for (const item of envelope.items) {
    keep(items, {
      seq: ++seq,
      projectId,
      envelopeHeader: envelope.header,
      from,
      receivedAt: Date.now(),
      arrivedNs,
      ...item,
    });
  }
  sendJson(res, 200, {});
}

const securityPath = /^\/api\/(\d+)\/security\/?$/;

/**
 * CSP violation reports, as Sentry's security endpoint takes them: report-uri's `application/csp-report` (one report,
 * `{"csp-report": {...}}`) and report-to's `application/reports+json` (an array of reports). One item per report, with
 * the query (sentry_key, sentry_environment, sentry_release) and the content type.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {string} projectId
 * @param {URL} url
 * @param {string} arrivedNs
 */
async function handleSecurityReport(req, res, projectId, url, arrivedNs) {
  const from = { userAgent: req.headers['user-agent'] ?? '', origin: req.headers.origin ?? null };
  keep(requests, {
    seq: ++seq,
    ...methodAndPath(req),
    mode: 'accept',
    receivedAt: Date.now(),
    arrivedNs,
    from,
  });
  const [mediaType = ''] = (req.headers['content-type'] ?? '').split(';');
  const contentType = mediaType.trim().toLowerCase();
  let body;
  try {
    body = JSON.parse(decode(await readBody(req), req.headers['content-encoding']).toString('utf8'));
  } catch (error) {
    return sendJson(res, 400, { detail: `not a JSON report: ${/** @type {Error} */ (error).message}` });
  }
  const reports = contentType === 'application/reports+json' && Array.isArray(body) ? body : [body];
  const query = Object.fromEntries(url.searchParams);
  for (const report of reports) {
    keep(items, {
      seq: ++seq,
      type: 'security',
      projectId,
      // The names of the request's headers: a cookie reaching the endpoint would show here.
      header: { contentType, requestHeaders: Object.keys(req.headers).sort() },
      envelopeHeader: {},
      query,
      from,
      receivedAt: Date.now(),
      arrivedNs,
      payload: report,
    });
  }
  sendJson(res, 200, {});
}

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {URL} url
 */
async function handleControl(req, res, url) {
  const after = BigInt(url.searchParams.get('after') ?? -1);
  const wanted = (/** @type {{ arrivedNs: string }} */ record) => BigInt(record.arrivedNs) > after;
  switch (`${req.method} ${url.pathname}`) {
    case 'GET /__ingest/health':
      return sendJson(res, 200, { status: 'ok', mode: mode.mode, seq, tlsConnections });
    case 'GET /__ingest/items': {
      const type = url.searchParams.get('type');
      return sendJson(res, 200, { seq, items: items.filter((i) => wanted(i) && (!type || i.type === type)) });
    }
    case 'GET /__ingest/requests':
      return sendJson(res, 200, { seq, requests: requests.filter(wanted) });
    case 'POST /__ingest/mode': {
      const next = JSON.parse((await readBody(req)).toString('utf8') || '{}');
      if (!['accept', 'slow', 'refuse', 'stall', 'error500', 'rateLimit'].includes(next.mode)) {
        return sendJson(res, 400, { detail: `unknown mode ${next.mode}` });
      }
      mode = {
        mode: next.mode,
        retryAfterSeconds: Number(next.retryAfterSeconds ?? 60),
        delayMs: Number(next.delayMs ?? 500),
      };
      if (mode.mode !== 'stall') for (const r of stalled) r.destroy();
      return sendJson(res, 200, { mode: mode.mode, seq });
    }
    case 'POST /__ingest/reset':
      items = [];
      requests = [];
      mode = acceptMode;
      for (const r of stalled) r.destroy();
      return sendJson(res, 200, { seq });
    default:
      return sendJson(res, 404, { detail: 'unknown control path' });
  }
}

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function handle(req, res) {
  // Read first: anything a test caused after its mark arrives after it on this clock.
  const arrivedNs = String(process.hrtime.bigint());
  const url = new URL(req.url ?? '/', 'http://ingest');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, cors);
    return res.end();
  }
  // The project id, when the path is an endpoint's (digits: never empty).
  const envelopeProject = envelopePath.exec(url.pathname)?.[1];
  const securityProject = securityPath.exec(url.pathname)?.[1];
  const work =
    envelopeProject && req.method === 'POST'
      ? handleEnvelope(req, res, envelopeProject, arrivedNs)
      : securityProject && req.method === 'POST'
        ? handleSecurityReport(req, res, securityProject, url, arrivedNs)
        : url.pathname.startsWith('/__ingest/')
          ? handleControl(req, res, url)
          : Promise.resolve(sendJson(res, 404, { detail: 'not an ingest path' }));
  work.catch((error) => {
    if (!res.headersSent) sendJson(res, 500, { detail: String(error) });
  });
}

/** @type {{ server: http.Server | https.Server, port: number }[]} */
const servers = [{ server: http.createServer(handle), port }];
if (process.env.INGEST_TLS_PORT) {
  const { INGEST_TLS_KEY, INGEST_TLS_CERT } = process.env;
  if (!INGEST_TLS_KEY || !INGEST_TLS_CERT) {
    throw new Error(
      'INGEST_TLS_PORT needs INGEST_TLS_KEY and INGEST_TLS_CERT: the PEM files of its key and certificate.',
    );
  }
  const tls = { key: readFileSync(INGEST_TLS_KEY), cert: readFileSync(INGEST_TLS_CERT) };
  const server = https.createServer(tls, handle);
  server.on('secureConnection', () => tlsConnections++);
  servers.push({ server, port: Number(process.env.INGEST_TLS_PORT) });
}
for (const { server, port } of servers) {
  server.keepAliveTimeout = 5000;
  server.listen(port, '127.0.0.1', () => {
    const { port: listening } = /** @type {import('node:net').AddressInfo} */ (server.address());
    console.log(`sentry ingest listening on ${listening}`);
  });
}
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) {
  process.on(signal, () => {
    for (const r of stalled) r.destroy();
    let open = servers.length;
    for (const { server } of servers) {
      server.close(() => --open === 0 && process.exit(0));
      server.closeAllConnections();
    }
  });
}
