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
let flood: HeldBodies | undefined;

test.describe.configure({ mode: 'serial' });

test.afterEach(async () => {
  await flood?.release();
  await app?.stop();
  flood = undefined;
  app = undefined;
});

/** An instance with `env`, the route the floods reach loaded first. */
async function instance(env: Record<string, string>): Promise<Instance> {
  app = await startInstance(undefined, undefined, env);
  for (let i = 0; i < 3; i++) await fetch(`${app.origin}/api/diagnostics/body`, { method: 'POST', body: 'x' });
  return app;
}

/** The flooding client, through the proxy, holds its share of bodies and more: the more are refused. */
async function floodThroughProxy(port: number): Promise<void> {
  flood = await holdBodies(port, host, '/api/diagnostics/body', {
    count: share + beyond,
    declared: maxRequestBodyBytes,
    localAddress: proxy,
    headers: { 'X-Forwarded-For': flooder },
  });
  await expect.poll(() => flood!.statuses()['503'] ?? 0, { timeout: 15_000 }).toBe(beyond);
  // The other bodies may still be arriving when the last refusal comes back (on a loaded machine, a CI run saw 200
  // here): the share is full once each has grown its buffer to its whole length. A probe's one byte arrives and leaves
  // the share in one read, so it never refuses a flood body.
  await expect.poll(() => postFor(port, flooder), { timeout: 15_000 }).toBe(503);
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
  expect(flood!.statuses()).toEqual({ '503': beyond });
});

test('without the setting, every client behind the proxy is the proxy: counted together', async () => {
  test.setTimeout(90_000);
  const { port } = await instance({});
  await floodThroughProxy(port);
  expect(await postFor(port, other)).toBe(503);
});
