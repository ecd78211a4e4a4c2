// `npm run bench:ab -- <commit>`: the working tree (B) against an earlier commit (A), side by side, so that a change on
// the request path shows its cost before it lands. Builds the commit in a git worktree of its own beside this one
// (with this node_modules, hard-linked, when its lockfile is the same, else an `npm install` there), builds the working
// tree (each the app with the /examples pages as that tree has it: the reference app, apps/reference, built in its
// folder; before the apps, the tests' app of tests/support/test-app.mjs), and starts both standalone servers as
// `npm start` does (the preload included), each with and without Redis.
// Then, route by route (static, SSR, ISR, API), it loads A and B at the same time, round after round, and prints each
// route's server CPU and heap allocations per request and its throughput, B against A. Loopback only; every load is
// bounded in time.
//
//   npm run bench:ab -- bc01cb8
//   npm run bench:ab -- bc01cb8 --rounds 8 --seconds 8 --connections 10 --redis both|off|on
//   npm run bench:ab -- HEAD     # on a clean tree: A and B are the same code, so the table shows the noise
//
// With two cores or more, both servers run on the last core, and this process, the ingest and Redis on the others
// (bench/lib.mjs dedicateServerCore). Loading A and B at once on that core, rather than in turn, is what makes the
// ratio steady on a shared virtual machine: the machine's drift from one second to the next (other tenants, CPU
// frequency) hits both builds alike. Loaded in turn, a build's CPU per request moved 10–30% between rounds. Heap
// allocations per request (bench/allocation-probe.mjs) hardly depend on the machine at all.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { cpuMs, dedicateServerCore, option, startIngest, startStandalone } from './lib.mjs';
import { builtDir, referenceApp, serverDir } from '@web-foundation/testing/env';
import { freePort } from '@web-foundation/testing/processes';
import { startRedis } from '@web-foundation/testing/services';

const commit = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
if (!commit) {
  console.error('Usage: npm run bench:ab -- <commit> [--rounds 6] [--seconds 8] [--connections 10] [--redis both]');
  process.exit(2);
}
const rounds = Number(option('rounds', 6));
const seconds = Number(option('seconds', 8));
const connections = Number(option('connections', 10));
const redisModes = /** @type {Record<string, boolean[] | undefined>} */ ({
  both: [false, true],
  off: [false],
  on: [true],
})[option('redis', 'both')];
if (!redisModes) throw new Error('--redis takes both, off or on');
const routes = [
  { kind: 'static', path: '/examples/new' },
  { kind: 'SSR', path: '/examples/42' },
  { kind: 'ISR', path: '/examples/generated' },
  { kind: 'API', path: '/api/health' },
];
const dist = '.next-ab';

const git = (/** @type {string[]} */ ...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const sha = git('rev-parse', '--verify', `${commit}^{commit}`);
const earlier = join(tmpdir(), `web-foundation-ab-${sha.slice(0, 12)}`);

// A: the commit, in a worktree of its own (kept between runs: its build is reused when it is there).
if (!existsSync(earlier)) git('worktree', 'add', '--detach', earlier, sha);
if (!existsSync(join(earlier, 'node_modules'))) {
  if (readFileSync(join(earlier, 'package-lock.json'), 'utf8') === readFileSync('package-lock.json', 'utf8')) {
    // Hard links: no space, and inside the worktree, where Turbopack resolves modules (it refuses a symlink out).
    execFileSync('cp', ['-al', resolve('node_modules'), join(earlier, 'node_modules')]);
  } else {
    console.log(`${sha.slice(0, 12)} pins other packages: npm install there.`);
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: earlier, stdio: 'inherit' });
  }
}

const ingestPort = await freePort();
const ingest = startIngest(ingestPort);

/**
 * How a tree builds the app the routes load (/examples/…), by its layout, and where the build and its standalone
 * server land: `cwd` (the folder built in), `command`, `build` and `server`, each from the tree's root.
 * - The apps of npm workspaces: the reference app, built in its own folder by its `npm run build`; the standalone
 *   directory keeps the repository's layout, so the server sits at the app's path in it.
 * - Before them, the tests' app (tests/support/test-app.mjs: its buildTestApp() composed in `.bench-app/ab`, or the
 *   script alone in the commits before that export), whose build it moved to the tree's root, the server at the top.
 * - Before the reference pages moved from src/ to the tests, as `npm run build` did (scripts/build.mjs).
 * @param {string} dir
 * @returns {{ cwd: string, command: [string, ...string[]], build: string, server: string }}
 */
function layoutOf(dir) {
  if (existsSync(join(dir, referenceApp, 'package.json'))) {
    return {
      cwd: join(dir, referenceApp),
      command: ['npm', 'run', 'build'],
      build: join(dir, builtDir(dist, referenceApp)),
      server: join(dir, serverDir(dist, referenceApp)),
    };
  }
  const atRoot = { cwd: dir, build: join(dir, dist), server: join(dir, dist, 'standalone') };
  const testApp = join(dir, 'tests/support/test-app.mjs');
  if (!existsSync(testApp)) return { ...atRoot, command: ['node', 'scripts/build.mjs'] };
  if (!readFileSync(testApp, 'utf8').includes('export function buildTestApp(')) {
    return { ...atRoot, command: ['node', 'tests/support/test-app.mjs'] };
  }
  const script =
    "const { buildTestApp } = await import('./tests/support/test-app.mjs'); buildTestApp({ copy: '.bench-app/ab' });";
  return { ...atRoot, command: ['node', '--input-type=module', '--eval', script] };
}

/**
 * One build of a tree: its standalone server directory. The build id names the tree, so that A and B differ. A
 * commit's build is kept in its worktree and reused (`reuse`); the working tree is built every time.
 * @param {string} dir
 * @param {string} buildId
 * @param {{ reuse?: boolean }} [options]
 */
function built(dir, buildId, { reuse = false } = {}) {
  const { cwd, command, build, server } = layoutOf(dir);
  const idFile = join(build, 'BUILD_ID');
  if (reuse && existsSync(idFile) && readFileSync(idFile, 'utf8').trim() === buildId) {
    console.log(`Reusing the build of ${buildId} in ${build}.`);
    return server;
  }
  console.log(`Building ${buildId} in ${cwd} …`);
  const [file, ...args] = command;
  const result = spawnSync(file, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NEXT_DIST_DIR: dist,
      BUILD_ID: buildId,
      NEXT_PUBLIC_SENTRY_DSN: ingest.dsn,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  });
  if (result.status !== 0) throw new Error(`the build in ${cwd} failed`);
  rmSync(join(build, 'cache'), { recursive: true, force: true });
  return server;
}

/**
 * What an earlier commit's app needs at start: the tests' app before the apps held the guide's files, whose settings
 * it checks at start. They point at a port nothing listens on: no route loaded here calls a service. The reference
 * app has no settings to read them with.
 */
const startEnv = {
  BACKEND_URL: 'http://127.0.0.1:9',
  DATABASE_URL: 'postgres://app@127.0.0.1:9/postgres',
  SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789abcdef',
};

const builds = [
  { name: `A ${sha.slice(0, 12)}`, dir: built(earlier, `ab-a-${sha.slice(0, 12)}`, { reuse: true }) },
  { name: 'B working tree', dir: built('.', 'ab-b-working-tree') },
];

// After the builds, which may use every core: the servers get one of their own, Redis inherits this process's.
const serverCore = dedicateServerCore(ingest.pid);
const redis = redisModes.includes(true) ? await startRedis() : undefined;

const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (/** @type {number} */ i) => sorted[i] ?? NaN;
  const middle = sorted.length / 2;
  return sorted.length % 2 ? at(Math.floor(middle)) : (at(middle - 1) + at(middle)) / 2;
};

/**
 * A build's server under load, named as the table names it.
 * @typedef {{ name: string } & Awaited<ReturnType<typeof startStandalone>>} Server
 * @typedef {{ rps: number, cpu: number, kb: number }} Round One build's figures in one round, per request.
 */

/**
 * One round of a route: A and B under the same load at the same time, on the same core, so that whatever else slows
 * the machine slows both alike. Each build's CPU time (/proc) and heap allocations (allocation-probe.mjs) per request.
 * `first` starts its load a moment before the other's: the rounds alternate it.
 * @param {Server[]} servers
 * @param {string} path
 * @param {number} first
 * @returns {Promise<Round[]>}
 */
async function together(servers, path, first) {
  const order = first === 0 ? servers : [...servers].reverse();
  const before = await Promise.all(
    servers.map(async (s) => ({ cpu: cpuMs(s.server.pid), heap: await allocatedBytes(s) })),
  );
  const loads = await Promise.all(
    order.map((s) => autocannon({ url: `${s.origin}${path}`, connections, duration: seconds })),
  );
  const results = first === 0 ? loads : loads.reverse();
  return Promise.all(
    servers.map(async (s, i) => {
      const result = results[i];
      const start = before[i];
      if (!result || !start) throw new Error(`${s.name}: no load figures on ${path}`);
      const requests = result.requests.total;
      if (result.errors + result.timeouts + result.non2xx) throw new Error(`${s.name}: errors on ${path}`);
      return {
        rps: result.requests.average,
        cpu: (cpuMs(s.server.pid) - start.cpu) / requests,
        kb: ((await allocatedBytes(s)) - start.heap) / 1024 / requests,
      };
    }),
  );
}

/** The heap bytes a server started with `allocations` has allocated so far. */
function allocatedBytes(/** @type {Server} */ server) {
  if (!server.allocatedBytes) throw new Error(`${server.name} was started without allocations`);
  return server.allocatedBytes();
}

/** @type {Record<string, string>[]} */
const rows = [];
try {
  for (const withRedis of redisModes) {
    if (withRedis) await redis?.command('FLUSHALL');
    /** @type {Server[]} */
    const servers = [];
    for (const build of builds) {
      const port = await freePort();
      const env = {
        ...startEnv,
        NEXT_DIST_DIR: dist,
        SENTRY_DSN: ingest.dsn,
        ...(withRedis && redis ? { REDIS_URL: redis.url } : {}),
      };
      const options = { cpu: serverCore, allocations: true };
      servers.push({ ...build, ...(await startStandalone(build.dir, port, env, options)) });
    }
    try {
      for (const { kind, path } of routes) {
        // Warm-up: lazy route modules, the JIT, the first render of a cached page.
        await Promise.all(servers.map((s) => autocannon({ url: `${s.origin}${path}`, connections, duration: 2 })));
        /** @type {[Round, Round][]} */
        const perRound = [];
        for (let round = 0; round < rounds; round++) {
          const [a, b] = await together(servers, path, round % 2);
          if (a && b) perRound.push([a, b]);
        }
        const ratio = (/** @type {keyof Round} */ key) => perRound.map(([a, b]) => b[key] / a[key]);
        const [a, b] = /** @type {const} */ ([0, 1]).map((i) => ({
          cpu: median(perRound.map((r) => r[i].cpu)),
          kb: median(perRound.map((r) => r[i].kb)),
        }));
        if (!a || !b) continue;
        const cpuRatios = ratio('cpu');
        rows.push({
          route: `${kind} ${path}`,
          cache: withRedis ? 'Redis' : 'filesystem',
          'A CPU ms/req': a.cpu.toFixed(3),
          'B CPU ms/req': b.cpu.toFixed(3),
          'CPU B/A': median(cpuRatios).toFixed(2),
          'rounds B/A': `${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)}`,
          'A heap KB/req': a.kb.toFixed(0),
          'B heap KB/req': b.kb.toFixed(0),
          'heap B/A': median(ratio('kb')).toFixed(2),
          'throughput B/A': median(ratio('rps')).toFixed(2),
        });
      }
    } finally {
      servers.forEach((server) => server.stop());
    }
  }
} finally {
  await redis?.stop();
  ingest.stop();
}

console.log(
  `\nA: ${sha} (its worktree: ${earlier}); B: the working tree. Per route: a 2 s warm-up, then ${rounds} rounds of ` +
    `${seconds} s in which A and B are loaded at the same time (${connections} connections each). ` +
    (serverCore === undefined
      ? 'The servers shared the cores with the load generator. '
      : `Both servers ran on core ${serverCore}, the load generator, ingest and Redis on the others. `) +
    'Each B/A is the median of the rounds’ B against the same round’s A ("rounds B/A": their range); CPU and heap ' +
    'figures are per request. `npm run bench:ab -- HEAD` on a clean tree (A and B the same code) shows how far apart ' +
    'two identical builds read on this machine.',
);
console.table(rows);
