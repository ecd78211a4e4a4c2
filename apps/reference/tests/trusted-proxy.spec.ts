import { maxRequestBodyBytes, networkArrivingBytesLimit } from '@web-foundation/testing/foundation';
import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import { holdBodies, postFrom, type HeldBodies } from '@web-foundation/testing/floods';
import { expect, test } from '@web-foundation/testing';

// Issue 55, point 3: behind a reverse proxy every peer is the proxy. With TRUSTED_PROXY_ADDRESSES naming it, a body
// counts against the network of the client the proxy appended last to X-Forwarded-For
// (packages/foundation/src/server/preload/networks.mts, bodyNetwork); without, against the proxy's own. Here the
// "proxy" is 127.0.0.1 and its "clients" are two documentation networks it names. Each test starts an instance of its
// own: one flood fills a client's share of the bodies still arriving.

const host = '127.0.0.1';
const proxy = '127.0.0.1';
const flooder = '203.0.113.7';
const other = '198.51.100.7';
/** Bodies of the largest size that fill one network's share, and a few more that it refuses. */
const share = networkArrivingBytesLimit / maxRequestBodyBytes;
const beyond = 8;

let app: Instance | undefined;
let floods: HeldBodies[] = [];

test.describe.configure({ mode: 'serial' });

test.afterEach(async () => {
  await Promise.all(floods.map((flood) => flood.release()));
  await app?.stop();
  floods = [];
  app = undefined;
});

/** An instance with `env`, the route the floods reach loaded first. */
async function instance(env: Record<string, string>): Promise<Instance> {
  app = await startInstance(undefined, undefined, env);
  for (let i = 0; i < 3; i++) await fetch(`${app.origin}/api/diagnostics/body`, { method: 'POST', body: 'x' });
  return app;
}

/** `count` bodies of the largest size from the flooding client, through the proxy, held unfinished. */
async function flood(port: number, count: number): Promise<HeldBodies> {
  const held = await holdBodies(port, host, '/api/diagnostics/body', {
    count,
    declared: maxRequestBodyBytes,
    localAddress: proxy,
    headers: { 'X-Forwarded-For': flooder },
  });
  floods.push(held);
  return held;
}

/**
 * The flooding client, through the proxy, fills its share exactly, then sends more, which are refused. In two steps:
 * sent at once, bodies growing their buffers side by side could be refused one too many (a body refused at its last
 * doubling frees room no other can use), and the share then had room for a probe's byte (a CI run saw 200). A probe's
 * one byte arrives and leaves the share in one read, so it refuses no body of the flood.
 */
async function floodThroughProxy(port: number): Promise<void> {
  const filling = await flood(port, share);
  await expect.poll(() => postFor(port, flooder), { timeout: 15_000 }).toBe(503);
  expect(filling.statuses()).toEqual({});
  const more = await flood(port, beyond);
  await expect.poll(() => more.statuses()['503'] ?? 0, { timeout: 15_000 }).toBe(beyond);
}

/** A small POST through the proxy for the client X-Forwarded-For names: its status. */
const postFor = (port: number, forwardedFor: string) =>
  postFrom(proxy, {
    port,
    host,
    path: '/api/diagnostics/body',
    body: 'x',
    headers: { 'X-Forwarded-For': forwardedFor },
  });

test('a trusted proxy: two clients behind it are counted apart, by the last address only', async () => {
  test.setTimeout(90_000);
  const { port } = await instance({ TRUSTED_PROXY_ADDRESSES: proxy });
  await floodThroughProxy(port);
  expect(await postFor(port, other)).toBe(200);
  // The flooding client writes the other's address first: the proxy appended its own last, and that one counts.
  expect(await postFor(port, `${other}, ${flooder}`)).toBe(503);
  expect(floods.map((held) => held.statuses())).toEqual([{}, { '503': beyond }]);
});

test('without the setting, every client behind the proxy is the proxy: counted together', async () => {
  test.setTimeout(90_000);
  const { port } = await instance({});
  await floodThroughProxy(port);
  expect(await postFor(port, other)).toBe(503);
});
