// `npm run bench:routes`: one build already made, loaded route by route, for measurements by hand that compare one
// build with another (docs/performance.md). Loopback only; every load is bounded in time.
// With reporting on it counts the transactions that reached the local ingest, so a variant that stops sending shows.
//
//   npm run bench:routes -- --dist .next-bench             # the reference app as `npm run bench` built it (in
//                                                          # apps/reference/.next-bench), reporting on
//   npm run bench:routes -- --dist .next-bench --reporting off
//   npm run bench:routes -- --dir bench/baseline           # the bare baseline (as `npm run bench` built it)
//   npm run bench:routes -- --dist .next-x --seconds 10 --connections 20
//   npm run bench:routes -- --port 3503 --ingest-port 3599   # ports of your own (default 3203 and 3299)
import { benchApp, load, option, rssMb, sleep, start, startIngest } from './lib.mjs';
import { now } from '@web-foundation/testing/ingest';

const dir = option('dir', benchApp);
const seconds = Number(option('seconds', 6));
const connections = Number(option('connections', 20));
const reporting = option('reporting', dir === benchApp ? 'on' : 'off') === 'on';
const routes = ['/examples/new', '/examples/42', '/api/health'];

const ingest = startIngest(Number(option('ingest-port', 3299)));
const dsn = reporting ? ingest.dsn : '';
const { server, origin } = await start(dir, Number(option('port', 3203)), {
  SENTRY_DSN: dsn,
  NEXT_PUBLIC_SENTRY_DSN: dsn,
  ...(dir === benchApp ? { NEXT_DIST_DIR: option('dist', '.next-bench') } : {}),
});

const rows = [];
const idleRssMb = rssMb(server.pid);
try {
  for (const path of routes) {
    const before = now();
    const result = await load(origin, path, server.pid, { connections, seconds });
    // The route's transactions from the warm-up and the load, against the answers autocannon counted. autocannon stops
    // with a request in flight on each connection, which the server still finishes and reports: so at least as many.
    let transactions;
    if (reporting) {
      await sleep(3000);
      transactions = await ingest.transactionsFor(before, [path]);
    }
    rows.push({
      path,
      'req/s': Math.round(result.rps),
      'p50 / p99 ms': `${result.p50} / ${result.p99}`,
      'server CPU ms/request': result.cpuMsPerRequest?.toFixed(2),
      'peak RSS MB': Math.round(result.peakRssMb),
      'errors / non-2xx': result.errors,
      ...(transactions !== undefined
        ? {
            'transactions / answers counted': `${transactions} / ${result.warmUpRequests + result.requests}`,
          }
        : {}),
    });
  }
} finally {
  server.kill('SIGTERM');
  ingest.stop();
}
console.log(
  `${dir}${dir === benchApp ? ` (${option('dist', '.next-bench')})` : ''}, reporting ${reporting ? 'on' : 'off'}; ` +
    `idle RSS ${Math.round(idleRssMb)} MB; ${connections} connections, 2 s warm-up, then ${seconds} s per route:`,
);
console.table(rows);
