import { spawn } from 'node:child_process';
import { testedApp, testSettingsOf } from '@web-foundation/testing/apps';
import { appHost, e2eServerEnv } from '@web-foundation/testing/env';
import { freePort } from '@web-foundation/testing/processes';
import { expect, test } from '@web-foundation/testing';

// `npm start` at the repository's root serves the team's app (apps/web): the SIGTERM a container's runtime sends to npm
// reaches the server, which drains and exits. Through a second npm (`npm start -w apps/web`) it never arrived. The app
// gets its own test settings, as its test server does (its services run already: scripts/e2e.mjs).
test('npm start at the repository’s root passes SIGTERM on: the team’s app drains and exits', async () => {
  const port = await freePort();
  const origin = `http://${appHost}:${port}`;
  const npm = spawn('npm', ['start'], {
    env: {
      ...process.env,
      ...e2eServerEnv,
      ...testSettingsOf(testedApp('web')),
      PORT: String(port),
      SHUTDOWN_DRAIN_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [npm.stdout, npm.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
  try {
    await expect
      .poll(async () => (await fetch(`${origin}/api/ready`).catch(() => null))?.status, { timeout: 30_000 })
      .toBe(200);
    npm.kill('SIGTERM');
    // npm ends as its signal says (no exit code); the server behind it drains for its second, then closes.
    await exited;
    await expect
      .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status, { timeout: 15_000 })
      .toBeUndefined();
    await expect.poll(() => output, { timeout: 5_000 }).toContain('SIGTERM: drained, exiting.');
  } finally {
    npm.kill('SIGKILL');
  }
});
