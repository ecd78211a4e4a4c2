// A local ingest that speaks the Sentry envelope protocol, for the end-to-end tests and the benchmarks.
// The app's browser and Node SDKs send real envelopes to it (DSN http://public@127.0.0.1:PORT/1); it records every
// item, and on command refuses, stalls, fails or rate-limits. Same idea as the "event proxy" of Sentry's own e2e
// tests (getsentry/sentry-javascript dev-packages/test-utils), but a separate process with an HTTP control API under
// /__ingest/ on the same port: the app server is started once, with one fixed DSN, for all Playwright workers.
// Typed client: tests/support/ingest.ts. Plain Node, no dependencies. Listens on 127.0.0.1 only.
//
//   INGEST_PORT=3101 node tests/support/ingest-server.mjs     (0 = a free port; stdout says which)
//
// Control API (JSON; every record has a `seq` from one counter that only grows, so `since=<seq>` skips older ones):
//   GET  /__ingest/health                        { status, mode, retryAfterSeconds, seq }
//   GET  /__ingest/items?type=event&since=<seq>  { seq, items }      binary payloads as base64 in `binary`
//   GET  /__ingest/envelopes?since=<seq>         { seq, envelopes }  whole envelopes, with their items
//   GET  /__ingest/requests?since=<seq>          { seq, requests }   every non-control request, in any mode
//   POST /__ingest/mode  {"mode": "accept" | "refuse" | "stall" | "error500" | "rateLimit", "retryAfterSeconds": 60}
//   POST /__ingest/reset                         forgets records (the counter goes on) and accepts again
import http from 'node:http';
import zlib from 'node:zlib';

const port = Number(process.env.INGEST_PORT ?? 3101);
const host = '127.0.0.1'; // loopback only: nothing outside this machine may report here or switch modes
const maxRecords = 50_000; // bounded memory for long benchmark runs: the oldest records go first
const maxBodyBytes = 20 * 1024 * 1024; // bounded too: a larger body is answered 413 and not read further
const modes = ['accept', 'refuse', 'stall', 'error500', 'rateLimit'];
// Payloads that are bytes whatever they look like; any other payload is JSON if it parses as JSON.
const binaryTypes = new Set(['attachment', 'replay_recording']);

let seq = 0;
let envelopes = [];
let requests = [];
let mode = { mode: 'accept', retryAfterSeconds: 60 };
/** Responses held open in 'stall' mode; destroyed when the mode changes or the server stops. */
const stalled = new Set();

const cors = {
  'Access-Control-Allow-Origin': '*',
  // The browser SDK reads the rate limits of a 429 (or 200) answer only if they are exposed to it.
  'Access-Control-Expose-Headers': 'X-Sentry-Rate-Limits, Retry-After',
};

function keep(list, record) {
  list.push(record);
  if (list.length > maxRecords) list.splice(0, list.length - maxRecords);
}

function decode(body, encoding = 'identity') {
  if (encoding === 'identity') return body;
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  throw new Error(`unsupported Content-Encoding ${encoding}`);
}

/**
 * An envelope: a JSON header line, then items, each a JSON header line and a payload of `length` bytes (then an
 * optional newline) or, without `length`, up to the next newline. Written here rather than taken from @sentry/core,
 * whose parseEnvelope reads `length: 0` as "no length" and fails on blank lines; this one keeps bytes as bytes.
 */
function parseEnvelope(buffer) {
  let offset = 0;
  const readLine = () => {
    const end = buffer.indexOf(0x0a, offset);
    const line = buffer.subarray(offset, end === -1 ? buffer.length : end);
    offset = end === -1 ? buffer.length : end + 1;
    return line;
  };
  const header = JSON.parse(readLine().toString('utf8'));
  const items = [];
  while (offset < buffer.length) {
    const headerLine = readLine().toString('utf8').trim();
    if (!headerLine) continue; // a trailing newline, or blank lines between items
    const itemHeader = JSON.parse(headerLine);
    let payload;
    if (typeof itemHeader.length === 'number') {
      if (offset + itemHeader.length > buffer.length) throw new Error(`item ${itemHeader.type} is cut short`);
      payload = buffer.subarray(offset, offset + itemHeader.length);
      offset += itemHeader.length;
      if (buffer[offset] === 0x0a) offset += 1;
    } else {
      payload = readLine();
    }
    items.push({ type: String(itemHeader.type), header: itemHeader, ...decodePayload(itemHeader.type, payload) });
  }
  return { header, items };
}

/** JSON payloads parsed; anything else (a replay's compressed recording, an attachment) as base64 in `binary`. */
function decodePayload(type, payload) {
  if (!binaryTypes.has(type)) {
    try {
      return { payload: JSON.parse(payload.toString('utf8')) };
    } catch {
      // not JSON: kept as bytes below
    }
  }
  return { binary: payload.toString('base64') };
}

function send(res, status, body, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json', ...cors, ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > maxBodyBytes) return reject(Object.assign(new Error('body too large'), { status: 413 }));
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const envelopePath = /^\/api\/(\d+)\/envelope\/?$/;

async function handleEnvelope(req, res, request, projectId) {
  // Refusing: the socket is cut before any answer, so the sender's request fails as on a network outage. Closing the
  // listening socket instead would also take down the control API, which shares the port.
  if (mode.mode === 'refuse') return req.socket.destroy();
  const body = await readBody(req);
  if (mode.mode === 'stall') {
    // Read, never answered: the sender's request hangs until its own timeout, or until the mode changes.
    stalled.add(res);
    res.on('close', () => stalled.delete(res));
    return;
  }
  if (mode.mode === 'error500') return send(res, 500, { detail: 'ingest failing on purpose' });
  if (mode.mode === 'rateLimit') {
    const seconds = String(mode.retryAfterSeconds);
    const limits = { 'Retry-After': seconds, 'X-Sentry-Rate-Limits': `${seconds}::organization` };
    return send(res, 429, { detail: 'rate limited on purpose' }, limits);
  }
  let parsed;
  try {
    parsed = parseEnvelope(decode(body, req.headers['content-encoding']));
  } catch (error) {
    request.error = error.message;
    return send(res, 400, { detail: `not an envelope: ${error.message}` });
  }
  const envelope = {
    seq: ++seq,
    receivedAt: Date.now(),
    path: req.url,
    projectId,
    headers: req.headers,
    envelopeHeader: parsed.header,
    items: parsed.items.map((item) => ({ seq: ++seq, ...item })),
  };
  keep(envelopes, envelope);
  send(res, 200, {});
}

/** Items flattened out of their envelopes, each with its envelope's data but not its siblings. */
function listItems(since, type) {
  const list = [];
  for (const { items, ...envelope } of envelopes) {
    for (const item of items) {
      if (item.seq > since && (!type || item.type === type)) list.push({ ...item, envelope });
    }
  }
  return list;
}

async function handleControl(req, res, url) {
  const since = Number(url.searchParams.get('since') ?? 0);
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  switch (`${method} ${url.pathname}`) {
    case 'GET /__ingest/health':
      return send(res, 200, { status: 'ok', ...mode, seq });
    case 'GET /__ingest/items':
      return send(res, 200, { seq, items: listItems(since, url.searchParams.get('type')) });
    case 'GET /__ingest/envelopes':
      return send(res, 200, { seq, envelopes: envelopes.filter((e) => e.seq > since) });
    case 'GET /__ingest/requests':
      return send(res, 200, { seq, requests: requests.filter((r) => r.seq > since) });
    case 'POST /__ingest/mode': {
      const next = JSON.parse((await readBody(req)).toString('utf8') || '{}');
      if (!modes.includes(next.mode)) return send(res, 400, { detail: `unknown mode ${next.mode}` });
      const retryAfterSeconds = Number(next.retryAfterSeconds ?? 60);
      if (!(retryAfterSeconds >= 0)) return send(res, 400, { detail: 'retryAfterSeconds must be a number >= 0' });
      mode = { mode: next.mode, retryAfterSeconds };
      if (mode.mode !== 'stall') releaseStalled();
      return send(res, 200, { ...mode, seq });
    }
    case 'POST /__ingest/reset':
      envelopes = [];
      requests = [];
      mode = { mode: 'accept', retryAfterSeconds: 60 };
      releaseStalled();
      return send(res, 200, { seq });
    default:
      return send(res, 404, { detail: 'unknown control path' });
  }
}

function releaseStalled() {
  for (const res of stalled) res.destroy();
  stalled.clear();
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://ingest');
  if (url.pathname.startsWith('/__ingest/')) {
    return handleControl(req, res, url).catch((error) => {
      if (!res.headersSent) send(res, 400, { detail: String(error.message ?? error) });
    });
  }
  const request = { seq: ++seq, method: req.method, path: req.url, mode: mode.mode, status: null, receivedAt: Date.now() };
  keep(requests, request);
  res.on('finish', () => (request.status = res.statusCode)); // stays null when refused or stalled
  if (req.method === 'OPTIONS') {
    // CORS preflight: the browser SDK posts cross-origin; allow whatever headers it asks for (sentry-trace, …).
    res.writeHead(204, {
      ...cors,
      'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] || '*',
      'Access-Control-Max-Age': '600',
    });
    return res.end();
  }
  const project = envelopePath.exec(url.pathname);
  if (!project) return send(res, 404, { detail: 'not an ingest path' });
  if (req.method !== 'POST') return send(res, 405, { detail: 'POST envelopes here' }, { Allow: 'POST, OPTIONS' });
  handleEnvelope(req, res, request, project[1]).catch((error) => {
    request.error = error.message;
    if (!res.headersSent) send(res, error.status ?? 500, { detail: error.message });
    if (error.status === 413) req.socket.destroy(); // stop reading the rest of an oversized body
  });
});

server.keepAliveTimeout = 5000;
server.listen(port, host, () => {
  // Read by whoever started the server with INGEST_PORT=0 (tests/support/ingest.ts startIngest).
  console.log(`sentry ingest listening on ${server.address().port}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    releaseStalled();
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });
}
