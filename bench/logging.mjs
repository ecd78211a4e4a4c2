// `npm run bench:logging` (also the last step of `npm run bench`): what the server's logger costs. The production
// standalone server (its preload starts the logger) with reporting on, three ways, alternating in one run:
// as shipped, the logger silenced (LOG_LEVEL=silent), and with the access log on (LOG_REQUESTS=1). Server CPU per
// request on the static, getServerSideProps and API routes; then, under a load of failing requests, the log envelopes
// per second that reach the local ingest. Loopback only; every load is bounded in time (docs/logging.md). The app is
// the reference app (apps/reference, the /examples pages), built in its folder as apps/reference/.next-bench-logging
// when that has no build yet (bench/lib.mjs buildApp).
//
//   npm run bench:logging -- --rounds 2 --seconds 5 --connections 20
//   npm run bench:logging -- --dist .next-x --port 3503 --ingest-port 3599
//                                   # a build and ports of your own (default .next-bench-logging, 3213 and 3298)
import { spawn } from 'node:child_process';
import diagnostics from 'node:diagnostics_channel';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pino from 'pino';
import { createServerLogger } from '../packages/foundation/src/observability/server/log.mts';
import { preload } from '../packages/foundation/scripts/standalone.mjs';
import { answersHealth, appServer, buildApp, load, option, sleep, startIngest } from './lib.mjs';
import { now } from '@web-foundation/testing/ingest';

const distDir = option('dist', '.next-bench-logging');
const rounds = Number(option('rounds', 3));
const seconds = Number(option('seconds', 5));
const connections = Number(option('connections', 20));
const routes = ['/examples/new', '/examples/42', '/api/health'];
const ways = {
  'as shipped': {},
  'logger silenced': { LOG_LEVEL: 'silent' },
  'access log on': { LOG_REQUESTS: '1' },
};
const baseline = 'logger silenced';
const appPort = Number(option('port', 3213));

// First, in this process: the CPU one access-log line costs, written to /dev/null, without and with a subscriber that
// parses each line as Sentry's pinoIntegration does. Steadier than a server under load on a shared machine.
{
  const logger = createServerLogger(
    { level: 'info', release: 'r', environment: 'production', collectPersonalData: false },
    pino.destination({ dest: '/dev/null', sync: true }),
  );
  const fields = { method: 'GET', url: '/examples/42', status: 200, duration_ms: 12, request_id: crypto.randomUUID() };
  const perLineUs = (/** @type {number} */ lines) => {
    const before = process.cpuUsage();
    for (let i = 0; i < lines; i++) logger.info(fields, 'request answered');
    const used = process.cpuUsage(before);
    return (used.user + used.system) / lines;
  };
  perLineUs(20_000);
  const bare = perLineUs(200_000);
  const parse = (/** @type {unknown} */ message) => JSON.parse(/** @type {{ result: string }} */ (message).result);
  diagnostics.tracingChannel('pino_asJson').end.subscribe(parse);
  perLineUs(20_000);
  const parsed = perLineUs(200_000);
  diagnostics.tracingChannel('pino_asJson').end.unsubscribe(parse);
  console.log(
    `One access-log line: ${bare.toFixed(2)} µs of CPU written, ${parsed.toFixed(2)} µs with the Sentry integration's parse.`,
  );
}

const ingest = startIngest(Number(option('ingest-port', 3298)));
if (!existsSync(join(appServer(distDir), 'server.js'))) buildApp({ NEXT_DIST_DIR: distDir });

/**
 * The standalone server as `npm start` runs it, its output discarded (the bench measures the writing, not a reader).
 * @param {Record<string, string>} env
 */
async function startServer(env) {
  const server = spawn('node', ['--import', `./${preload}`, 'server.js'], {
    cwd: appServer(distDir),
    stdio: 'ignore',
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      NEXT_DIST_DIR: distDir,
      PORT: String(appPort),
      HOSTNAME: 'localhost',
      SENTRY_DSN: ingest.dsn,
      ENABLE_DIAGNOSTICS: '1',
      SHUTDOWN_DRAIN_SECONDS: '0',
      ...env,
    },
  });
  const origin = `http://localhost:${appPort}`;
  if (await answersHealth(origin, 200)) return { server, origin };
  server.kill('SIGKILL');
  throw new Error(`the server did not start on ${origin}`);
}

/** @param {import('node:child_process').ChildProcess} server */
async function stopServer(server) {
  const exited = new Promise((done) => server.once('exit', done));
  server.kill('SIGTERM');
  await exited;
}

/** @type {Record<string, Record<string, number[]>>} */
const cpu = {}; // way → route → [ms per request, one per round]
for (let round = 1; round <= rounds; round++) {
  for (const [way, env] of Object.entries(ways)) {
    const { server, origin } = await startServer(env);
    try {
      for (const path of routes) {
        const result = await load(origin, path, server.pid, { connections, seconds });
        if (result.errors) throw new Error(`${way} ${path}: ${result.errors} errors`);
        ((cpu[way] ??= {})[path] ??= []).push(result.cpuMsPerRequest ?? NaN);
      }
    } finally {
      await stopServer(server);
    }
    console.log(`round ${round}/${rounds}: ${way} done`);
  }
}

const median = (/** @type {number[]} */ values = []) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (/** @type {number} */ i) => sorted[i] ?? NaN;
  const middle = sorted.length / 2;
  return Number.isInteger(middle) ? (at(middle - 1) + at(middle)) / 2 : at(Math.floor(middle));
};
const rows = routes.map((path) => {
  const base = median(cpu[baseline]?.[path]);
  return Object.fromEntries([
    ['route', path],
    ...Object.keys(ways).map((way) => {
      const ms = median(cpu[way]?.[path]);
      return [way, way === baseline ? `${ms.toFixed(3)} ms` : `${ms.toFixed(3)} ms (${(ms / base).toFixed(3)}×)`];
    }),
  ]);
});
console.log(
  `\nServer CPU per request (median of ${rounds} rounds, ways alternating; ${connections} connections, 2 s warm-up, ` +
    `${seconds} s per route), against the logger silenced:`,
);
console.table(rows);

// Failing requests: each prints one error line, forwarded to Sentry as a log (SENTRY_LOG_LEVEL warn).
const { server, origin } = await startServer({});
try {
  const before = now();
  const started = performance.now();
  const result = await autocannon({ url: `${origin}/api/diagnostics/server-error`, connections, duration: seconds });
  // The SDK's buffer is sent every 5 s: wait for the last one.
  await sleep(6000);
  const elapsed = (performance.now() - started) / 1000;
  const items = await ingest.items('log', before);
  /** The records a log envelope item carries. */
  const recordsOf = (/** @type {{ payload: unknown }} */ item) =>
    /** @type {{ items?: unknown[] }} */ (item.payload).items?.length ?? 0;
  const records = items.reduce((sum, item) => sum + recordsOf(item), 0);
  console.log(
    `\nUnder ${seconds} s of failing API requests (${result.requests.total} answered, one error line each): ` +
      `${items.length} log envelopes carrying ${records} records reached the ingest in ${elapsed.toFixed(1)} s ` +
      `(${(items.length / elapsed).toFixed(2)} envelopes/s, ${(records / Math.max(items.length, 1)).toFixed(0)} records each).`,
  );
} finally {
  await stopServer(server);
  ingest.stop();
}
