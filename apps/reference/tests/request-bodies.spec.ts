import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { maxRequestBodyBytes } from '@web-foundation/testing/foundation';
import { processUse, resetPeak } from '@web-foundation/testing/floods';
import { freePort } from '@web-foundation/testing/processes';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { appHost, e2eServerEnv, referenceApp, startScript } from '@web-foundation/testing/env';
import { expect, test } from '@web-foundation/testing';

// Issue 27: a body larger than the server takes is refused before it is read, with the API's JSON error, so that no
// client, authenticated or not, makes the server hold its body in memory
// (packages/foundation/src/server/preload/bodies.mts).

const megabyte = 1024 * 1024;
const secret = 'request-bodies-test-secret-0123456789abcdef';
/** The longest a refused request may wait for its answer, on a loaded machine too. */
const answerWithinMs = 10_000;
/** The server cuts off a client still sending a refused body after 5 s; the rest is a loaded machine's slack. */
const cutOffWithinMs = 10_000;

interface Answer {
  status: number;
  contentType: string;
  requestId: string;
  body: string;
  /** From the start of the request to the end of the answer. */
  ms: number;
  /** From the end of the answer until the server closed the connection (only when the client kept sending). */
  closedAfterMs?: number;
}

/**
 * POSTs `size` bytes with a Content-Length (chunked with `chunked`), or an endless chunked body when `size` is
 * Infinity, 64 KB at a time as fast
 * as the server takes them (or one every `paceMs`). It stops sending once the answer has come, as browsers and curl
 * do; with `keepSending` it goes on until the server closes the connection.
 */
function sendBody(
  port: number,
  path: string,
  size: number,
  { keepSending = false, paceMs = 0, chunked = false } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const headers = Number.isFinite(size) && !chunked ? { 'Content-Length': size } : {};
    const req = request({ host: appHost, port, path, method: 'POST', headers });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let answer: Answer | undefined;
    let sent = 0;
    const sendMore = () => {
      while (sent < size && (!answer || keepSending) && !req.destroyed) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (paceMs > 0) return void req.write(part, () => setTimeout(sendMore, paceMs));
        if (!req.write(part)) return void req.once('drain', sendMore);
      }
      if (sent === size) req.end();
    };
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => (body += text));
      res.on('end', () => {
        answer = {
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? '',
          requestId: String(res.headers['x-request-id']),
          body,
          ms: Date.now() - started,
        };
        if (keepSending) return;
        req.destroy();
        resolve(answer);
      });
    });
    // Once the answer is in, a client still sending sees the connection reset when the server cuts it off.
    req.on('error', (error) => (answer ? undefined : reject(error)));
    req.on('close', () => {
      if (!answer) reject(new Error(`the server closed the connection without answering ${path}`));
      else if (keepSending) resolve({ ...answer, closedAfterMs: Date.now() - started - answer.ms });
    });
    sendMore();
  });
}

/** The API's JSON error (packages/foundation/src/server/api.ts sendJsonError), quoting the request id the answer carries. */
function apiError(answer: Answer) {
  expect(answer.contentType).toBe('application/json; charset=utf-8');
  const { error } = JSON.parse(answer.body) as { error: { status: number; message: string; requestId: string } };
  expect(error.requestId).toBe(answer.requestId);
  return error;
}

test.describe.configure({ mode: 'serial' });

let server: ChildProcess;
let origin: string;
let port: number;
/** The process that serves: packages/foundation/scripts/start.mjs runs the standalone server as its child. */
let servingPid: number;
let output = '';

test.beforeAll(async () => {
  port = await freePort();
  origin = `http://${appHost}:${port}`;
  server = spawn('node', [startScript], {
    cwd: referenceApp,
    env: { ...process.env, ...e2eServerEnv, PORT: String(port), REVALIDATE_SECRET: secret },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [server.stdout, server.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
  await expect
    .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status, { timeout: 20_000 })
    .toBe(200);
  const children = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim().split(/\s+/);
  expect(children).toHaveLength(1);
  servingPid = Number(children[0]);
  // Next names the process it serves from.
  expect(readFileSync(`/proc/${servingPid}/cmdline`, 'utf8')).toContain('next-server');
});

test.afterAll(async () => {
  if (!server?.pid || server.exitCode !== null) return;
  const exited = new Promise((done) => server.once('exit', done));
  process.kill(-server.pid, 'SIGTERM');
  await exited;
});

for (const framing of ['content-length', 'chunked'] as const) {
  test(`24 parallel 9 MB bodies (${framing}) and an endless one, without the secret, cost the server almost nothing`, async () => {
    test.setTimeout(60_000);
    // The route's code is loaded and has answered before the memory is read.
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${origin}/api/revalidate`, { method: 'POST', body: '{}' })).status).toBe(401);
    }
    const before = processUse(servingPid);
    const peakReset = resetPeak(servingPid);

    const bodies = 24;
    const bodySize = 9 * megabyte;
    const [endless, ...refused] = await Promise.all([
      // Chunked, without a Content-Length, never ending: it goes on sending after the answer, until it is cut off.
      sendBody(port, '/api/revalidate', Infinity, { keepSending: true, paceMs: 10 }),
      ...Array.from({ length: bodies }, () =>
        sendBody(port, '/api/revalidate', bodySize, { chunked: framing === 'chunked' }),
      ),
    ]);
    const after = processUse(servingPid);

    for (const answer of refused) {
      expect(answer.status).toBe(413);
      expect(apiError(answer)).toEqual({
        status: 413,
        message: `The body is larger than ${maxRequestBodyBytes} bytes, the most this server accepts.`,
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(answer.ms).toBeLessThan(answerWithinMs);
    }
    // Counted as it arrives: refused as soon as it passes the limit.
    expect(endless!.status).toBe(413);
    expect(apiError(endless!)).toMatchObject({ status: 413 });
    expect(endless!.ms).toBeLessThan(answerWithinMs);
    expect(endless!.closedAfterMs).toBeLessThan(cutOffWithinMs);

    const sentMb = (bodies * bodySize) / megabyte;
    const growthMb = after.peakMb - before.rssMb;
    test.info().annotations.push(
      {
        type: 'memory',
        description:
          `${framing}: serving process (pid ${servingPid}): RSS ${before.rssMb.toFixed(0)} MB before, peak ` +
          `${after.peakMb.toFixed(0)} MB after (+${growthMb.toFixed(1)} MB) for ${bodies} × ` +
          `${bodySize / megabyte} MB = ${sentMb} MB of bodies and an endless one` +
          (peakReset ? '' : ' (peak since the server started)'),
      },
      {
        type: 'answers',
        description:
          `${bodies} × 413 within ${Math.max(...refused.map((answer) => answer.ms))} ms; 413 to the endless ` +
          `body in ${endless!.ms} ms, its connection cut ${endless!.closedAfterMs} ms after that`,
      },
    );
    // Held, these bodies cost their total: +224 MB with Next's default limit (10 MB). Refused unread, each costs a
    // socket and some kilobytes; a megabyte per request leaves room for a loaded machine's garbage collector.
    expect(growthMb).toBeLessThan(bodies + 1);

    expect((await fetch(`${origin}/api/health`)).status).toBe(200);
    expect(output).not.toMatch(/"level":"(error|fatal)"|Request body exceeded/);
  });
}

test('a body up to the limit reaches the route byte for byte; one byte more is refused', async () => {
  const atLimit = randomBytes(maxRequestBodyBytes);
  const echoed = await fetch(`${origin}/api/diagnostics/body`, { method: 'POST', body: atLimit });
  expect(echoed.status).toBe(200);
  expect(await echoed.json()).toEqual({
    bytes: maxRequestBodyBytes,
    sha256: createHash('sha256').update(atLimit).digest('hex'),
  });

  const overLimit = await fetch(`${origin}/api/diagnostics/body`, {
    method: 'POST',
    body: randomBytes(maxRequestBodyBytes + 1),
  });
  expect(overLimit.status).toBe(413);
  expect((await overLimit.json()).error.status).toBe(413);
});

test('a small body reaches the route: with the secret it revalidates, without it the route answers 401', async () => {
  const authenticated = await fetch(`${origin}/api/revalidate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path: '/examples/generated' }),
  });
  expect(authenticated.status).toBe(200);
  expect(await authenticated.json()).toEqual({ revalidated: '/examples/generated' });

  const anonymous = await fetch(`${origin}/api/revalidate`, { method: 'POST', body: '{"path":"/examples/generated"}' });
  expect(anonymous.status).toBe(401);
  expect((await anonymous.json()).error.status).toBe(401);
});

/** One keep-alive connection, as Node's default agent, undici, browsers and nginx's upstream pool keep them. */
function keepAliveClient() {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, path: string, body?: Buffer, headers: Record<string, string | number> = {}) =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const req = request({ host: appHost, port, path, method, agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
      });
      // The server may stop reading a refused body; the answer is what counts.
      req.on('error', reject);
      if (body) req.write(body, () => undefined);
      req.end();
    });
  return { send, close: () => agent.destroy() };
}

test('a refused body costs only its own request: it says Connection: close, and the next request is served', async () => {
  const client = keepAliveClient();
  try {
    const large = Buffer.alloc(2_000_000, 'x');
    const framings: Record<string, string | number>[] = [
      { 'Transfer-Encoding': 'chunked' },
      { 'Content-Length': large.length },
    ];
    for (const headers of framings) {
      const refused = await client.send('POST', '/api/health', large, headers);
      expect(refused).toEqual({ status: 413, connection: 'close' });
      expect((await client.send('GET', '/')).status).toBe(200);
    }
  } finally {
    client.close();
  }
});

test('a chunked body within the limit reaches the route whole; past it, it gets 413', async () => {
  const atLimit = randomBytes(maxRequestBodyBytes);
  const echoed = await sendChunked('/api/diagnostics/body', atLimit);
  expect(echoed.status).toBe(200);
  expect(JSON.parse(echoed.body)).toEqual({
    bytes: maxRequestBodyBytes,
    sha256: createHash('sha256').update(atLimit).digest('hex'),
  });
  const overLimit = await sendChunked('/api/diagnostics/body', randomBytes(maxRequestBodyBytes + 1));
  expect(overLimit.status).toBe(413);
  expect(JSON.parse(overLimit.body).error.status).toBe(413);
});

test('a page answers 405 to a method it does not take, whatever the framing of the body', async () => {
  for (const framing of ['Transfer-Encoding: chunked\r\n\r\n1\r\nx\r\n0\r\n\r\n', 'Content-Length: 1\r\n\r\nx']) {
    const answer = await rawRequest(
      port,
      appHost,
      `POST / HTTP/1.1\r\nHost: ${appHost}:${port}\r\nConnection: close\r\n${framing}`,
    );
    expect(answer.status).toBe(405);
  }
});

/** POSTs `body` chunked (no Content-Length), in 16 KB chunks. */
function sendChunked(path: string, body: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: appHost, port, path, method: 'POST' }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => (text += part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    for (let offset = 0; offset < body.length; offset += 16 * 1024)
      req.write(body.subarray(offset, offset + 16 * 1024));
    req.end();
  });
}
