import { lookup } from 'node:dns/promises';
import { hostname } from 'node:os';
import { startExpectingExit, startInstance } from '@web-foundation/testing/cluster';
import { expect, test } from '@web-foundation/testing';

// Issue 37: the proxy's own answers (a status page it rewrites to) arrive at once on every address the server may
// listen on. On 127.0.0.1 Next took them for external rewrites and proxied them to localhost, where nothing need answer
// (packages/foundation/src/server/preload/listenAddress.mts). Each instance is reached over loopback only. (::1 is left
// out: startInstance waits for the instance at localhost, which need not resolve to ::1.)

/** Where each HOSTNAME is reached from this machine. */
const addresses: Record<string, string> = {
  '127.0.0.1': '127.0.0.1',
  localhost: 'localhost',
  '0.0.0.0': '127.0.0.1',
  '::': '[::1]',
};

test.describe.configure({ mode: 'parallel' });

for (const [address, reachedAt] of Object.entries(addresses)) {
  test(`HOSTNAME=${address}: the proxy's 404 and 405 arrive at once`, async () => {
    await expectProxyAnswers(address, reachedAt);
  });
}

test("HOSTNAME set to the machine's own name: the proxy's 404 and 405 arrive at once", async () => {
  const name = hostname();
  const { address } = await lookup(name);
  test.skip(!address.startsWith('127.') && address !== '::1', `${name} is not a loopback name here`);
  await expectProxyAnswers(name, name);
});

test('an address that is not this machine stops the start with one sentence saying what to set', async () => {
  // 192.0.2.1 is reserved for documentation (RFC 5737): never an address of this machine.
  const start = await startExpectingExit({ HOSTNAME: '192.0.2.1' });
  expect(start.code).toBe(1);
  expect(start.fatal).toEqual([
    'Configuration error: HOSTNAME=192.0.2.1 is no address of this machine (EADDRNOTAVAIL): set it to one of its addresses or names, to localhost, or leave it unset for every interface.',
  ]);
});

async function expectProxyAnswers(address: string, reachedAt: string) {
  const app = await startInstance(undefined, undefined, { HOSTNAME: address });
  try {
    const origin = `http://${reachedAt}:${app.port}`;
    const timeout = () => AbortSignal.timeout(5000);
    const notFound = await fetch(`${origin}/examples/on-demand/BAD_slug`, { signal: timeout() });
    expect(notFound.status).toBe(404);
    await notFound.body?.cancel();
    const notAllowed = await fetch(`${origin}/`, { method: 'POST', body: '', signal: timeout() });
    expect(notAllowed.status).toBe(405);
    expect(notAllowed.headers.get('allow')).toBe('GET, HEAD');
    await notAllowed.body?.cancel();
  } finally {
    await app.stop();
  }
}
