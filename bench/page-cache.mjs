// `npm run bench:page-cache`: what sharing the page cache through Redis costs and how fast a revalidation spreads.
// One build, standalone servers on loopback, Debian's redis-server on a loopback port of its own. Every phase is
// bounded in time. Prints, for an ISR page (/examples/generated, a cache hit) on one instance, alternating A B C:
// A Next's filesystem cache (REDIS_URL unset: today's app), B the shared cache in Redis with its Sentry cache spans, C
// the same without those spans (bench/no-cache-spans.mjs):
//   0. one request at a time: latency, server CPU and Redis commands per request (every request reads the cache);
//   1. under load: req/s, p50/p99, server CPU per request (concurrent requests for one page share one read);
//   2. three instances from their own copies of the build on one Redis: time from the revalidation route's 200 to all
//      three serving the new page;
//   3. one instance under load while Redis is killed and restarted: p99, max and failed requests.
//
//   npm run bench:page-cache                        # builds .next-bench-cache when it has no build yet (the tests'
//                                                   # app, composed in .bench-app/page-cache: tests/support/test-app.mjs)
//   npm run bench:page-cache -- --dist .next-e2e --rounds 2 --seconds 8 --connections 20
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import {
  appStartEnv,
  buildApp,
  cpuMs,
  load,
  option,
  redisCommand as redisCommandOn,
  sleep,
  startIngest,
  startRedisServer,
  startStandalone,
} from './lib.mjs';
import { freePort } from '../tests/support/processes.ts';

const dist = option('dist', '.next-bench-cache');
const rounds = Number(option('rounds', 2));
const seconds = Number(option('seconds', 8));
const connections = Number(option('connections', 20));
const revalidations = Number(option('revalidations', 10));
const page = '/examples/generated';
const secret = 'bench-revalidate-secret-0123456789abcdef';
// Below Linux's ephemeral ports (32768+): a client reconnecting to a stopped server there can connect to itself.
const ports = { ingest: 3219, app: 3220, redis: 0 };

const ingest = startIngest(ports.ingest);
if (!existsSync(`${dist}/standalone/server.js`)) {
  console.log(`No build in ${dist}: building the tests' app there.`);
  buildApp('page-cache', { NEXT_DIST_DIR: dist, NEXT_PUBLIC_SENTRY_DSN: ingest.dsn });
}

const cleanups = [];
process.on('exit', () => cleanups.forEach((cleanup) => cleanup()));

ports.redis = await freePort();
const redisUrl = `redis://127.0.0.1:${ports.redis}`;

const startRedis = () => startRedisServer(ports.redis);
const redisCommand = (...args) => redisCommandOn(redisUrl, ...args);

/** Commands Redis ran since start, all kinds together (INFO commandstats). */
async function redisCommands() {
  const info = String(await redisCommand('INFO', 'commandstats'));
  return [...info.matchAll(/^cmdstat_\w+:calls=(\d+)/gm)].reduce((sum, [, calls]) => sum + Number(calls), 0);
}

/** A standalone server from its own copy of the build; `noCacheSpans` preloads the switch that drops them. */
async function startApp(port, { redis, noCacheSpans = false }) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-cache-'));
  cpSync(`${dist}/standalone`, dir, { recursive: true });
  const app = await startStandalone(dir, port, {
    ...appStartEnv,
    NEXT_DIST_DIR: dist,
    SENTRY_DSN: ingest.dsn,
    REVALIDATE_SECRET: secret,
    ...(noCacheSpans ? { NODE_OPTIONS: `--import ${resolve('bench/no-cache-spans.mjs')}` } : {}),
    ...(redis ? { REDIS_URL: redisUrl } : {}),
  });
  const stop = () => {
    app.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  cleanups.push(stop);
  return { ...app, stop };
}

const generatedAt = async (origin) =>
  /data-testid="generated-at">([^<]+)</.exec(await (await fetch(`${origin}${page}`)).text())?.[1];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

// 0. One request at a time, so that every request reads the cache once (concurrent requests for one page share one
// read in Next's response cache, which hides the per-hit cost under load): server CPU and Redis commands per request.
let redisProcess = await startRedis();
const variants = [
  { name: 'A filesystem cache (REDIS_URL unset)', redis: false },
  { name: 'B Redis, with cache spans', redis: true },
  { name: 'C Redis, without cache spans', redis: true, noCacheSpans: true },
];
const sequential = Object.fromEntries(variants.map((v) => [v.name, []]));
const oneAtATime = 400;
for (let round = 0; round < rounds; round++) {
  for (const variant of variants) {
    await redisCommand('FLUSHALL');
    const app = await startApp(ports.app, variant);
    for (let i = 0; i < 50; i++) await (await fetch(`${app.origin}${page}`)).text();
    const commandsBefore = await redisCommands();
    const cpuBefore = cpuMs(app.server.pid);
    const started = performance.now();
    for (let i = 0; i < oneAtATime; i++) await (await fetch(`${app.origin}${page}`)).text();
    const elapsed = performance.now() - started;
    sequential[variant.name].push({
      msPerRequest: elapsed / oneAtATime,
      cpuMsPerRequest: (cpuMs(app.server.pid) - cpuBefore) / oneAtATime,
      // INFO itself counts once.
      commandsPerRequest: ((await redisCommands()) - commandsBefore - 1) / oneAtATime,
    });
    app.stop();
    await sleep(500);
  }
}
const [sa, sb, sc] = variants.map((v) => ({
  ms: mean(sequential[v.name].map((r) => r.msPerRequest)),
  cpu: mean(sequential[v.name].map((r) => r.cpuMsPerRequest)),
  commands: mean(sequential[v.name].map((r) => r.commandsPerRequest)),
}));
console.log(`\n0. ${page} (a cache hit), ${oneAtATime} requests one at a time, ${rounds} rounds, A B C alternating:`);
console.table(
  variants.map((v, i) => {
    const s = [sa, sb, sc][i];
    return {
      variant: v.name,
      'ms/request': s.ms.toFixed(2),
      'server CPU ms/request': s.cpu.toFixed(3),
      'Redis commands/request': s.commands.toFixed(2),
      'CPU vs A': (s.cpu / sa.cpu).toFixed(2),
    };
  }),
);
console.log(
  `Cache spans, one read per request (B against C): server CPU per request ${(sb.cpu / sc.cpu).toFixed(3)}x.`,
);

// 1. The ISR page's hit path under load, A B C A B C.
const results = Object.fromEntries(variants.map((v) => [v.name, []]));
for (let round = 0; round < rounds; round++) {
  for (const variant of variants) {
    await redisCommand('FLUSHALL');
    const app = await startApp(ports.app, variant);
    await fetch(`${app.origin}${page}`);
    const commandsBefore = await redisCommands();
    const result = await load(app.origin, page, app.server.pid, { connections, seconds });
    // INFO itself counts once; warm-up requests (2 s, in `load`) are counted with their own total.
    const commands = (await redisCommands()) - commandsBefore - 1;
    results[variant.name].push({
      ...result,
      commandsPerRequest: variant.redis ? commands / (result.requests + result.warmUpRequests) : 0,
    });
    app.stop();
    await sleep(500);
  }
}
const summary = (name) => {
  const runs = results[name];
  return {
    rps: mean(runs.map((r) => r.rps)),
    cpu: mean(runs.map((r) => r.cpuMsPerRequest)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    commands: mean(runs.map((r) => r.commandsPerRequest)),
  };
};
const [a, b, c] = variants.map((v) => summary(v.name));
console.log(
  `\n1. ${page} (a cache hit), one instance, ${connections} connections, ${rounds} rounds of 2 s warm-up + ${seconds} s, A B C alternating:`,
);
console.table(
  variants.map((v, i) => {
    const s = [a, b, c][i];
    return {
      variant: v.name,
      'req/s': Math.round(s.rps),
      'p50 / p99 ms': `${s.p50} / ${s.p99}`,
      'server CPU ms/request': s.cpu.toFixed(3),
      'Redis commands/request': s.commands.toFixed(3),
      errors: s.errors,
      'req/s vs A': (s.rps / a.rps).toFixed(2),
      'CPU vs A': (s.cpu / a.cpu).toFixed(2),
    };
  }),
);
console.log(
  `Cache spans under load (B against C; only the requests that did not share another's read make one): req/s ${(b.rps / c.rps).toFixed(3)}x, server CPU per request ${(b.cpu / c.cpu).toFixed(3)}x.`,
);

// 2. Revalidation reaching three instances.
await redisCommand('FLUSHALL');
const cluster = [];
for (let i = 0; i < 3; i++) cluster.push(await startApp(ports.app + 1 + i, { redis: true }));
const spread = [];
for (let i = 0; i < revalidations; i++) {
  const before = await generatedAt(cluster[0].origin);
  const response = await fetch(`${cluster[i % 3].origin}/api/revalidate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ path: page }),
  });
  if (response.status !== 200) throw new Error(`revalidation answered ${response.status}`);
  const answered = performance.now();
  const pending = new Set(cluster);
  while (pending.size > 0 && performance.now() - answered < 10_000) {
    for (const app of [...pending]) if ((await generatedAt(app.origin)) !== before) pending.delete(app);
  }
  spread.push(pending.size > 0 ? Infinity : performance.now() - answered);
  await sleep(200);
}
console.log(
  `\n2. From the revalidation route's 200 to all three instances serving the new page (${revalidations} times, ` +
    `each asked in turn): median ${median(spread).toFixed(1)} ms, max ${Math.max(...spread).toFixed(1)} ms` +
    ` (Infinity: an instance still served the old page 10 s after the 200).`,
);
cluster.forEach((app) => app.stop());

// 3. Redis killed and restarted under load.
const app = await startApp(ports.app, { redis: true });
await fetch(`${app.origin}${page}`);
const outage = (async () => {
  await sleep(2000);
  redisProcess.kill('SIGKILL');
  await sleep(3000);
  redisProcess = await startRedis();
})();
const underOutage = await autocannon({ url: `${app.origin}${page}`, connections, duration: 8 });
await outage;
console.log(
  `\n3. ${page}, ${connections} connections for 8 s, Redis killed at 2 s and restarted at 5 s: ` +
    `${underOutage.requests.total} requests, p50 ${underOutage.latency.p50} ms, p99 ${underOutage.latency.p99} ms, ` +
    `max ${underOutage.latency.max} ms, non-2xx ${underOutage.non2xx}, errors ${underOutage.errors + underOutage.timeouts}.`,
);
app.stop();
ingest.stop();
process.exit(0);
