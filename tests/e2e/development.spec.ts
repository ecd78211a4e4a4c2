// `npm run dev` tells the truth (issue 37): the guide's app (apps/guide, with its `/api/hello-backend`) under
// `next dev`, started once, piped through the pino-pretty command of `npm run dev` (packages/foundation/scripts/dev.mjs)
// Spotlight's UI is left out: a small recorder on loopback stands in for its sidecar, as `spotlight run` would
// point the app at it. Runs alone (playwright.development.config.ts): it needs none of the production suite's servers.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { devShellCommand } from '../../packages/foundation/scripts/dev.mjs';
import { startBackend, type Backend } from '../support/backend';
import { freePort } from '../support/processes';
import { testSettings as guideSettings } from '../../apps/guide/tests/settings';

/** The app `next dev` runs, in its own folder as `npm run dev` would. */
const app = 'apps/guide';

/**
 * The shell command `npm run dev` runs under Spotlight: `next dev` piped through pino-pretty. It listens as `localhost`
 * (loopback), the name Next trusts by default, and the tests open it at 127.0.0.1: with `-H 127.0.0.1` Next would trust
 * that name too, and hot reload would connect without `allowedDevOrigins`.
 */
function devCommand(port: number): string {
  if (!devShellCommand.startsWith('next dev ')) throw new Error(`The dev command no longer starts with "next dev".`);
  return devShellCommand.replace('next dev', `next dev -H localhost -p ${port}`);
}

/** Stands in for Spotlight's sidecar: records the paths envelopes are posted to; answers browsers across origins. */
async function startSidecar() {
  const posted: string[] = [];
  const server = http.createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    response.setHeader('access-control-allow-headers', '*');
    request.resume();
    request.on('end', () => {
      if (request.method === 'POST') posted.push(new URL(request.url ?? '/', 'http://sidecar').pathname);
      response.end();
    });
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${port}/stream`, posted, stop: () => server.close() };
}

let dev: ChildProcess;
let output = '';
let origin: string;
let backend: Backend;
let sidecar: Awaited<ReturnType<typeof startSidecar>>;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(60_000);
  backend = await startBackend({ '/stock': { items: 3 } });
  sidecar = await startSidecar();
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  dev = spawn('sh', ['-c', devCommand(port)], {
    cwd: app,
    detached: true,
    env: {
      ...process.env,
      PATH: `${resolve('node_modules/.bin')}:${process.env.PATH}`,
      NEXT_TELEMETRY_DISABLED: '1',
      // What package.json's dev script and `spotlight run` set.
      SENTRY_ENVIRONMENT: 'development',
      NEXT_PUBLIC_SENTRY_ENVIRONMENT: 'development',
      SENTRY_SPOTLIGHT: sidecar.url,
      NEXT_PUBLIC_SENTRY_SPOTLIGHT: sidecar.url,
      SENTRY_TRACES_SAMPLE_RATE: '1',
      ...guideSettings,
      BACKEND_URL: backend.origin,
    },
  });
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect
    .poll(
      () =>
        fetch(`${origin}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 45_000 },
    )
    .toBe(200);
});

test.afterAll(async () => {
  // The shell, next dev and pino-pretty: the whole group it leads.
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
  sidecar?.stop();
  await backend?.stop();
});

test('a call from server code carries sentry-trace, traceparent and baggage, as in production', async () => {
  const answer = await fetch(`${origin}/api/hello-backend`);
  expect(answer.status).toBe(200);
  const call = backend.received.find((r) => r.path === '/stock');
  expect(call).toBeDefined();
  const { 'sentry-trace': sentryTrace, traceparent, baggage } = call!.headers;
  const traceId = String(sentryTrace).split('-')[0];
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(traceparent).toContain(`-${traceId}-`);
  expect(baggage).toContain(`sentry-trace_id=${traceId}`);
  // The transaction goes to Spotlight once, through the SDK's transport.
  await expect.poll(() => sidecar.posted.filter((path) => path === '/api/0/envelope/').length).toBeGreaterThan(0);
  expect(sidecar.posted).not.toContain('/stream');
});

test('a log line is one line', async () => {
  await fetch(`${origin}/api/health`);
  const lines = stripVTControlCharacters(output).split('\n').filter(Boolean);
  // pino-pretty's lines begin with their time and level; one with fields left over continues on indented lines.
  expect(lines.filter((line) => /^\[\d\d:\d\d:\d\d\.\d{3}\] [A-Z]+/.test(line)).length).toBeGreaterThan(0);
  expect(lines.filter((line) => /^\s+\w+: /.test(line))).toEqual([]);
});

test('at 127.0.0.1 a page loads with no console error, and hot reload connects', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const hotReload = page.waitForEvent('websocket', (socket) => /\/_next\/(webpack-)?hmr/.test(socket.url()));
  await page.goto(`${origin}/`);
  const socket = await hotReload;
  // Next closes a socket it refuses at once; an accepted one sends the build's state.
  await socket.waitForEvent('framereceived', { timeout: 15_000 });
  expect(socket.isClosed()).toBe(false);
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});
