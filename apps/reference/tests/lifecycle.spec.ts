import { spawn } from 'node:child_process';
import { appHost, appPort, e2eServerEnv, referenceApp, startScript } from '@web-foundation/testing/env';
import { thrownException } from '@web-foundation/testing/ingest';
import { freePort } from '@web-foundation/testing/processes';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { expect, test } from '@web-foundation/testing';

// Issues 5 and 6: methods Next cannot handle, readiness, and graceful shutdown of the real `npm start` server.

test('TRACE gets 405 and TRACK 400, never a 500', async () => {
  // fetch refuses to send TRACE: a raw socket does.
  const send = async (method: string, path: string) =>
    (await rawRequest(appPort, appHost, `${method} ${path} HTTP/1.1\r\nHost: ${appHost}\r\nConnection: close\r\n\r\n`))
      .status;
  for (const path of ['/', '/api/health', '/examples/42']) {
    expect(await send('TRACE', path), `TRACE ${path}`).toBe(405);
    expect(await send('TRACK', path), `TRACK ${path}`).toBe(400);
  }
});

test('/api/ready answers 200 while the instance serves', async ({ request }) => {
  const response = await request.get('/api/ready');
  expect(response.status()).toBe(200);
  // Without REDIS_URL, pages are kept in Next's filesystem cache (docs/scaling-out.md).
  expect(await response.json()).toEqual({ status: 'ready', pageCache: 'filesystem' });
});

test('SIGTERM: ready turns 503, in-flight requests finish, pending reports are sent, exit code 0', async ({
  ingest,
}) => {
  const port = await freePort();
  const origin = `http://${appHost}:${port}`;
  const server = spawn('node', [startScript], {
    cwd: referenceApp,
    // A drain long enough to see readiness turn 503 on a loaded machine, and a cut later than the test's own
    // time-out: a server that waited for the cut, instead of closing once its requests finished, fails the test.
    env: {
      ...process.env,
      ...e2eServerEnv,
      PORT: String(port),
      SHUTDOWN_DRAIN_SECONDS: '3',
      SHUTDOWN_TIMEOUT_SECONDS: '60',
    },
    stdio: 'ignore',
  });
  const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
  try {
    await expect
      .poll(async () => (await fetch(`${origin}/api/ready`).catch(() => null))?.status, { timeout: 20_000 })
      .toBe(200);

    // A report raised just before the signal, and a request still running when it comes.
    const requestId = crypto.randomUUID();
    // Its time counts from before the request: the drain's 3 s, then 5 s for the report.
    const reported = ingest.waitForError((e) => e.tags?.request_id === requestId, { timeoutMs: 8000 });
    await fetch(`${origin}/api/diagnostics/server-error`, { headers: { 'x-request-id': requestId } });
    const slow = fetch(`${origin}/api/diagnostics/slow?ms=2500`);
    await new Promise((done) => setTimeout(done, 200));
    server.kill('SIGTERM');

    // Within the drain (3 s): after it the server refuses connections.
    await expect
      .poll(async () => (await fetch(`${origin}/api/ready`).catch(() => null))?.status, { timeout: 2500 })
      .toBe(503);
    const slowResponse = await slow;
    expect(slowResponse.status).toBe(200);
    expect(await slowResponse.json()).toEqual({ waitedMs: 2500 });

    expect(await exited).toBe(0);
    const event = await reported;
    expect(thrownException(event)).toBe('Diagnostics: an exception thrown in an API route');
    // Closed: new connections are refused.
    await expect(fetch(`${origin}/api/health`)).rejects.toThrow();
  } finally {
    server.kill('SIGKILL');
  }
});
