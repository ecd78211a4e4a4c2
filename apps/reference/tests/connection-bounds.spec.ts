import { maxRequestBodyBytes, networkArrivingBytesLimit, maxBodyPieces } from '@web-foundation/testing/foundation';
import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import {
  abortMidBody,
  healthMs,
  healthOnNewConnection,
  holdBodies,
  postFrom,
  probeHealth,
  processUse,
  resetPeak,
  silentConnections,
  upgradeCycles,
} from '@web-foundation/testing/floods';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { expect, test } from '@web-foundation/testing';

// Issues 36 and 44: no client holds what it does not use. An upgrade no route takes is answered and closed, a socket's
// life, a silent socket's above all, and the bodies all sockets and each client hold are bounded, a request pipelined
// behind a refused one is dropped, and a client that goes away mid-body is not an error (packages/foundation/src/server/preload/). Floods go
// to an instance of their own, so that the shared server is not disturbed.

/** Open files a flood may leave behind once it has ended: the SDK's and Next's own come and go. */
const fdSlack = 16;
/** The most the serving process's RSS may grow under each flood (docs/reliability-and-security.md, "Connections"). */
const floodRssBoundMb = 200;
/**
 * How long a silent connection may live: the server closes it after 3 s; Node's own headers timeout, the bound before,
 * is 10 s; the rest is a loaded machine's slack.
 */
const silentConnectionBoundMs = 8000;
const host = '127.0.0.1';
const statusLines = (answer: { headers: string; body: string }) =>
  `${answer.headers}\r\n\r\n${answer.body}`.match(/^HTTP\/1\.1 \d{3}/gm) ?? [];

test.describe.configure({ mode: 'serial' });

let app: Instance;
/** The instance's own reporting environment: what it sends is told apart from the shared server's at the ingest. */
const environment = `connection-bounds-${process.pid}-${Date.now()}`;

test.beforeAll(async () => {
  app = await startInstance(undefined, undefined, { SENTRY_ENVIRONMENT: environment });
  // The routes the floods reach are loaded first.
  for (let i = 0; i < 3; i++) await fetch(`${app.origin}/api/diagnostics/body`, { method: 'POST', body: 'x' });
});

test.afterAll(async () => {
  await app?.stop();
});

test('an upgrade no route takes is answered 404 and its connection closed', async () => {
  const answer = await rawRequest(
    app.port,
    host,
    `GET /.env HTTP/1.1\r\nHost: ${host}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  // rawRequest resolves when the server closes the connection; it fails after 5 s otherwise.
  expect(answer.status).toBe(404);
  expect(answer.headers).toMatch(/^Connection: close$/im);
});

test('20,000 upgrade cycles leave the server answering, its open files back where they were', async () => {
  test.setTimeout(180_000);
  const before = processUse(app.pid);
  const started = Date.now();
  const statuses = await upgradeCycles(app.port, host, { cycles: 20_000, concurrency: 20, waitMs: 5000 });
  const seconds = (Date.now() - started) / 1000;
  const during = processUse(app.pid);
  const answeredMs = await healthMs(app.origin);
  expect(statuses).toEqual({ '404': 20_000 });
  expect(answeredMs).toBeLessThan(Infinity);
  await expect.poll(() => processUse(app.pid).fds, { timeout: 10_000 }).toBeLessThanOrEqual(before.fds + fdSlack);
  const after = processUse(app.pid);
  expect(after.rssMb - before.rssMb).toBeLessThan(floodRssBoundMb);
  test.info().annotations.push({
    type: 'upgrades',
    description:
      `20,000 cycles in ${seconds.toFixed(1)} s: fds ${before.fds} → ${during.fds} → ${after.fds}, RSS ` +
      `${before.rssMb.toFixed(0)} → ${after.rssMb.toFixed(0)} MB; /api/health then in ${answeredMs.toFixed(0)} ms`,
  });
});

test('4,000 connections holding an unfinished body: the bodies held together are bounded, the server answers', async () => {
  test.setTimeout(180_000);
  const before = processUse(app.pid);
  // From four networks (127.0.10.0/24…), 1,000 each: one network may hold only a quarter of the connections.
  const held = await Promise.all(
    [10, 11, 12, 13].map((network) =>
      holdBodies(app.port, host, '/api/diagnostics/body', {
        count: 1000,
        declared: 64 * 1024,
        localAddress: `127.0.${network}.1`,
      }),
    ),
  );
  const during = processUse(app.pid);
  const answeredMs = await healthMs(app.origin);
  const statuses = () => {
    const all: Record<string, number> = {};
    for (const [status, count] of held.flatMap((client) => Object.entries(client.statuses()))) {
      all[status] = (all[status] ?? 0) + count;
    }
    return all;
  };
  // 64 bodies of 64 KB fill what one client's bodies may hold, 256 what all may; the rest are refused and closed.
  await expect.poll(() => statuses()['503'] ?? 0, { timeout: 30_000 }).toBeGreaterThanOrEqual(4000 - 256);
  const answered = statuses();
  await Promise.all(held.map((client) => client.release()));
  expect(answeredMs).toBeLessThan(Infinity);
  expect(Object.keys(answered).filter((status) => status !== '503')).toEqual([]);
  expect(during.rssMb - before.rssMb).toBeLessThan(floodRssBoundMb);
  await expect.poll(() => processUse(app.pid).fds, { timeout: 10_000 }).toBeLessThanOrEqual(before.fds + fdSlack);
  test.info().annotations.push({
    type: 'held bodies',
    description:
      `4,000 × 65,535 of 65,536 bytes from four networks: ${answered['503']} answered 503; fds ${before.fds} → ${during.fds}, RSS ` +
      `${before.rssMb.toFixed(0)} → ${during.rssMb.toFixed(0)} MB; /api/health meanwhile in ${answeredMs.toFixed(0)} ms`,
  });
});

test('1,000 clients going away mid-body send no error event, Sentry log or transaction, and print nothing', async ({
  ingest,
}) => {
  test.setTimeout(120_000);
  const printedBefore = app.output().length;
  const probe = await probeHealth(app.origin);
  const floodStarted = Date.now();
  await abortMidBody(app.port, host, '/api/diagnostics/body', { count: 1000, declared: 64 * 1024 });
  const healthTimes = await probe.stop();
  // A request that did reach the route marks the end of what the instance sends for the flood.
  const requestId = crypto.randomUUID();
  const traced = ingest.waitForTransaction((event) => event.tags?.request_id === requestId);
  const marker = await fetch(`${app.origin}/api/diagnostics/body`, {
    method: 'POST',
    body: 'x',
    headers: { 'x-request-id': requestId },
  });
  expect(marker.status).toBe(200);
  await traced;

  const ours = (await ingest.items()).filter((item) => JSON.stringify(item).includes(environment));
  const sent = (type: string) => ours.filter((item) => item.type === type);
  expect(sent('event')).toEqual([]);
  expect(sent('log')).toEqual([]);
  // One transaction for the body route since the flood began: the marker's.
  const bodyRoute = sent('transaction').filter((item) => {
    const event = item.payload as { transaction?: string; start_timestamp?: number };
    return event.transaction === 'POST /api/diagnostics/body' && (event.start_timestamp ?? 0) * 1000 >= floodStarted;
  });
  expect(bodyRoute.map((item) => (item.payload as { tags?: Record<string, string> }).tags?.request_id)).toEqual([
    requestId,
  ]);
  expect(healthTimes.every((ms) => ms < Infinity)).toBe(true);
  expect(app.output().slice(printedBefore)).not.toMatch(/"level":"(error|fatal|warn)"/);
  test.info().annotations.push({
    type: 'aborts',
    description:
      `1,000 aborts: ${sent('event').length} events, ${sent('log').length} logs, ${sent('transaction').length} ` +
      `transactions; /api/health during the burst: ${healthTimes.length} answers, slowest ` +
      `${Math.max(...healthTimes).toFixed(0)} ms`,
  });
});

test('40 connections dribbling a 64 KB body one byte to a chunk are refused; memory stays bounded, /api/health answers', async () => {
  test.setTimeout(120_000);
  const before = processUse(app.pid);
  const peakReset = resetPeak(app.pid);
  const probe = await probeHealth(app.origin);
  const flood = await holdBodies(app.port, host, '/api/diagnostics/body', {
    count: 40,
    declared: maxRequestBodyBytes,
    oneByteChunks: true,
  });
  // Each body is refused once it has come in more pieces than a body may: 393 KB of chunks would follow.
  await expect.poll(() => flood.statuses()['413'] ?? 0, { timeout: 30_000 }).toBe(40);
  const healthTimes = await probe.stop();
  const after = processUse(app.pid);
  await flood.release();
  const growthMb = (peakReset ? after.peakMb : after.rssMb) - before.rssMb;
  test.info().annotations.push({
    type: 'one-byte chunks',
    description:
      `40 × ${maxRequestBodyBytes - 1} one-byte chunks: ${JSON.stringify(flood.statuses())} after ${maxBodyPieces} ` +
      `pieces; RSS ${before.rssMb.toFixed(0)} MB before, ${peakReset ? 'peak' : 'now'} ` +
      `${(peakReset ? after.peakMb : after.rssMb).toFixed(0)} MB; /api/health ${healthTimes.length} answers, ` +
      `slowest ${Math.max(...healthTimes).toFixed(0)} ms`,
  });
  expect(flood.statuses()).toEqual({ '413': 40 });
  expect(growthMb).toBeLessThan(floodRssBoundMb);
  // Every probe answered: how fast is the bench's figure (bench:floods), not a bound a loaded machine keeps.
  expect(healthTimes.every((ms) => ms < Infinity)).toBe(true);
});

test("one client holding as many bodies as it may leaves room for another client's", async () => {
  test.setTimeout(120_000);
  const share = networkArrivingBytesLimit / maxRequestBodyBytes;
  // More bodies than all clients together may hold (256 of the largest), from one address.
  const held = await holdBodies(app.port, host, '/api/diagnostics/body', { count: 300, declared: maxRequestBodyBytes });
  await expect.poll(() => held.statuses()['503'] ?? 0, { timeout: 30_000 }).toBe(300 - share);
  // 127.0.1.1 is another client, of another /24 network (Linux answers all of 127/8 on loopback).
  const other = await postFrom('127.0.1.1', { port: app.port, host, path: '/api/diagnostics/body', body: 'x' });
  const stillHeld = 300 - held.closed();
  await held.release();
  test.info().annotations.push({
    type: "a client's share",
    description: `300 bodies from one client: ${JSON.stringify(held.statuses())}, ${stillHeld} held; another client's POST: ${other}`,
  });
  expect(other).toBe(200);
  expect(stillHeld).toBe(share);
});

test('6,000 silent connections from one client are closed within seconds; a new connection is answered', async () => {
  test.setTimeout(120_000);
  const before = processUse(app.pid);
  const started = performance.now();
  const silent = await silentConnections(app.port, host, { count: 6000 });
  const openedMs = performance.now() - started;
  expect(silent.failed(), 'the test process could not open 6,000 sockets: raise its open-file limit').toBe(0);
  // Past maxConnections (4,096 here) the server closes new connections at once: /api/health is locked out until the
  // silent ones are closed.
  await expect.poll(() => healthOnNewConnection(app.port, host), { timeout: 60_000, intervals: [200] }).toBe(200);
  const lockoutMs = performance.now() - started - openedMs;
  await expect.poll(() => silent.lifetimesMs().length, { timeout: 60_000 }).toBe(6000);
  const longestMs = Math.max(...silent.lifetimesMs());
  await silent.release();
  test.info().annotations.push({
    type: 'silent connections',
    description:
      `6,000 opened in ${openedMs.toFixed(0)} ms; the longest lived ${longestMs.toFixed(0)} ms; /api/health on a ` +
      `new connection answered ${lockoutMs.toFixed(0)} ms after they were open`,
  });
  expect(longestMs).toBeLessThan(silentConnectionBoundMs);
  expect(lockoutMs).toBeLessThan(silentConnectionBoundMs);
  await expect.poll(() => processUse(app.pid).fds, { timeout: 10_000 }).toBeLessThanOrEqual(before.fds + fdSlack);
});

test('a request pipelined behind a refused one is neither run, nor answered, nor traced', async ({ ingest, token }) => {
  const { buildId } = await app.health();
  const tooLarge = 'x'.repeat(maxRequestBodyBytes + 1);
  const refused: [string, string][] = [
    ['405', `TRACE / HTTP/1.1\r\nHost: ${host}\r\n\r\n`],
    ['405', `POST /_next/static/a.js HTTP/1.1\r\nHost: ${host}\r\nContent-Length: 1\r\n\r\nx`],
    [
      '413',
      `POST /api/diagnostics/body HTTP/1.1\r\nHost: ${host}\r\nContent-Length: ${tooLarge.length}\r\n\r\n${tooLarge}`,
    ],
  ];
  // A page of a fallback route no one has asked for: run, it would be generated and stored.
  const pageData = (index: number) => `/_next/data/${buildId}/examples/on-demand/${token}-${index}.json`;
  for (const [index, [status, request]] of refused.entries()) {
    const pipelined = `GET ${pageData(index)} HTTP/1.1\r\nHost: ${host}\r\n\r\n`;
    // rawRequest resolves once the server has closed the connection, and fails after 5 s otherwise.
    const answer = await rawRequest(app.port, host, request + pipelined);
    expect(statusLines(answer)).toEqual([`HTTP/1.1 ${status}`]);
  }
  // A request that did reach a route marks the end of what the instance sends for the pipelined ones.
  const requestId = crypto.randomUUID();
  const traced = ingest.waitForTransaction((event) => event.tags?.request_id === requestId);
  expect((await fetch(`${app.origin}/api/health`, { headers: { 'x-request-id': requestId } })).status).toBe(200);
  await traced;
  const sent = (await ingest.items()).filter((item) => JSON.stringify(item).includes(token));
  expect(sent.map((item) => item.type)).toEqual([]);
  // Never generated: the first request that asks for it makes it.
  for (const index of refused.keys()) {
    const response = await fetch(`${app.origin}${pageData(index)}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-nextjs-cache')).toBe('MISS');
  }
});
