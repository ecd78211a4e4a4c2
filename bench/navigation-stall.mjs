// `node bench/navigation-stall.mjs --dist <dir>`: how often a real pointer click on a route whose prefetch failed and
// whose scripts then hang leaves the page where it was, instead of a full navigation after Next's 3.8 s time-out
// (docs/navigation-reliability.md). Serves the build's standalone server on loopback and clicks `--runs` times, each in
// a fresh browser context, with the browser SDK in one of three states:
//   --sdk on         the SDK and replay have started (the default)
//   --sdk no-replay  the SDK has started, replay's chunk is held back
//   --sdk held       the SDK's chunk is held back: nothing of it runs
//   --sdk off        nothing held or awaited (for a build with reporting off: no DSN)
// `--cpu 4` slows the page's CPU down 4× (DevTools protocol). Build the reference app first in its folder with `--dist`
// as NEXT_DIST_DIR (a folder inside apps/reference; the default is the tests' build) and
// NEXT_PUBLIC_SENTRY_DSN=http://public@127.0.0.1:<--ingest-port>/1 (or none, for reporting off):
//   cd apps/reference && NEXT_DIST_DIR=.next-stall NEXT_PUBLIC_SENTRY_DSN=http://public@127.0.0.1:3311/1 npm run build
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import { appServer, option, sleep, startIngest } from './lib.mjs';
import { chromiumFlags, chromiumPath } from '@web-foundation/testing/env';
import { preload } from '../packages/foundation/scripts/standalone.mjs';
import { killedOnExit } from '@web-foundation/testing/processes';

const dist = option('dist', '.next-e2e');
const runs = Number(option('runs', '10'));
const sdk = option('sdk', 'on');
if (!['on', 'no-replay', 'held', 'off'].includes(sdk)) {
  console.error(`--sdk says ${sdk}: say on, no-replay, held or off.`);
  process.exit(1);
}
const cpu = Number(option('cpu', '1'));
const port = Number(option('port', '3310'));
const ingestPort = Number(option('ingest-port', '3311'));
/** A click whose full navigation has not started after this long is stuck (Next has no later time-out). */
const stuckAfterMs = 10_000;
/** Longest one run may take, all its waits together: past it the run counts as failed on the way, never hangs. */
const runDeadlineMs = 60_000;

/**
 * `promise`, or an error saying what did not happen within `ms`.
 * @template T
 * @param {Promise<T>} promise
 * @param {number} ms
 * @param {string} what
 * @returns {Promise<T>}
 */
function within(promise, ms, what) {
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

const ingest = startIngest(ingestPort);
const server = killedOnExit(
  spawn('node', ['--import', `./${preload}`, 'server.js'], {
    cwd: appServer(dist),
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      NEXT_DIST_DIR: dist,
      PORT: String(port),
      HOSTNAME: 'localhost',
    },
  }),
);
const origin = `http://localhost:${port}`;
for (
  let i = 0;
  !(await fetch(`${origin}/api/health`).then(
    (r) => r.ok,
    () => false,
  ));
  i++
) {
  if (i > 100) throw new Error(`${dist} did not start on ${origin}`);
  await sleep(100);
}

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
/** The chunks held back: the SDK's core (its transport's endpoint), or replay's (the recorder it is built on). */
const heldMarker = /** @type {Record<string, string | undefined>} */ ({ held: '/envelope/', 'no-replay': 'rrweb' })[
  sdk
];

/**
 * One click: how long until the full navigation, or, for a page that stayed stuck, whether an idle callback ran and
 * how long after one animation frame it navigated (undefined: never).
 * @param {import('@playwright/test').BrowserContext} context
 * @returns {Promise<{ ms: number } | { ms?: undefined, idle: boolean, afterFrameMs: number | undefined }>}
 */
async function once(context) {
  const page = await context.newPage();
  await page.goto(`${origin}/examples/announcer/titled`);
  const files = await page.evaluate(
    () =>
      /** @type {{ __BUILD_MANIFEST?: Record<string, string[]> }} */ (self).__BUILD_MANIFEST?.['/examples/new'] ?? [],
  );
  const scripts = new Set(files.filter((f) => f.endsWith('.js')).map((f) => `/_next/${f}`));
  if (heldMarker) {
    await page.route(
      (url) => url.pathname.startsWith('/_next/static/chunks/'),
      async (route) => {
        try {
          const response = await route.fetch();
          if (!(await response.text()).includes(heldMarker)) await route.fulfill({ response });
        } catch {
          // The page left while the chunk was in flight.
        }
      },
    );
  }
  let stalling = true;
  await page.route(
    (url) => scripts.has(url.pathname),
    (route) => (!stalling || route.request().resourceType() !== 'script' ? route.continue() : undefined),
  );
  /** @type {number | undefined} */
  let left;
  page.on('request', (r) => {
    if (r.isNavigationRequest() && new URL(r.url()).pathname === '/examples/new') {
      stalling = false;
      left ??= Date.now();
    }
  });
  // The tests' page of links to the reference pages.
  await page.goto(`${origin}/examples`);
  const started = (/** @type {string | undefined} */ integration) =>
    page.waitForFunction((name) => {
      const carrier =
        /** @type {{ __SENTRY__?: Record<string, { defaultCurrentScope?: import('@sentry/core').Scope }> }} */ (
          globalThis
        ).__SENTRY__;
      const client = Object.values(carrier ?? {})
        .map((v) => v?.defaultCurrentScope?.getClient?.())
        .find(Boolean);
      return name ? client?.getIntegrationByName(name) : client;
    }, integration);
  if (sdk === 'on') await started('Replay');
  if (sdk === 'no-replay') await started(undefined);
  // The prefetch fails (DevTools URL blocking: page.route does not see <link rel=prefetch>), then the click.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const failed = new Promise((/** @type {(value?: undefined) => void} */ resolve) =>
    cdp.on('Network.loadingFailed', (e) => e.blockedReason && resolve()),
  );
  await cdp.send('Network.setBlockedURLs', { urls: [...scripts].map((path) => `*${path}*`) });
  const link = page.getByRole('link', { name: /^A static route that beats/ });
  await link.scrollIntoViewIfNeeded();
  // Without a time-out: a prefetch made before the blocking never fails, and the run would wait for ever.
  await within(failed, stuckAfterMs, 'the blocked prefetch');
  await cdp.send('Network.setBlockedURLs', { urls: [] });
  if (cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  const clicked = Date.now();
  await link.click();
  while (!left && Date.now() - clicked < stuckAfterMs) await sleep(50);
  if (left) return { ms: left - clicked };
  // Stuck: does an idle callback run now (within 2 s)? Then one animation frame: does Next's time-out start?
  const idle = await page.evaluate(
    () =>
      new Promise((/** @type {(idle: boolean) => void} */ resolve) => {
        requestIdleCallback(() => resolve(true));
        setTimeout(() => resolve(false), 2000);
      }),
  );
  const framed = Date.now();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  while (!left && Date.now() - framed < stuckAfterMs) await sleep(50);
  return { idle, afterFrameMs: left ? left - framed : undefined };
}

/** @type {number[]} */
const times = [];
/** @type {{ idle: boolean, afterFrameMs: number | undefined }[]} */
const stuck = [];
/** @type {string[]} */
const errors = [];
for (let i = 0; i < runs; i++) {
  // A run that fails on the way (a page that timed out under load) is counted apart, not as stuck.
  const context = await browser.newContext({ viewport: { width: 800, height: 200 } });
  const run = await within(once(context), runDeadlineMs, 'the run')
    .catch((/** @type {Error} */ error) => ({ error }))
    .finally(() => context.close());
  if ('error' in run) {
    errors.push(run.error.message.split('\n')[0] ?? '');
    process.stdout.write('E');
    continue;
  }
  if (run.ms === undefined) stuck.push(run);
  else times.push(run.ms);
  process.stdout.write(run.ms === undefined ? 'S' : '.');
}
await browser.close();
ingest.stop();
server.kill();
times.sort((a, b) => a - b);
console.log(
  `\n${dist} sdk=${sdk} cpu=${cpu}×: ${times.length} of ${runs - errors.length} reached the page by a full navigation, ` +
    `${stuck.length} stuck (no navigation ${stuckAfterMs / 1000} s after the click); ` +
    `click to navigation ${times[0] ?? '-'}–${times.at(-1) ?? '-'} ms`,
);
if (errors.length) console.log(`runs that failed on the way: ${errors.length} (${[...new Set(errors)].join('; ')})`);
if (stuck.length) {
  const idle = stuck.filter((run) => run.idle).length;
  const after = stuck.flatMap((run) => (run.afterFrameMs === undefined ? [] : [run.afterFrameMs]));
  console.log(
    `stuck pages: an idle callback ran within 2 s in ${idle} of ${stuck.length}; after one animation frame, ` +
      `${after.length} of ${stuck.length} navigated, ${Math.min(...after)}–${Math.max(...after)} ms later`,
  );
}
process.exit(0);
