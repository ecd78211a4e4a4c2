import { maxRequestBodyBytes, networkArrivingBytesLimit } from '@web-foundation/testing/foundation';
import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import { holdBodies, postFrom, type HeldBodies } from '@web-foundation/testing/floods';
import { expect, test } from '@web-foundation/testing';

// Issue 55, findings 1 and 2: the bodies the server holds are those a route reads, counted by the bytes that arrived,
// shared by network (/24, /64), and released once the route has read them
// (packages/foundation/src/server/preload/bodies.mts). Each flood would fill the 16 MB all bodies may hold; the test
// proves that another network's small POST is answered meanwhile. Linux answers all of 127/8 on loopback, so
// 127.0.N.1 is a client of network N. Floods go to an instance of their own.

const host = '127.0.0.1';
/** The client whose small POST must be answered while a flood runs: a network no flood uses. */
const bystander = '127.0.9.1';
/** Bodies of the largest size that fill all the server holds (16 MB). */
const fillingAll = 256;
/** Bodies of the largest size that fill one network's share. */
const share = networkArrivingBytesLimit / maxRequestBodyBytes;

test.describe.configure({ mode: 'serial' });

let app: Instance;
/** Every flood's connections, closed after each test whatever its outcome. */
let floods: HeldBodies[] = [];

test.beforeAll(async () => {
  app = await startInstance();
  // The routes the floods reach are loaded first.
  for (let i = 0; i < 3; i++) await fetch(`${app.origin}/api/diagnostics/body`, { method: 'POST', body: 'x' });
  expect((await fetch(`${app.origin}/api/diagnostics/slow?ms=0`, { method: 'POST', body: 'x' })).status).toBe(200);
});

test.afterEach(async () => {
  await Promise.all(floods.map((flood) => flood.release()));
  floods = [];
});

test.afterAll(async () => {
  await app?.stop();
});

/** `perNetwork` connections from each of `networks` networks (127.0.1.1, 127.0.2.1, …), all at once. */
async function fromNetworks(
  networks: number,
  perNetwork: number,
  path: string,
  options: { declared: number; sent?: number; method?: string },
): Promise<HeldBodies[]> {
  const started = await Promise.all(
    Array.from({ length: networks }, (_, index) =>
      holdBodies(app.port, host, path, { count: perNetwork, localAddress: `127.0.${index + 1}.1`, ...options }),
    ),
  );
  floods.push(...started);
  return started;
}

const statusesOf = (held: HeldBodies[]) =>
  held
    .flatMap((flood) => Object.entries(flood.statuses()))
    .reduce<Record<string, number>>((all, [status, count]) => ({ ...all, [status]: (all[status] ?? 0) + count }), {});

/** The bystander's small POST: its status. */
const bystanderPost = () => postFrom(bystander, { port: app.port, host, path: '/api/diagnostics/body', body: 'x' });

test('bodies sent with GET to a static chunk are dropped, not held: another client is answered', async () => {
  test.setTimeout(30_000);
  // 65,535 of 65,536 bytes each, from four networks: held, they would fill all the server holds.
  const held = await fromNetworks(4, fillingAll / 4 + 1, '/_next/static/chunks/held.js', {
    method: 'GET',
    declared: maxRequestBodyBytes,
  });
  expect(await bystanderPost()).toBe(200);
  // None was counted, so none was refused: each waits for its last byte.
  expect(statusesOf(held)).toEqual({});
});

test('a body counts what arrived, not what it declared: a byte each on 256 connections fills nothing', async () => {
  test.setTimeout(30_000);
  // Counted as declared, 256 bodies of 64 KB would fill all the server holds with a kilobyte sent.
  const held = await fromNetworks(4, fillingAll / 4, '/api/diagnostics/body', {
    declared: maxRequestBodyBytes,
    sent: 1,
  });
  expect(await bystanderPost()).toBe(200);
  expect(statusesOf(held)).toEqual({});
});

test("four addresses of one /24 share one network's part: another network is answered", async () => {
  test.setTimeout(30_000);
  const addresses = ['127.0.1.1', '127.0.1.2', '127.0.1.3', '127.0.1.4'];
  const held = await Promise.all(
    addresses.map((localAddress) =>
      holdBodies(app.port, host, '/api/diagnostics/body', {
        count: fillingAll / 4,
        declared: maxRequestBodyBytes,
        localAddress,
      }),
    ),
  );
  floods.push(...held);
  // All but one share's bodies are refused as they arrive.
  await expect.poll(() => statusesOf(held)['503'] ?? 0, { timeout: 15_000 }).toBe(fillingAll - share);
  expect(await bystanderPost()).toBe(200);
  expect(statusesOf(held)).toEqual({ '503': fillingAll - share });
});

test('a body leaves the count once its route has read it, not when the answer has gone', async () => {
  test.setTimeout(40_000);
  // Whole bodies to a route that answers after 10 s: held until their answers, they would fill all the server holds.
  const held = await fromNetworks(4, fillingAll / 4, '/api/diagnostics/slow?ms=10000', {
    declared: maxRequestBodyBytes,
    sent: maxRequestBodyBytes,
  });
  // Asked three times, half a second apart, so that the bodies still on their way have arrived by the last.
  for (let ask = 0; ask < 3; ask++) {
    expect(await bystanderPost()).toBe(200);
    await new Promise((done) => setTimeout(done, 500));
  }
  expect(statusesOf(held)['503']).toBeUndefined();
});
