// What the benchmarks share: building and starting a Next app on loopback, the local ingest, memory readings.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtDir, chromiumFlags, chromiumPath, referenceApp, serverDir } from '@web-foundation/testing/env';
import { IngestClient } from '@web-foundation/testing/ingest';
import { killedOnExit } from '@web-foundation/testing/processes';
import { preload } from '../packages/foundation/scripts/standalone.mjs';
import { longTaskCauses, scriptRole, scriptUrls, traceCategories } from './long-task-causes.mjs';

export const nextBin = 'node_modules/next/dist/bin/next';
export const sleep = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));

/**
 * @template {string | number} Fallback
 * @overload
 * @param {string} name
 * @param {Fallback} fallback
 * @returns {string | Fallback}
 */
/**
 * @overload
 * @param {string} name
 * @param {undefined} [fallback]
 * @returns {string | undefined}
 */
/**
 * A benchmark's command-line option: the word after `--name`, or the fallback.
 * @param {string} name
 * @param {string | number} [fallback]
 */
export function option(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : (process.argv[i + 1] ?? fallback);
}

/**
 * The local Sentry-protocol ingest, accepting everything, so that the app's sending is measured, not skipped: the
 * tests' client (packages/testing/src/ingest.ts) with its `dsn`, `pid` and `stop()`. `transactionsFor(from, paths)` counts the
 * transactions of requests to those paths that arrived after `from` (a `now()` taken before the load). `env`: more of
 * the ingest's settings (its HTTPS listener: bench/https-ingest-sink.mjs).
 * @param {number} port
 * @param {Record<string, string>} [env]
 */
export function startIngest(port, env = {}) {
  const ingest = killedOnExit(
    spawn('node', ['packages/testing/src/sentry-ingest.mjs'], {
      stdio: 'ignore',
      env: { ...process.env, INGEST_PORT: String(port), ...env },
    }),
  );
  const client = new IngestClient(`http://127.0.0.1:${port}`);
  return Object.assign(client, {
    dsn: `http://public@127.0.0.1:${port}/1`,
    pid: ingest.pid,
    stop: () => ingest.kill(),
    transactionsFor: async (
      /** @type {import('@web-foundation/testing/ingest').Moment} */ from,
      /** @type {string[]} */ paths,
    ) =>
      (await client.items('transaction', from)).filter((item) =>
        paths.includes(/** @type {{ request?: { url?: string } }} */ (item.payload).request?.url ?? ''),
      ).length,
  });
}

/**
 * The settings a bench builds or starts a server with, on top of its own environment.
 * @typedef {Record<string, string | undefined>} Env
 */

/**
 * `next build` of a directory, without Turbopack's cache from earlier builds; returns the seconds it took.
 * @param {string} dir
 * @param {Env} env
 */
export function build(dir, env) {
  rmSync(join(dir, env.NEXT_DIST_DIR ?? '.next', 'cache'), { recursive: true, force: true });
  const started = performance.now();
  const result = spawnSync('node', [nextBin, 'build', dir], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  if (result.status !== 0) throw new Error(`next build ${dir} failed`);
  return (performance.now() - started) / 1000;
}

/**
 * The app the benchmarks load: the reference pages (/examples/…, /api/health, /api/diagnostics/…), the app the tests
 * prove the specification on. No bench loads the guide's pages (apps/guide) or the team's (apps/web).
 */
export const benchApp = referenceApp;

/** A build of the bench's app from the repository's root: `distDir` (NEXT_DIST_DIR) is inside the app's folder. */
export const appBuild = (/** @type {string} */ distDir) => builtDir(distDir, benchApp);

/**
 * The folder of that build's standalone server.js, with the server preload beside it: the standalone directory keeps
 * the repository's layout (Next traces from its root), so the server sits at the app's path in it
 * (apps/reference/.next-x/standalone/apps/reference).
 */
export const appServer = (/** @type {string} */ distDir) => serverDir(distDir, benchApp);

/**
 * Builds the bench's app in its own folder, as its `npm run build` does (packages/foundation/scripts/build.mjs), with
 * `env` (NEXT_DIST_DIR among it) and without Turbopack's cache from earlier builds: the build lands in
 * appBuild(NEXT_DIST_DIR), its standalone server in appServer(NEXT_DIST_DIR). Returns the seconds it took.
 * @param {Env} env
 */
export function buildApp(env) {
  rmSync(join(appBuild(env.NEXT_DIST_DIR ?? '.next'), 'cache'), { recursive: true, force: true });
  const started = performance.now();
  const script = fileURLToPath(new URL('../packages/foundation/scripts/build.mjs', import.meta.url));
  const result = spawnSync('node', [script], {
    cwd: benchApp,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  if (result.status !== 0) throw new Error(`the build of ${benchApp} failed (exit code ${result.status})`);
  return (performance.now() - started) / 1000;
}

/**
 * Builds bench/baseline, or `bench/.baseline-no-proxy` (a copy of it without proxy.js, beside it), in place; returns
 * the seconds. No copy of the apps is needed: the baseline re-exports the reference app's pages by their paths in
 * apps/reference/src, which import each other and the foundation's package (through the root's node_modules), all
 * below the repository's root, which Turbopack resolves in (the lockfile's folder).
 */
export const buildBaseline = (/** @type {string} */ dir, /** @type {Env} */ env) => build(dir, env);

/**
 * A build on localhost as it runs in production; resolves once /api/health answers. The app (`dir` is its folder, as
 * benchApp or in another worktree) as `npm start` runs it: its standalone server with the preload (startStandalone),
 * which refuses, holds bodies and serves the brotli copies of its scripts; a baseline, which has no standalone server,
 * with `next start`.
 * @param {string} dir
 * @param {number} port
 * @param {Env} env
 */
export async function start(dir, port, env) {
  const standalone = join(dir, env.NEXT_DIST_DIR ?? '.next', 'standalone', benchApp);
  if (existsSync(join(standalone, 'server.js'))) return startStandalone(standalone, port, env);
  const server = spawn('node', [nextBin, 'start', dir, '-H', 'localhost', '-p', String(port)], {
    stdio: 'ignore',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...env },
  });
  const origin = `http://localhost:${port}`;
  if (await answersHealth(origin, 100)) return { server, origin };
  server.kill('SIGKILL');
  throw new Error(`${dir} did not start on ${origin}`);
}

/**
 * Polls `origin`'s /api/health every 100 ms, at most `attempts` times; true once it answers 200.
 * @param {string} origin
 * @param {number} attempts
 */
export async function answersHealth(origin, attempts) {
  for (let i = 0; i < attempts; i++) {
    if (
      await fetch(`${origin}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return true;
    await sleep(100);
  }
  return false;
}

/**
 * A build's standalone server as `npm start` runs it (the preload included), from the directory `dir` that holds its
 * server.js, on localhost; resolves once /api/health answers.
 * @param {string} dir
 * @param {number} port
 * @param {Env} env
 * @param {{ cpu?: number, allocations?: boolean }} [options]
 */
export async function startStandalone(dir, port, env, { cpu, allocations = false } = {}) {
  // `allocations`: bench/allocation-probe.mjs answers over an IPC channel how much the server has allocated.
  const probe = allocations ? ['--import', fileURLToPath(new URL('allocation-probe.mjs', import.meta.url))] : [];
  // bench:ab's earlier commit may have the preload where it was before: in the app's src/server (before the foundation
  // became a package), or as server-lifecycle.mjs (before that).
  const preloaded =
    [preload, 'src/server/preload.mts'].map((path) => `./${path}`).find((path) => existsSync(join(dir, path))) ??
    './server-lifecycle.mjs';
  const nodeArgs = [...probe, '--import', preloaded, 'server.js'];
  // `cpu`: the server runs on that core alone (taskset replaces itself with node: the pid is the server's).
  /** @type {[string, string[]]} */
  const [file, args] = cpu === undefined ? ['node', nodeArgs] : ['taskset', ['-c', String(cpu), 'node', ...nodeArgs]];
  const server = spawn(file, args, {
    cwd: dir,
    stdio: /** @type {import('node:child_process').StdioOptions} */ (
      allocations ? ['ignore', 'ignore', 'ignore', 'ipc'] : 'ignore'
    ),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PORT: String(port),
      HOSTNAME: 'localhost',
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
  });
  killedOnExit(server);
  const origin = `http://localhost:${port}`;
  // Its own answer, polled on a port below the ephemeral range (no self-connect).
  if (await answersHealth(origin, 300)) {
    return {
      server,
      origin,
      stop: () => server.kill('SIGKILL'),
      ...(allocations ? { allocatedBytes: () => allocatedBytes(server) } : {}),
    };
  }
  server.kill('SIGKILL');
  throw new Error(`the server in ${dir} did not start on ${origin}`);
}

/**
 * On a machine with several cores, the last one for the servers under test and the others for this process, the given
 * ones (the ingest) and whatever starts after (Redis): a server then does not take turns on one core with the load
 * generator, which made CPU per request vary by 10% and more between rounds of the same build. Returns the servers'
 * core, or undefined when that cannot be done.
 * @param {...(number | undefined)} pids
 */
export function dedicateServerCore(...pids) {
  const count = cpus().length;
  if (count < 2) return undefined;
  for (const pid of [process.pid, ...pids]) {
    if (spawnSync('taskset', ['-a', '-p', '-c', `0-${count - 2}`, String(pid)]).status !== 0) return undefined;
  }
  return count - 1;
}

/**
 * The heap bytes a server started with `allocations` has allocated so far (bench/allocation-probe.mjs).
 * @param {import('node:child_process').ChildProcess} server
 * @returns {Promise<number>}
 */
function allocatedBytes(server) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server ${server.pid} did not say what it allocated`)), 5000);
    server.once('message', (/** @type {{ allocatedBytes: number }} */ { allocatedBytes }) => {
      clearTimeout(timer);
      resolve(allocatedBytes);
    });
    server.send('allocated');
  });
}

/**
 * Resident memory of a process, in MB.
 * @param {number | undefined} pid
 */
export function rssMb(pid) {
  const out = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)])
    .stdout.toString()
    .trim();
  return out ? Number(out) / 1024 : 0;
}

/**
 * CPU time (user + system) a process has used so far, in ms (Linux /proc, 100 ticks a second).
 * @param {number | undefined} pid
 */
export function cpuMs(pid) {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * One path under autocannon after a 2 s warm-up (lazy route modules, JIT): requests/s, latency, errors, the server's
 * peak resident memory and its CPU time per request. CPU per request is the steadier figure when the machine is shared
 * (the load generator and the ingest run beside the server).
 * @param {string} origin
 * @param {string} path
 * @param {number | undefined} pid
 * @param {{ connections: number, seconds: number }} options
 */
export async function load(origin, path, pid, { connections, seconds }) {
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 250);
  const warmUp = await autocannon({ url: `${origin}${path}`, connections, duration: 2 });
  const cpuBefore = cpuMs(pid);
  const result = await autocannon({ url: `${origin}${path}`, connections, duration: seconds });
  const cpu = cpuMs(pid) - cpuBefore;
  clearInterval(sampler);
  return {
    requests: result.requests.total,
    warmUpRequests: warmUp.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    peakRssMb: peak,
    cpuMsPerRequest: result.requests.total ? cpu / result.requests.total : undefined,
  };
}

/**
 * What a Lighthouse run's LCP estimate rests on: the largest paint as it was seen on loopback, and the scripts that had
 * finished loading by then. Lantern, Lighthouse's simulation, puts every request that finished before the observed
 * paint into LCP's graph and replays it at slow 4G, so a run in which the framework's scripts won that race reads
 * about a second later than one in which the image did (docs/performance.md, "Lighthouse's mobile LCP").
 * @param {LighthouseResult} lhr
 */
function beforeLargestPaint(lhr) {
  const observedLcpMs = lhr.audits.metrics?.details?.items?.[0]?.observedLargestContentfulPaint ?? NaN;
  const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
    (request) => request.resourceType === 'Script' && (request.networkEndTime ?? Infinity) < observedLcpMs,
  );
  const scriptKbBeforeLcp = scripts.reduce((kb, request) => kb + (request.transferSize ?? 0) / 1024, 0);
  return { observedLcpMs, scriptsBeforeLcp: scripts.length, scriptKbBeforeLcp };
}

/**
 * The main thread's long tasks (over 50 ms) of a Lighthouse run, as its `long-tasks` audit finds them: under the
 * mobile preset, at the times its simulation gives them (4× CPU slowdown). Each with its start and length in ms and
 * the script it is attributed to (`url`; or `Browser`, `Browser GC`, `Unattributable`). The audit's split of a task by
 * kind of work does not survive the simulation (all of it reads "other"), so it is left out.
 * @param {LighthouseResult} lhr
 * @returns {{ startMs: number, ms: number, url: string }[]}
 */
export function longTasksOf(lhr) {
  const { urls = [], tasks = [] } = lhr.audits['long-tasks']?.details?.debugData ?? {};
  return tasks.map((/** @type {{ urlIndex: number, startTime: number, duration: number }} */ task) => ({
    startMs: Math.round(task.startTime),
    ms: Math.round(task.duration),
    url: urls[task.urlIndex] ?? '',
  }));
}

/** Lighthouse's categories the bench prints: performance, and the three issue 17 keeps at 100. */
export const lighthouseCategories = ['performance', 'accessibility', 'best-practices', 'seo'];

/**
 * Lighthouse's categories for one URL, in Debian's Chromium: `mobile` is Lighthouse's default (a mid-range phone: 4×
 * CPU slowdown, slow 4G, both simulated), `desktop` its desktop preset. All in one run, as Lighthouse's own default
 * does: the other categories' gatherers (axe among them) run after the page load that performance is measured on.
 * Returns the performance score (0–100), every category's score by id in `categories`, the audits that cost the
 * other categories points in `missed`, LCP and TBT in ms, the bytes the page transferred in KB, and its long tasks
 * (longTasksOf).
 * @param {string} url
 */
export async function lighthouse(url, preset = 'mobile') {
  const { default: run } = await import('lighthouse');
  const config = preset === 'desktop' ? (await import('lighthouse/core/config/desktop-config.js')).default : undefined;
  const chromeLauncher = await import('chrome-launcher');
  const chrome = await chromeLauncher.launch({
    chromePath: chromiumPath,
    chromeFlags: ['--headless=new', ...chromiumFlags],
  });
  try {
    const result = await run(
      url,
      { port: chrome.port, onlyCategories: lighthouseCategories, logLevel: 'error' },
      config,
    );
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    const lhr = /** @type {LighthouseResult} */ (/** @type {unknown} */ (result.lhr));
    const audit = (/** @type {string} */ id) => lhr.audits[id]?.numericValue ?? NaN;
    const score = (/** @type {string} */ id) => (lhr.categories[id]?.score ?? 0) * 100;
    // Which audits cost the other categories points, so that a score under 100 says why.
    const missed = lighthouseCategories
      .filter((id) => id !== 'performance')
      .flatMap((id) =>
        (lhr.categories[id]?.auditRefs ?? [])
          .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
          .map((ref) => `${id}: ${ref.id}`),
      );
    return {
      score: score('performance'),
      categories: Object.fromEntries(lighthouseCategories.map((id) => [id, score(id)])),
      missed,
      lcpMs: audit('largest-contentful-paint'),
      tbtMs: audit('total-blocking-time'),
      totalKb: audit('total-byte-weight') / 1024,
      longTasks: longTasksOf(lhr),
      ...beforeLargestPaint(lhr),
    };
  } finally {
    await chrome.kill();
  }
}

/**
 * Watches a page (before it navigates) for the moments, after navigation start, the browser SDK (loaded after the
 * page) and session replay start. Replay records nothing before its start: its first snapshot shows the page as it is
 * then; an error raised earlier starts it at once (reporter.ts, replayBeforeErrors).
 * @param {import('@playwright/test').Page} page
 */
export async function watchReportingStart(page) {
  await page.addInitScript(() => {
    /** @type {ReportingStart} */
    const seen = {};
    const watched = /** @type {WatchedWindow} */ (window);
    watched.__reportingStart = seen;
    const timer = setInterval(() => {
      const carrier = watched.__SENTRY__ ?? {};
      const client = Object.values(carrier)
        .find((v) => v?.defaultCurrentScope)
        ?.defaultCurrentScope?.getClient();
      if (client && seen.sdkMs === undefined) seen.sdkMs = performance.now();
      const replay = /** @type {{ getReplayId(): string | undefined } | undefined} */ (
        client?.getIntegrationByName('Replay')
      );
      if (replay?.getReplayId()) {
        seen.replayMs = performance.now();
        clearInterval(timer);
      }
    }, 2);
  });
}

/**
 * What watchReportingStart saw, once replay has started: sdkMs, replayMs and the load event's end (loadMs).
 * @param {import('@playwright/test').Page} page
 */
export async function reportingStartTimes(page) {
  await page.waitForFunction(
    () => /** @type {WatchedWindow} */ (window).__reportingStart?.replayMs !== undefined,
    null,
    {
      timeout: 20_000,
    },
  );
  return page.evaluate(seenSoFar);
}

/**
 * In the page: watchReportingStart's times, and the load event's end (loadMs).
 * @typedef {ReturnType<typeof seenSoFar>} ReportingStartTimes
 */
function seenSoFar() {
  const [navigation] = /** @type {PerformanceNavigationTiming[]} */ (performance.getEntriesByType('navigation'));
  return { .../** @type {WatchedWindow} */ (window).__reportingStart, loadMs: navigation?.loadEventEnd };
}

/**
 * What watchReportingStart keeps in the page.
 * @typedef {{ sdkMs?: number, replayMs?: number }} ReportingStart
 * @typedef {Window & {
 *   __reportingStart?: ReportingStart,
 *   __SENTRY__?: Record<string, { defaultCurrentScope?: import('@sentry/core').Scope } | undefined>,
 * }} WatchedWindow
 */

/**
 * A Lighthouse report, as far as the benches read it (Lighthouse types an audit's details as the union of every
 * audit's, which says nothing about the one read).
 * @typedef {{
 *   audits: Record<string, {
 *     numericValue?: number,
 *     score: number | null,
 *     details?: {
 *       items?: {
 *         observedLargestContentfulPaint?: number,
 *         resourceType?: string,
 *         networkEndTime?: number,
 *         transferSize?: number,
 *       }[],
 *       debugData?: { urls?: string[], tasks?: { urlIndex: number, startTime: number, duration: number }[] },
 *     },
 *   } | undefined>,
 *   categories: Record<string, { score: number | null, auditRefs: { id: string, weight: number }[] } | undefined>,
 * }} LighthouseResult
 */

/**
 * watchReportingStart's times for one load of `url` in Debian's Chromium, with no throttling.
 * @param {string} url
 */
export async function reportingStart(url) {
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  try {
    const page = await browser.newPage();
    await watchReportingStart(page);
    await page.goto(url);
    return await reportingStartTimes(page);
  } finally {
    await browser.close();
  }
}

/**
 * Every asset a page names (scripts, stylesheet, images in each size), fetched once: a server that has just started is
 * not what a phone meets in production, and the image optimiser's first answer is its slowest.
 * @param {string} origin
 * @param {string} path
 */
export async function warmUp(origin, path) {
  const html = await (await fetch(`${origin}${path}`)).text();
  /** @type {Set<string>} */
  const urls = new Set();
  for (const [, value = ''] of html.matchAll(/\b(?:src|href|srcSet)="([^"]+)"/g)) {
    for (const candidate of value.replaceAll('&amp;', '&').split(',')) {
      const url = candidate.trim().split(/\s+/)[0] ?? '';
      if (url.startsWith('/_next/')) urls.add(url);
    }
  }
  for (const url of urls) await (await fetch(new URL(url, origin))).arrayBuffer();
}

/**
 * What each of `urls` served by `origin` is (bench/long-task-causes.mjs scriptRole) and its text, `{ role, source }`
 * by URL: fetched from the server while it runs, each once into `known` (kept across loads of the same build).
 * @param {string} origin
 * @param {Iterable<string>} urls
 * @param {Map<string, { role: string, source: string }>} [known]
 */
export async function pageScripts(origin, urls, known = new Map()) {
  for (const url of urls) {
    if (known.has(url) || !url.startsWith(`${origin}/`)) continue;
    const source = await (await fetch(url)).text();
    known.set(url, { role: scriptRole(source), source });
  }
  return known;
}

/**
 * A new page as Lighthouse's phone sees it: its viewport and pixel ratio (so that the hero image is the largest paint,
 * as there) and the CPU slowed down `slowdown` times through the DevTools protocol.
 * @param {import('@playwright/test').Browser} browser
 * @param {number} slowdown
 */
export async function phonePage(browser, slowdown) {
  const page = await browser.newPage({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: slowdown });
  return page;
}

/**
 * Loads of `url` in Debian's Chromium as a phone (Lighthouse's: its viewport and pixel ratio, the CPU `slowdown`×
 * slower), each under a performance trace from before navigation until `afterLoadMs` after the load event, read into
 * its long tasks and their causes (bench/long-task-causes.mjs). `reporting`: the page loads the SDK; the times
 * watchReportingStart saw are returned (replay's start must fall inside the trace). `compile`: trace V8's lazy
 * compilation too. `traces`: a folder to write each load's trace to (load-1.json …; DevTools' Performance panel
 * opens them). Calls `onLoad` with each load as it ends; returns them all, each `{ tasks, started }`.
 * @param {string} url
 * @param {{
 *   loads?: number, slowdown?: number, reporting?: boolean, afterLoadMs?: number, compile?: boolean, traces?: string,
 *   onLoad?: (load: LongTaskLoad, i: number) => void | Promise<void>,
 * }} [options]
 */
export async function longTaskLoads(
  url,
  { loads = 1, slowdown = 4, reporting = false, afterLoadMs = 8000, compile = false, traces, onLoad = () => {} } = {},
) {
  const { chromium } = await import('@playwright/test');
  const { origin } = new URL(url);
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
  /** @type {Map<string, { role: string, source: string }>} */
  const scripts = new Map();
  /** @type {LongTaskLoad[]} */
  const results = [];
  try {
    for (let i = 1; i <= loads; i++) {
      const page = await phonePage(browser, slowdown);
      if (reporting) await watchReportingStart(page);
      await browser.startTracing(page, { categories: traceCategories({ compile }) });
      // V8's profiler starts at the next script the page runs: here, on about:blank. Else it starts inside the
      // measured page's first task, a long one of its own (70 ms at 4×).
      await page.evaluate(() => 0);
      await page.goto(url);
      // A timer in this process, not page.waitForTimeout or waitForFunction: no script of the driver runs in the page
      // while it is traced (Playwright's injected script is a long task of its own at 4×).
      await sleep(afterLoadMs);
      const trace = await browser.stopTracing();
      if (traces) {
        mkdirSync(traces, { recursive: true });
        writeFileSync(join(traces, `load-${i}.json`), trace);
      }
      const { traceEvents } = JSON.parse(trace.toString());
      const started = reporting ? await page.evaluate(seenSoFar) : undefined;
      await page.close();
      const tasks = longTaskCauses(traceEvents, await pageScripts(origin, scriptUrls(traceEvents), scripts));
      const load = { tasks, started };
      results.push(load);
      await onLoad(load, i);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/**
 * One load longTaskLoads measured: its long tasks and their causes, and (with `reporting`) when the SDK and replay
 * started.
 * @typedef {{ tasks: ReturnType<typeof longTaskCauses>, started: ReportingStartTimes | undefined }} LongTaskLoad
 */
