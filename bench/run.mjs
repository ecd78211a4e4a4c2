// `npm run bench`: the app against a bare Next.js baseline with the spec's proxy, and that baseline without its proxy,
// alternating A B C A B C so that machine noise cancels. Prints a table of ratios (app / baseline) with the raw figures.
// Loopback only; every load is bounded in time.
//
//   npm run bench                       # build all three, 2 rounds of 10 s per route
//   npm run bench -- --rounds 3 --seconds 15 --connections 20
//   npm run bench -- --skip-build       # reuse the last builds
//   npm run bench -- --json bench/results/latest.json   # also write the figures
//   npm run bench -- --baseline bench/results/previous.json   # compare app figures with an earlier run
//   npm run bench -- --soak 300         # also: the app under load for 300 s, resident memory sampled every 5 s
//   npm run bench -- --lighthouse-runs 3   # Lighthouse on /examples for baseline and app, alternating (default 5)
//   npm run bench -- --skip-build --lighthouse-only   # Lighthouse alone, on the last builds
//   npm run bench -- --long-task-loads 3   # traced loads per build for the long tasks' causes (default 1; 0: none)
//   npm run bench -- --port 3500        # servers on 3500-3502, the ingest on 3599 (default 3200: 3200-3202, 3299),
//                                       # bench:logging's server and ingest on 3503 and 3504
//   npm run bench -- --port 3500 --ingest-port 3549   # the ingest elsewhere than --port + 99
//
// The app is the reference app (apps/reference: the /examples pages), built in its folder as
// apps/reference/.next-bench and served as `npm start` serves it, by its standalone server with the preload (bench/lib.mjs
// buildApp, start); the baseline re-exports the same reference pages and is built in place, as is its copy without
// proxy.js (bench/lib.mjs buildBaseline), and served by `next start`. Before 2026-12-02 the app was served by
// `next start` too: without the preload's refusals, bounds and brotli copies.
// The page Lighthouse and the browser figures measure on both sides is /examples: the hero image and the links to
// the reference pages, the app's home page `/` until those pages moved to the tests. After Lighthouse's figures, the
// long tasks of each build's mobile run with the median TBT, each with its script and what that script is (error
// reporting, replay, page and framework; bench/lib.mjs longTasksOf; docs/performance.md, "Long tasks on a phone").
// Then what causes each long task: a load per build in Chromium at the same 4× CPU under a performance trace, read
// into its tasks with the kind of work, the scripts and functions each ran, and its cause (bench/long-tasks.mjs does
// more loads of one build).
//
// "app, HTTPS ingest": the same build, its server reporting to an HTTPS ingest (a self-signed certificate the server
// trusts through NODE_EXTRA_CA_CERTS; --https-ingest-port and the port after it, default --port + 97 and + 98), as
// production's ingest is; the server on --port + 5. Only its load figures (the routes' CPU, throughput, latency).
//
// Last, unless --lighthouse-only, the logger's cost with its own defaults (`npm run bench:logging`). It runs from
// here, not after this script in package.json, so that npm passes this script the options given to `npm run bench`.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname } from 'node:path';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import {
  benchApp,
  buildApp,
  buildBaseline,
  lighthouse,
  load,
  longTaskLoads,
  option,
  pageScripts,
  reportingStart,
  rssMb,
  sleep,
  start as nextStart,
  startIngest,
  warmUp,
} from './lib.mjs';
import { causeSummary, longTaskMs, scriptFile, taskLines } from './long-task-causes.mjs';
import { startHttpsIngest } from './https-ingest-sink.mjs';
import { now } from '@web-foundation/testing/ingest';

const args = process.argv.slice(2);
const rounds = Number(option('rounds', 2));
const seconds = Number(option('seconds', 10));
const connections = Number(option('connections', 20));
const skipBuild = args.includes('--skip-build');
const lighthouseOnly = args.includes('--lighthouse-only');
const jsonOut = option('json', undefined);
const previous = option('baseline', undefined);
const soakSeconds = Number(option('soak', 0));
const lighthouseRuns = Number(option('lighthouse-runs', 5));
const longTaskLoadCount = Number(option('long-task-loads', 1));
const port = Number(option('port', 3200));
const ingestPort = Number(option('ingest-port', port + 99));
/** The page the browser figures are taken on (Lighthouse, first-load JS, the SDK's start), the same on both sides. */
const measuredPage = '/examples';

/** bench/baseline without its proxy.js, copied beside it (its imports hold there), built in place as the baseline. */
const bareDir = 'bench/.baseline-no-proxy';
function copyBare() {
  rmSync(bareDir, { recursive: true, force: true });
  cpSync('bench/baseline', bareDir, {
    recursive: true,
    filter: (/** @type {string} */ src) => !/[/\\](proxy\.js|\.next)$/.test(src),
  });
}

const ingest = startIngest(ingestPort);
const ingestDsn = ingest.dsn;
const httpsIngestPort = Number(option('https-ingest-port', port + 97));
const httpsIngest = startHttpsIngest(httpsIngestPort, httpsIngestPort + 1);

const appTarget = {
  dir: benchApp,
  port: port + 2,
  // Reporting and tracing fully on, sending to a local ingest that accepts everything.
  // Its own build directory: `npm start` keeps serving the build it had.
  env: { SENTRY_DSN: ingestDsn, NEXT_PUBLIC_SENTRY_DSN: ingestDsn, NEXT_DIST_DIR: '.next-bench' },
};
/** @typedef {keyof typeof targets} Target */
const targets = {
  // The bare app without the spec's proxy: only to show what the proxy itself costs (its own column).
  bare: { dir: bareDir, port, env: {} },
  // The baseline: a bare app with the same routes and the spec's proxy matcher. Every ratio is against it.
  baseline: { dir: 'bench/baseline', port: port + 1, env: {} },
  app: appTarget,
  // The app's build and settings, its server's reports to the HTTPS ingest.
  appHttps: { ...appTarget, port: port + 5, env: { ...appTarget.env, ...httpsIngest.serverEnv } },
};
const routes = [
  { name: 'static page', path: '/examples/new' },
  { name: 'getServerSideProps page', path: '/examples/42' },
  { name: 'API route', path: '/api/health' },
];
const pages = [measuredPage, '/examples/new', '/examples/42'];

/** @param {Target} name */
function build(name) {
  const env = { BUILD_ID: `bench-${name}`, ...targets[name].env };
  return name === 'app' ? buildApp(env) : buildBaseline(targets[name].dir, env);
}
/** @param {Target} name */
function start(name) {
  const { dir, port, env } = targets[name];
  return nextStart(dir, port, env);
}

/**
 * The gzipped size of the scripts a page loads with it (those for browsers without modules left out), in KB.
 * @param {string} origin
 * @param {string} path
 */
async function firstLoadJs(origin, path) {
  const html = await (await fetch(`${origin}${path}`)).text();
  const scripts = [...html.matchAll(/<script\b([^>]*)\bsrc="([^"]+)"([^>]*)>/g)]
    .filter(([, before = '', , after = '']) => !/\bnoModule\b/i.test(before + after))
    .map(([, , src = '']) => src);
  let bytes = 0;
  for (const src of scripts)
    bytes += gzipSync(Buffer.from(await (await fetch(new URL(src, origin))).arrayBuffer())).length;
  return bytes / 1024;
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const at = (/** @type {number} */ i) => sorted[i] ?? NaN;
  return sorted.length % 2 ? at(mid) : (at(mid - 1) + at(mid)) / 2;
}

/**
 * The app under a steady load over all three routes for `soakSeconds`, resident memory sampled every 5 s. A leak
 * shows as steady growth after the first minute (warm-up: JIT, caches, lazily loaded route modules).
 */
/**
 * @param {string} origin
 * @param {number | undefined} pid
 */
async function soakTest(origin, pid) {
  /** @type {{ s: number, mb: number }[]} */
  const samples = [];
  const started = Date.now();
  const sampler = setInterval(() => samples.push({ s: (Date.now() - started) / 1000, mb: rssMb(pid) }), 5000);
  const result = await autocannon({
    url: origin,
    connections,
    duration: soakSeconds,
    requests: routes.map((route) => ({ method: 'GET', path: route.path })),
  });
  clearInterval(sampler);
  const after = samples.filter((sample) => sample.s >= 60);
  const n = after.length;
  const meanS = after.reduce((sum, x) => sum + x.s, 0) / n;
  const meanMb = after.reduce((sum, x) => sum + x.mb, 0) / n;
  const slope =
    after.reduce((sum, x) => sum + (x.s - meanS) * (x.mb - meanMb), 0) /
    after.reduce((sum, x) => sum + (x.s - meanS) ** 2, 0);
  return {
    requests: result.requests.total,
    errors: result.errors + result.timeouts + result.non2xx,
    rssAt60sMb: after[0]?.mb,
    rssAtEndMb: samples.at(-1)?.mb,
    growthMbPerMin: slope * 60,
    samples,
  };
}

const loadOptions = { connections, seconds };
/**
 * @param {Target} name
 * @param {{ name: string }} route
 * @param {Awaited<ReturnType<typeof load>>} result
 */
function recordLoad(name, route, result) {
  record(name, `${route.name} req/s`, result.rps);
  record(name, `${route.name} p50 ms`, result.p50);
  record(name, `${route.name} p99 ms`, result.p99);
  record(name, `${route.name} server CPU ms/request`, result.cpuMsPerRequest);
  record(name, `${route.name} errors`, result.errors);
  record(name, 'peak RSS under load MB', result.peakRssMb);
}

/**
 * Lighthouse's mobile (the default: a mid-range phone on slow 4G, both simulated) and desktop presets.
 * @param {Target} name
 * @param {string} origin
 */
async function lighthouseRun(name, origin) {
  const mobile = await lighthouse(`${origin}${measuredPage}`);
  const desktop = await lighthouse(`${origin}${measuredPage}`, 'desktop');
  for (const [preset, result] of /** @type {const} */ ([
    ['mobile', mobile],
    ['desktop', desktop],
  ])) {
    const label = preset === 'mobile' ? 'Lighthouse' : 'Lighthouse desktop';
    record(name, `${label} performance /`, result.score);
    record(name, `${label} TBT / ms`, result.tbtMs);
    record(name, `${label} LCP / ms`, result.lcpMs);
    // Issue 17: accessibility, best practices and SEO read 100 on both presets.
    for (const id of ['accessibility', 'best-practices', 'seo']) {
      record(name, `Lighthouse ${preset} ${id} /`, result.categories[id]);
    }
    for (const audit of result.missed) lighthouseMissed.add(`${name}, ${preset}: ${audit}`);
  }
  record(name, 'Lighthouse total bytes / KB', mobile.totalKb);
  longTaskRuns.push({ build: name, tbtMs: mobile.tbtMs, tasks: await withScriptRoles(origin, mobile.longTasks) });
  lighthouseMobileRuns.push({
    build: name,
    score: mobile.score,
    'LCP ms': Math.round(mobile.lcpMs),
    'TBT ms': Math.round(mobile.tbtMs),
    'largest paint seen at ms': Math.round(mobile.observedLcpMs),
    'scripts loaded before it': `${mobile.scriptsBeforeLcp} (${mobile.scriptKbBeforeLcp.toFixed(0)} KB)`,
  });
}

/**
 * What each long task's script is (bench/long-task-causes.mjs scriptRole: error reporting, replay, the page, the
 * framework). Read from the server while it runs, each script once.
 */
/** @type {Map<string, { role: string, source: string }>} */
const scriptRoles = new Map();
/**
 * @param {string} origin
 * @param {{ startMs: number, ms: number, url: string }[]} tasks
 */
async function withScriptRoles(origin, tasks) {
  await pageScripts(
    origin,
    tasks.map((task) => task.url),
    scriptRoles,
  );
  return tasks.map((task) => {
    const script = scriptRoles.get(task.url);
    return { ...task, script: script ? scriptFile(task.url) : task.url, role: script?.role ?? '' };
  });
}
/**
 * Each mobile run's long tasks, for the table of the run with the median TBT.
 * @type {{ build: Target, tbtMs: number, tasks: Awaited<ReturnType<typeof withScriptRoles>> }[]}
 */
const longTaskRuns = [];

/** The long tasks of each build's Lighthouse mobile run whose TBT is the median. */
function printLongTasks() {
  for (const build of ['baseline', 'app']) {
    const runs = longTaskRuns.filter((run) => run.build === build).sort((a, b) => a.tbtMs - b.tbtMs);
    const median = runs[Math.floor((runs.length - 1) / 2)];
    if (!median) continue;
    console.log(
      `Long tasks of ${build}'s Lighthouse mobile run with the median TBT (${Math.round(median.tbtMs)} ms), at the ` +
        "times Lighthouse's simulation gives them (4× CPU), each with the script it is attributed to:",
    );
    const inOrder = [...median.tasks].sort((a, b) => a.startMs - b.startMs);
    console.table(inOrder.map(({ startMs, ms, script, role }) => ({ 'start ms': startMs, ms, script, role })));
  }
}

/**
 * Each build's traced loads (bench/lib.mjs longTaskLoads): their long tasks with causes.
 * @type {Record<string, Awaited<ReturnType<typeof longTaskLoads>>>}
 */
const tracedLoads = {};

/** Each build's long tasks from its traced loads, with their causes, then per cause over its loads. */
function printLongTaskCauses() {
  console.log(
    `\nLong tasks at 4× CPU and their causes: a performance trace of ${longTaskLoadCount} load(s) of ${measuredPage} ` +
      "per build in Chromium as Lighthouse's phone (4× CPU slowdown, its viewport), from navigation start; " +
      '`npm run bench:long-tasks` takes more loads (docs/performance.md, "Long tasks on a phone").',
  );
  for (const [name, loads] of Object.entries(tracedLoads)) {
    loads.forEach(({ tasks }, i) => {
      const blocking = tasks.reduce((sum, task) => sum + task.ms - longTaskMs, 0);
      console.log(`${name}, load ${i + 1}: ${tasks.length} long tasks, ${Math.round(blocking)} ms over 50 ms in all`);
      for (const task of tasks) console.log(taskLines(task).join('\n'));
    });
    console.table(causeSummary(loads.map((load) => load.tasks)));
  }
}

/** @type {Partial<Awaited<ReturnType<typeof soakTest>>>} */
const soak = {};
/** @type {Record<Target, Record<string, number[]>>} */
const figures = { bare: {}, baseline: {}, app: {}, appHttps: {} };
/**
 * Keeps one figure of a round; one not taken (undefined) is left out rather than making the median NaN.
 * @param {Target} target
 * @param {string} key
 * @param {number | undefined} value
 */
const record = (target, key, value) => {
  if (value !== undefined) (figures[target][key] ??= []).push(value);
};
/** Lighthouse audits that kept accessibility, best practices or SEO under 100, in any round. */
const lighthouseMissed = new Set();
/**
 * Each mobile run, in order: the medians hide which side of LCP's race (bench/lib.mjs) each run fell on.
 * @type {Record<string, string | number>[]}
 */
const lighthouseMobileRuns = [];

try {
  if (!skipBuild) {
    copyBare();
    for (const name of /** @type {const} */ (['bare', 'baseline', 'app'])) {
      console.log(`building ${name} …`);
      record(name, 'build s', build(name));
    }
  }
  // Lighthouse first, A B A B …, each on a freshly started, warmed server: medians of 5 (LCP under simulated
  // throttling is bimodal on this page, docs/performance.md, so 3 runs can flip the median).
  for (let run = 1; run <= lighthouseRuns; run++) {
    for (const name of /** @type {const} */ (['baseline', 'app'])) {
      console.log(`Lighthouse ${run}/${lighthouseRuns}: ${name}`);
      const { server, origin } = await start(name);
      try {
        await warmUp(origin, measuredPage);
        await lighthouseRun(name, origin);
      } finally {
        server.kill('SIGTERM');
        await sleep(500);
      }
    }
  }
  // What causes each long task: a performance trace of a load per build at Lighthouse's 4× CPU (bench/long-tasks.mjs).
  for (const name of longTaskLoadCount > 0 ? /** @type {const} */ (['baseline', 'app']) : []) {
    console.log(`Long tasks: ${name}, ${longTaskLoadCount} traced load(s) at 4× CPU`);
    const { server, origin } = await start(name);
    try {
      await warmUp(origin, measuredPage);
      tracedLoads[name] = await longTaskLoads(`${origin}${measuredPage}`, {
        loads: longTaskLoadCount,
        reporting: name === 'app',
      });
    } finally {
      server.kill('SIGTERM');
      await sleep(500);
    }
  }
  for (let round = 1; round <= (lighthouseOnly ? 0 : rounds); round++) {
    for (const name of /** @type {const} */ (['bare', 'baseline', 'app', 'appHttps'])) {
      console.log(`round ${round}/${rounds}: ${name}`);
      const { server, origin } = await start(name);
      try {
        record(name, 'idle RSS MB', rssMb(server.pid));
        if (name === 'bare' || name === 'appHttps') {
          for (const route of routes) recordLoad(name, route, await load(origin, route.path, server.pid, loadOptions));
          continue;
        }
        for (const page of pages) record(name, `first-load JS ${page} (KB gzip)`, await firstLoadJs(origin, page));
        if (name === 'app') {
          // What loading the SDK after the page costs in coverage: how long after navigation each part starts.
          for (let i = 0; i < 3; i++) {
            const started = await reportingStart(`${origin}${measuredPage}`);
            record(name, 'load event / ms (Chromium, unthrottled)', started.loadMs);
            record(name, 'SDK started / ms', started.sdkMs);
            record(name, 'replay recording from / ms', started.replayMs);
          }
        }
        for (const route of routes) {
          const before = now();
          const result = await load(origin, route.path, server.pid, loadOptions);
          recordLoad(name, route, result);
          if (name === 'app') {
            // Spec §1: every transaction, counted at the ingest. autocannon stops with a request in flight on each
            // connection, which the server still answers and reports: so at least as many as the answers counted.
            await sleep(3000);
            const delivered = await ingest.transactionsFor(before, [route.path]);
            record(
              name,
              `${route.name} transactions delivered %`,
              (100 * delivered) / (result.warmUpRequests + result.requests),
            );
          }
        }
      } finally {
        server.kill('SIGTERM');
        await sleep(500);
      }
    }
  }
  if (soakSeconds > 0) {
    console.log(`soak: the app under load for ${soakSeconds} s`);
    const { server, origin } = await start('app');
    try {
      Object.assign(soak, await soakTest(origin, server.pid));
    } finally {
      server.kill('SIGTERM');
      await sleep(500);
    }
  }
} finally {
  ingest.stop();
  httpsIngest.stop();
}

/** @type {(target: Target) => Record<string, number | undefined>} */
const summary = (target) =>
  Object.fromEntries(
    Object.entries(figures[target]).map(([key, values]) => [
      key,
      key.startsWith('peak') ? Math.max(...values) : median(values),
    ]),
  );
const bare = summary('bare');
const baseline = summary('baseline');
const app = summary('app');
const appHttps = summary('appHttps');
/** @type {Record<string, number | undefined> | undefined} */
const earlier = previous ? JSON.parse(readFileSync(previous, 'utf8')).app : undefined;

const fmt = (/** @type {number | undefined} */ n) => (n === undefined ? '' : n.toFixed(n >= 100 ? 0 : n >= 10 ? 1 : 2));
/** `a / b` as a ratio (`1.23×`), or '' when either is missing. */
const ratioOf = (/** @type {number | undefined} */ a, /** @type {number | undefined} */ b) =>
  a !== undefined && b ? `${(a / b).toFixed(2)}×` : '';
const rows = Object.keys(app).map((key) => {
  return {
    figure: key,
    'bare, no proxy': fmt(bare[key]),
    baseline: fmt(baseline[key]),
    app: fmt(app[key]),
    'app / baseline': ratioOf(app[key], baseline[key]),
    'app, HTTPS ingest': fmt(appHttps[key]),
    'app HTTPS / baseline': appHttps[key] ? ratioOf(appHttps[key], baseline[key]) : '',
    ...(earlier ? { 'app / earlier app': ratioOf(app[key], earlier[key]) } : {}),
  };
});
console.log(
  `\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`,
);
console.log(
  `Load: autocannon, ${connections} connections, ${seconds} s per route after 2 s warm-up, ${rounds} rounds (A B C A B C); medians, peak RSS is the maximum.\n` +
    "baseline: a bare Next.js app with the same routes and the spec's proxy matcher (a proxy that sets a request id); " +
    '"bare, no proxy": the same without proxy.js, to show what the proxy itself costs. Ratios are app / baseline.\n' +
    '"app, HTTPS ingest": the app reporting to an HTTPS ingest (self-signed certificate), load figures only.\n' +
    `Lighthouse 13 on ${measuredPage}, mobile (simulated slow 4G, 4× CPU) and desktop: medians of ${lighthouseRuns} runs each, alternating.`,
);
console.table(rows);
if (lighthouseMissed.size > 0) console.log(`Lighthouse audits that cost points: ${[...lighthouseMissed].join('; ')}`);
if (lighthouseMobileRuns.length > 0) {
  console.log(
    'Lighthouse mobile, run by run. LCP is simulated from the requests that had finished when the largest paint was ' +
      'seen on loopback: with the 75 KB framework chunk among them, it reads about a second later (docs/performance.md).',
  );
  console.table(lighthouseMobileRuns);
  printLongTasks();
}
if (longTaskLoadCount > 0) printLongTaskCauses();
if (soakSeconds > 0) {
  console.log(
    `Soak (app, ${soakSeconds} s, ${connections} connections over the three routes): ${soak.requests} requests, ` +
      `${soak.errors} errors/non-2xx; RSS ${fmt(soak.rssAt60sMb)} MB at 60 s, ${fmt(soak.rssAtEndMb)} MB at the end, ` +
      `trend after the first minute ${fmt(soak.growthMbPerMin)} MB/min.`,
  );
}
if (jsonOut) {
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(
    jsonOut,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        rounds,
        seconds,
        connections,
        bare,
        baseline,
        app,
        appHttps,
        soak,
        runs: figures,
        longTaskCauses: Object.fromEntries(
          Object.entries(tracedLoads).map(([name, loads]) => [name, causeSummary(loads.map((load) => load.tasks))]),
        ),
      },
      null,
      2,
    ),
  );
  console.log(`Figures written to ${jsonOut}`);
}
if (!lighthouseOnly) {
  // With --port, the logger's bench takes the two ports after the servers' (its defaults otherwise).
  const ports = option('port', undefined) ? ['--port', String(port + 3), '--ingest-port', String(port + 4)] : [];
  const logging = spawnSync('node', ['bench/logging.mjs', ...ports], { stdio: 'inherit' });
  if (logging.status !== 0) process.exitCode = 1;
}
