import { spawn } from 'node:child_process';
import { appHost, e2eServerEnv, referenceApp, startScript } from '@web-foundation/testing/env';
import { freePort } from '@web-foundation/testing/processes';
import { thrownException } from '@web-foundation/testing/ingest';
import { expect, test } from '@web-foundation/testing';

// Nothing personal reaches an event or a transaction unless an operator turns it on (SENTRY_COLLECT_PII).

test('cookies, credentials, bodies and IP addresses never reach the reporter', async ({ request, ingest, token }) => {
  const secrets = [`cookie-${token}`, `token-${token}`, `body-${token}`];
  const requestId = crypto.randomUUID();
  const raised = ingest.waitForError((e) => e.tags?.request_id === requestId);
  const traced = ingest.waitForTransaction((t) => JSON.stringify(t).includes(requestId));
  const response = await request.post('/api/diagnostics/server-error', {
    headers: {
      'x-request-id': requestId,
      cookie: `session=${secrets[0]}`,
      authorization: `Bearer ${secrets[1]}`,
      // Every header the SDK takes a client address from (since 11.3, not only X-Forwarded-For).
      'x-forwarded-for': '203.0.113.9',
      'x-real-ip': '203.0.113.10',
      forwarded: 'for=203.0.113.11',
      'cf-connecting-ip': '203.0.113.12',
      'true-client-ip': '203.0.113.13',
      'content-type': 'application/json',
    },
    data: { password: secrets[2] },
  });
  expect(response.status()).toBe(500);
  const event = await raised;
  expect(thrownException(event)).toBe('Diagnostics: an exception thrown in an API route');
  await traced;

  const reported = (await ingest.items()).filter((item) => JSON.stringify(item.payload ?? '').includes(requestId));
  expect(reported.map((item) => item.type).sort()).toEqual(['event', 'transaction']);
  for (const item of reported) {
    const text = JSON.stringify(item.payload);
    for (const secret of secrets) expect(text, item.type).not.toContain(secret);
    expect(text).not.toMatch(/203\.0\.113\./);
    expect(text).not.toMatch(/"cookie"|"cookies"|ip_address/i);
  }
  expect(event.request?.data).toBeUndefined();
  expect(event.user?.ip_address).toBeUndefined();
});

test('SENTRY_ENVIRONMENT overrides the environment of server events at run time', async ({ ingest }) => {
  const port = await freePort();
  const server = spawn('node', [startScript], {
    cwd: referenceApp,
    env: { ...process.env, ...e2eServerEnv, PORT: String(port), SENTRY_ENVIRONMENT: 'staging' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    const origin = `http://${appHost}:${port}`;
    await expect
      .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status, { timeout: 20_000 })
      .toBe(200);
    const requestId = crypto.randomUUID();
    const reported = ingest.waitForError((e) => e.tags?.request_id === requestId);
    await fetch(`${origin}/api/diagnostics/server-error`, { headers: { 'x-request-id': requestId } });
    const event = await reported;
    expect(event.environment).toBe('staging');
  } finally {
    process.kill(-server.pid!, 'SIGTERM');
  }
});
