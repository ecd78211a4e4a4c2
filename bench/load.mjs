// `npm run bench:load`: a bounded load test of the production build with reporting on (loopback only).
// 60 s at 50 connections across a static page, a getServerSideProps page and an API route; then 15 s idle.
// Fails (exit 1) on any error or non-2xx answer, on a transaction that did not reach the ingest (spec §1: 100% traced),
// or when memory does not settle after the load. The app is the reference app (the /examples pages), built in its
// folder as apps/reference/.next-load (bench/lib.mjs buildApp) and served as `npm start` serves it: the standalone
// server with its preload. It also prints what the SDK says it dropped, and why (its client reports, sent as the server
// drains on SIGTERM).
//
//   npm run bench:load                       # build, then load
//   npm run bench:load -- --skip-build --seconds 20 --connections 50
//   npm run bench:load -- --port 3503 --ingest-port 3599   # ports of your own (default 3205 and 3298)
import autocannon from 'autocannon';
import { appServer, buildApp, rssMb, sleep, startIngest, startStandalone } from './lib.mjs';
import { now } from '@web-foundation/testing/ingest';

const args = process.argv.slice(2);
const option = (/** @type {string} */ name, /** @type {number} */ fallback) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const seconds = option('seconds', 60);
const connections = option('connections', 50);

const ingest = startIngest(option('ingest-port', 3298));
const paths = ['/examples/new', '/examples/42', '/api/health'];
const env = { SENTRY_DSN: ingest.dsn, NEXT_PUBLIC_SENTRY_DSN: ingest.dsn, NEXT_DIST_DIR: '.next-load' };
if (!args.includes('--skip-build')) {
  console.log('building …');
  buildApp({ ...env, BUILD_ID: 'load-test' });
}
const { server, origin } = await startStandalone(appServer(env.NEXT_DIST_DIR), option('port', 3205), env);

/** @type {number[]} */
const memory = [];
const sampler = setInterval(() => memory.push(rssMb(server.pid)), 1000);
try {
  await autocannon({ url: `${origin}/api/health`, connections: 10, duration: 3 }); // warm-up
  const before = rssMb(server.pid);
  const loadStarted = now();
  console.log(`loading ${origin} for ${seconds} s at ${connections} connections …`);
  const result = await autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: paths.map((path) => ({ path })),
  });
  const peak = Math.max(...memory);
  await sleep(15_000);
  const after = rssMb(server.pid);
  const failures = result.errors + result.timeouts + result.non2xx;
  // The server drains on SIGTERM and sends what it holds, its client reports among them: what the SDK dropped, and why.
  const exited = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await exited;
  // autocannon stops with a request in flight on each connection, which the server still finishes and reports.
  const transactions = await ingest.transactionsFor(loadStarted, paths);
  /** @type {Record<string, number>} */
  const dropped = {};
  for (const { payload } of await ingest.items('client_report', loadStarted)) {
    const report = /** @type {{ discarded_events?: { reason: string, category: string, quantity: number }[] }} */ (
      payload
    );
    for (const { reason, category, quantity } of report.discarded_events ?? []) {
      const what = `${category}: ${reason}`;
      dropped[what] = (dropped[what] ?? 0) + quantity;
    }
  }
  const lost = Math.max(0, result.requests.total - transactions);
  console.table({
    requests: { value: result.requests.total },
    'req/s (mean)': { value: Math.round(result.requests.average) },
    'p50 ms': { value: result.latency.p50 },
    'p99 ms': { value: result.latency.p99 },
    'max ms': { value: result.latency.max },
    'errors + timeouts + non-2xx': { value: failures },
    'transactions received': { value: transactions },
    'RSS before load MB': { value: Math.round(before) },
    'RSS peak MB': { value: Math.round(peak) },
    'RSS 15 s after load MB': { value: Math.round(after) },
    ...Object.fromEntries(Object.entries(dropped).map(([what, count]) => [`SDK dropped (${what})`, { value: count }])),
  });
  // Settled: 15 s after the load, no more than the load's peak, within the 2% that one reading of the same plateau
  // varies by (the heap keeps what it grew to; a leak goes on growing). Rounded figures hid a 0.2 MB difference.
  const settled = after <= peak * 1.02;
  const problems = [
    failures > 0 && `${failures} requests failed.`,
    lost > 0 && `${lost} transactions did not reach the ingest.`,
    !settled && `Memory kept growing after the load: ${after.toFixed(1)} MB against a peak of ${peak.toFixed(1)} MB.`,
  ].filter(Boolean);
  if (problems.length > 0) {
    console.error(problems.join(' '));
    process.exitCode = 1;
  }
} finally {
  clearInterval(sampler);
  server.kill('SIGTERM');
  ingest.stop();
}
