// `npm run bench:page-cache`: what sharing the page cache through Redis costs and how fast a revalidation spreads.
// One build, standalone servers on loopback, Debian's redis-server on loopback ports of its own. Every phase is
// bounded in time. Prints, for an ISR page (/examples/generated, a cache hit) on one instance, A B C D E then backwards:
// A Next's filesystem cache (no Redis: today's app), B the shared cache in one Redis with its Sentry cache spans, C
// the same without those spans (bench/no-cache-spans.mjs), D through Sentinel (three sentinels, a primary and its
// replica), E in a three-primary Cluster (D and E with cache spans, as B):
//   0. one request at a time: latency, server CPU and Redis commands per request (every request reads the cache);
//   1. under load: req/s, p50/p99, server CPU per request (concurrent requests for one page share one read);
//   2. three instances from their own copies of the build on one Redis: time from the revalidation route's 200 to all
//      three serving the new page;
//   3. one instance under load while Redis is killed and restarted: p99, max and failed requests.
//
//   npm run bench:page-cache                        # builds the reference app (apps/reference) in its folder, as
//                                                   # apps/reference/.next-bench-cache, when that has no build yet
//   npm run bench:page-cache -- --dist .next-e2e --rounds 2 --seconds 8 --connections 20 --port 3219
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { appServer, benchApp, buildApp, cpuMs, load, option, sleep, startIngest, startStandalone } from './lib.mjs';
import { copyOfBuild } from '@web-foundation/testing/cluster';
import { redisServer, startCluster, startSentinels } from '@web-foundation/testing/services';
/** @typedef {import('@web-foundation/testing/services').Redis} Redis */

const dist = option('dist', '.next-bench-cache');
const rounds = Number(option('rounds', 2));
const seconds = Number(option('seconds', 8));
const connections = Number(option('connections', 20));
const revalidations = Number(option('revalidations', 10));
const page = '/examples/generated';
const secret = 'bench-revalidate-secret-0123456789abcdef';
// Below Linux's ephemeral ports (32768+): a client reconnecting to a stopped server there can connect to itself.
// --port: the ingest's; the instances take the next three.
const firstPort = Number(option('port', 3219));
const ports = { ingest: firstPort, app: firstPort + 1 };

const ingest = startIngest(ports.ingest);
if (!existsSync(join(appServer(dist), 'server.js'))) {
  console.log(`No build in ${benchApp}/${dist}: building the reference app there.`);
  buildApp({ NEXT_DIST_DIR: dist, NEXT_PUBLIC_SENTRY_DSN: ingest.dsn });
}

/** @type {(() => void)[]} */
const cleanups = [];
process.on('exit', () => cleanups.forEach((cleanup) => cleanup()));

// The one Redis of B, C and the revalidation and outage phases: killed and restarted on its port in phase 3.
const redis = await redisServer();

/**
 * Commands the Redis servers `nodes` ran since start, all kinds together.
 * @param {Redis[]} nodes
 */
async function redisCommands(nodes) {
  let sum = 0;
  for (const node of nodes) sum += Object.values(await node.commandCounts()).reduce((total, calls) => total + calls, 0);
  return sum;
}

/**
 * A standalone server from its own copy of the build; `redis`: the page cache's Redis settings (REDIS_URL and the
 * like), none for the filesystem cache; `noCacheSpans` preloads the switch that drops the cache spans.
 * @param {number} port
 * @param {{ redis?: Record<string, string>, noCacheSpans?: boolean }} options
 */
async function startApp(port, { redis, noCacheSpans = false }) {
  const copy = copyOfBuild(dist, benchApp);
  const app = await startStandalone(copy.dir, port, {
    NEXT_DIST_DIR: dist,
    SENTRY_DSN: ingest.dsn,
    REVALIDATE_SECRET: secret,
    ...(noCacheSpans ? { NODE_OPTIONS: `--import ${resolve('bench/no-cache-spans.mjs')}` } : {}),
    ...redis,
  });
  const stop = () => {
    app.stop();
    copy.remove();
  };
  cleanups.push(stop);
  return { ...app, stop };
}

const generatedAt = async (/** @type {string} */ origin) =>
  /data-testid="generated-at">([^<]+)</.exec(await (await fetch(`${origin}${page}`)).text())?.[1];
const median = (/** @type {number[]} */ values) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const mean = (/** @type {number[]} */ values) => values.reduce((a, b) => a + b, 0) / values.length;

// 0. One request at a time, so that every request reads the cache once (concurrent requests for one page share one
// read in Next's response cache, which hides the per-hit cost under load): server CPU and Redis commands per request.
await redis.start();
const sentinels = await startSentinels();
const redisCluster = await startCluster();
cleanups.push(
  () => void sentinels.stop(),
  () => void redisCluster.stop(),
);
const single = { REDIS_URL: redis.url };
/**
 * `nodes`: where its pages are written (FLUSHALL before each run, commands counted).
 * @type {{ name: string, redis?: Record<string, string>, noCacheSpans?: boolean, nodes: Redis[] }[]}
 */
const variants = [
  { name: 'A filesystem cache (no Redis)', nodes: [] },
  { name: 'B one Redis, with cache spans', redis: single, nodes: [redis] },
  { name: 'C one Redis, without cache spans', redis: single, noCacheSpans: true, nodes: [redis] },
  {
    name: 'D Sentinel, with cache spans',
    redis: { REDIS_SENTINELS: sentinels.sentinels, REDIS_SENTINEL_PRIMARY: sentinels.name },
    nodes: [sentinels.primary],
  },
  {
    name: 'E Cluster, with cache spans',
    redis: { REDIS_CLUSTER_NODES: redisCluster.addresses },
    nodes: redisCluster.nodes,
  },
];
/** Every other round backwards, so that no variant always runs last on a machine whose load drifts. */
const inTurn = (/** @type {number} */ round) => (round % 2 ? [...variants].reverse() : variants);
const flush = async (/** @type {(typeof variants)[number]} */ variant) => {
  for (const node of variant.nodes) await node.command('FLUSHALL');
};
/** @type {Map<string, { msPerRequest: number, cpuMsPerRequest: number, commandsPerRequest: number }[]>} */
const sequential = new Map(variants.map((v) => [v.name, []]));
const oneAtATime = 400;
for (let round = 0; round < rounds; round++) {
  for (const variant of inTurn(round)) {
    await flush(variant);
    const app = await startApp(ports.app, variant);
    for (let i = 0; i < 50; i++) await (await fetch(`${app.origin}${page}`)).text();
    const commandsBefore = await redisCommands(variant.nodes);
    const cpuBefore = cpuMs(app.server.pid);
    const started = performance.now();
    for (let i = 0; i < oneAtATime; i++) await (await fetch(`${app.origin}${page}`)).text();
    const elapsed = performance.now() - started;
    sequential.get(variant.name)?.push({
      msPerRequest: elapsed / oneAtATime,
      cpuMsPerRequest: (cpuMs(app.server.pid) - cpuBefore) / oneAtATime,
      // INFO itself counts once per node.
      commandsPerRequest: ((await redisCommands(variant.nodes)) - commandsBefore - variant.nodes.length) / oneAtATime,
    });
    app.stop();
    await sleep(500);
  }
}
const oneAtATimeOf = (/** @type {string} */ name) => {
  const runs = sequential.get(name) ?? [];
  return {
    ms: mean(runs.map((r) => r.msPerRequest)),
    cpu: mean(runs.map((r) => r.cpuMsPerRequest)),
    commands: mean(runs.map((r) => r.commandsPerRequest)),
  };
};
const [sa, sb, sc, sd, se] = /** @type {[S, S, S, S, S]} */ (variants.map((v) => oneAtATimeOf(v.name)));
/** @typedef {ReturnType<typeof oneAtATimeOf>} S */
console.log(
  `\n0. ${page} (a cache hit), ${oneAtATime} requests one at a time, ${rounds} rounds, A B C D E, then E D C B A:`,
);
console.table(
  variants.map((v) => {
    const s = oneAtATimeOf(v.name);
    return {
      variant: v.name,
      'ms/request': s.ms.toFixed(2),
      'server CPU ms/request': s.cpu.toFixed(3),
      'Redis commands/request': s.commands.toFixed(2),
      'CPU vs A': (s.cpu / sa.cpu).toFixed(2),
      'ms vs B': (s.ms / sb.ms).toFixed(2),
      'CPU vs B': (s.cpu / sb.cpu).toFixed(2),
    };
  }),
);
console.log(
  `Cache spans, one read per request (B against C): server CPU per request ${(sb.cpu / sc.cpu).toFixed(3)}x.`,
);

// 1. The ISR page's hit path under load, A B C D E E D C B A.
/** @type {Map<string, (Awaited<ReturnType<typeof load>> & { commandsPerRequest: number })[]>} */
const results = new Map(variants.map((v) => [v.name, []]));
for (let round = 0; round < rounds; round++) {
  for (const variant of inTurn(round)) {
    await flush(variant);
    const app = await startApp(ports.app, variant);
    await fetch(`${app.origin}${page}`);
    const commandsBefore = await redisCommands(variant.nodes);
    const result = await load(app.origin, page, app.server.pid, { connections, seconds });
    // INFO itself counts once per node; warm-up requests (2 s, in `load`) are counted with their own total.
    const commands = (await redisCommands(variant.nodes)) - commandsBefore - variant.nodes.length;
    results.get(variant.name)?.push({
      ...result,
      commandsPerRequest: variant.redis ? commands / (result.requests + result.warmUpRequests) : 0,
    });
    app.stop();
    await sleep(500);
  }
}
const summary = (/** @type {string} */ name) => {
  const runs = results.get(name) ?? [];
  return {
    rps: mean(runs.map((r) => r.rps)),
    cpu: mean(runs.map((r) => r.cpuMsPerRequest ?? NaN)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    commands: mean(runs.map((r) => r.commandsPerRequest)),
  };
};
const [a, b, c] = /** @type {[L, L, L]} */ (variants.map((v) => summary(v.name)));
/** @typedef {ReturnType<typeof summary>} L */
console.log(
  `\n1. ${page} (a cache hit), one instance, ${connections} connections, ${rounds} rounds of 2 s warm-up + ${seconds} s, A B C D E, then E D C B A:`,
);
console.table(
  variants.map((v) => {
    const s = summary(v.name);
    return {
      variant: v.name,
      'req/s': Math.round(s.rps),
      'p50 / p99 ms': `${s.p50} / ${s.p99}`,
      'server CPU ms/request': s.cpu.toFixed(3),
      'Redis commands/request': s.commands.toFixed(3),
      errors: s.errors,
      'req/s vs A': (s.rps / a.rps).toFixed(2),
      'CPU vs A': (s.cpu / a.cpu).toFixed(2),
      'CPU vs B': (s.cpu / b.cpu).toFixed(2),
    };
  }),
);
console.log(
  `Cache spans under load (B against C; only the requests that did not share another's read make one): req/s ${(b.rps / c.rps).toFixed(3)}x, server CPU per request ${(b.cpu / c.cpu).toFixed(3)}x.`,
);

console.log(
  `An ISR hit one at a time against one Redis (B): through Sentinel (D) ${(sd.ms / sb.ms).toFixed(2)}x the time and ${(sd.cpu / sb.cpu).toFixed(2)}x the server CPU, in a Cluster (E) ${(se.ms / sb.ms).toFixed(2)}x and ${(se.cpu / sb.cpu).toFixed(2)}x.`,
);
await sentinels.stop();
await redisCluster.stop();

// 2. Revalidation reaching three instances.
await redis.command('FLUSHALL');
/** @type {Awaited<ReturnType<typeof startApp>>[]} */
const cluster = [];
for (let i = 0; i < 3; i++) cluster.push(await startApp(ports.app + i, { redis: single }));
/** @type {number[]} */
const spread = [];
for (let i = 0; i < revalidations; i++) {
  const [first] = cluster;
  const asked = cluster[i % 3];
  if (!first || !asked) throw new Error('the three instances did not start');
  const before = await generatedAt(first.origin);
  const response = await fetch(`${asked.origin}/api/revalidate`, {
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
const app = await startApp(ports.app, { redis: single });
await fetch(`${app.origin}${page}`);
const outage = (async () => {
  await sleep(2000);
  await redis.stop();
  await sleep(3000);
  await redis.start();
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
