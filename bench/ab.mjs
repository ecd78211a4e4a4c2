// `npm run bench:ab -- <commit>`: the working tree (B) against an earlier commit (A), side by side, so that a change on
// the request path shows its cost before it lands. Builds the commit in a git worktree of its own beside this one
// (with this node_modules, hard-linked, when its lockfile is the same, else an `npm install` there), builds the working
// tree, and starts both standalone servers as `npm start` does (the preload included), each with and without Redis.
// Then, route by route (static, SSR, ISR, API), it loads A and B in turn, A B in odd rounds and B A in even ones, and
// prints each route's throughput and server CPU per request, B against A. Loopback only; every load is bounded in time.
//
//   npm run bench:ab -- bc01cb8
//   npm run bench:ab -- bc01cb8 --rounds 3 --seconds 10 --connections 20 --redis both|off|on
//
// With two cores or more, the servers run on the last core alone and this process, the ingest and Redis on the others
// (bench/lib.mjs dedicateServerCore): sharing a core with the load generator made a round's CPU per request vary by
// 10% and more.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  dedicateServerCore,
  freeLoopbackPort,
  load,
  option,
  redisCommand,
  startIngest,
  startRedisServer,
  startStandalone,
} from './lib.mjs';

const commit = process.argv[2]?.startsWith('--') ? undefined : process.argv[2];
if (!commit) {
  console.error('Usage: npm run bench:ab -- <commit> [--rounds 2] [--seconds 10] [--connections 20] [--redis both]');
  process.exit(2);
}
const rounds = Number(option('rounds', 2));
const seconds = Number(option('seconds', 10));
const connections = Number(option('connections', 20));
const redisModes = { both: [false, true], off: [false], on: [true] }[option('redis', 'both')];
if (!redisModes) throw new Error('--redis takes both, off or on');
const routes = [
  { kind: 'static', path: '/examples/new' },
  { kind: 'SSR', path: '/examples/42' },
  { kind: 'ISR', path: '/examples/generated' },
  { kind: 'API', path: '/api/health' },
];
const dist = '.next-ab';

const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
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

const ingestPort = await freeLoopbackPort(3230);
const ingest = startIngest(ingestPort);

/** One build of a tree: its standalone server directory. The build id names the tree, so that A and B differ. */
function built(dir, buildId) {
  console.log(`Building ${buildId} in ${dir} …`);
  const result = spawnSync('node', ['scripts/build.mjs'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NEXT_DIST_DIR: dist,
      BUILD_ID: buildId,
      NEXT_PUBLIC_SENTRY_DSN: ingest.dsn,
      NEXT_TELEMETRY_DISABLED: '1',
    },
  });
  if (result.status !== 0) throw new Error(`the build in ${dir} failed`);
  rmSync(join(dir, dist, 'cache'), { recursive: true, force: true });
  return join(dir, dist, 'standalone');
}

const builds = [
  { name: `A ${sha.slice(0, 12)}`, dir: built(earlier, `ab-a-${sha.slice(0, 12)}`) },
  { name: 'B working tree', dir: built('.', 'ab-b-working-tree') },
];

// After the builds, which may use every core: the servers get one of their own, Redis inherits this process's.
const serverCore = dedicateServerCore(ingest.pid);
const redisPort = await freeLoopbackPort(26_100);
const redisUrl = `redis://127.0.0.1:${redisPort}`;
const redis = redisModes.includes(true) ? await startRedisServer(redisPort) : undefined;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(middle)] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const rows = [];
let port = 3240;
try {
  for (const withRedis of redisModes) {
    if (withRedis) await redisCommand(redisUrl, 'FLUSHALL');
    const servers = [];
    for (const build of builds) {
      port = await freeLoopbackPort(port + 1);
      const env = { NEXT_DIST_DIR: dist, SENTRY_DSN: ingest.dsn, ...(withRedis ? { REDIS_URL: redisUrl } : {}) };
      servers.push({ ...build, ...(await startStandalone(build.dir, port, env, { cpu: serverCore })) });
    }
    try {
      for (const { kind, path } of routes) {
        const results = servers.map(() => ({ rps: [], cpu: [] }));
        for (let round = 0; round < rounds; round++) {
          const order = round % 2 ? [1, 0] : [0, 1];
          for (const i of order) {
            const { origin, server } = servers[i];
            const result = await load(origin, path, server.pid, { connections, seconds });
            if (result.errors) throw new Error(`${servers[i].name}: ${result.errors} errors on ${path}`);
            results[i].rps.push(result.rps);
            results[i].cpu.push(result.cpuMsPerRequest);
          }
        }
        const [a, b] = results.map(({ rps, cpu }) => ({ rps: median(rps), cpu: median(cpu) }));
        // Each round's B against the same round's A: what drifts over the run (the machine's other work) cancels.
        const cpuRatios = results[1].cpu.map((cpu, round) => cpu / results[0].cpu[round]);
        rows.push({
          route: `${kind} ${path}`,
          cache: withRedis ? 'Redis' : 'filesystem',
          'A req/s': Math.round(a.rps),
          'B req/s': Math.round(b.rps),
          'throughput B/A': (b.rps / a.rps).toFixed(2),
          'A CPU ms/req': a.cpu.toFixed(3),
          'B CPU ms/req': b.cpu.toFixed(3),
          'CPU B/A': median(cpuRatios).toFixed(2),
          'rounds B/A': `${Math.min(...cpuRatios).toFixed(2)}–${Math.max(...cpuRatios).toFixed(2)}`,
        });
      }
    } finally {
      servers.forEach((server) => server.stop());
    }
  }
} finally {
  redis?.kill('SIGKILL');
  ingest.stop();
}

console.log(
  `\nA: ${sha} (its worktree: ${earlier}); B: the working tree. ${connections} connections, 2 s warm-up, then ` +
    `${seconds} s per route and build, ${rounds} rounds alternating A B / B A; medians over the rounds. ` +
    (serverCore === undefined
      ? 'The servers shared the cores with the load generator.'
      : `The servers ran on core ${serverCore} alone, the load generator, ingest and Redis on the others.`) +
    ' CPU B/A is the median of each round’s B against that round’s A; "rounds B/A" their range:',
);
console.table(rows);
