// `npm run bench:https`: what sending to an HTTPS ingest, as production does, costs the server, and what keeping the
// ingest connection alive saves. One build of the reference app (apps/reference, built in place as <.next-https>),
// three servers started from it at once, as `npm start` runs them:
//   - "HTTP ingest": reports to a plain-HTTP ingest, as every other bench does;
//   - "HTTPS, keep-alive off": to an HTTPS ingest with a self-signed certificate (NODE_EXTRA_CA_CERTS trusts it), a new
//     TLS connection for every envelope;
//   - "HTTPS, keep-alive on": the same, the transport's connections kept alive.
// Keep-alive is forced on each side by a preload (bench/keep-alive-preload.mjs), so that only it differs. Each HTTPS
// side has an ingest of its own, which counts the TLS connections it accepted.
// Two loads: quiet (a few requests a second to each server, where a connection per envelope costs most) and full
// (--connections each). Round after round, the three are loaded at the same time on one core (as bench:ab does, so
// that the machine's drift hits them alike); each figure is the median of the rounds, each ratio the median of the
// rounds' ratios against the same round's "HTTPS, keep-alive off". Loopback only; every load is bounded in time.
//
//   npm run bench:https
//   npm run bench:https -- --rounds 6 --seconds 10 --quiet-seconds 30 --rate 4 --connections 10 --port 3600
//   npm run bench:https -- --skip-build
//
// Ports: the servers on --port and the two after it, the ingests on --port + 47 to + 49 (HTTP) and + 45, + 46 (HTTPS).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { cpuMs, dedicateServerCore, option, startIngest, startStandalone } from './lib.mjs';
import { startHttpsIngest } from './https-ingest-sink.mjs';
import { referenceApp, serverDir } from '@web-foundation/testing/env';
import { now } from '@web-foundation/testing/ingest';

const rounds = Number(option('rounds', 6));
const seconds = Number(option('seconds', 10));
const quietSeconds = Number(option('quiet-seconds', 30));
const rate = Number(option('rate', 4));
const connections = Number(option('connections', 10));
const port = Number(option('port', 3600));
const path = option('path', '/examples/42');
const distDir = '.next-https';
const app = referenceApp;

const plain = startIngest(port + 49);
const httpsOff = startHttpsIngest(port + 48, port + 46);
const httpsOn = startHttpsIngest(port + 47, port + 45);
const preload = fileURLToPath(new URL('keep-alive-preload.mjs', import.meta.url));
/**
 * The servers compared, each with the ingest it sends to (an HTTPS one counts the TLS connections it accepted).
 * @typedef {ReturnType<typeof startIngest> & { tlsConnections?: () => Promise<number> }} Ingest
 * @type {{ name: string, ingest: Ingest, env: Record<string, string> }[]}
 */
const variants = [
  { name: 'HTTP ingest', ingest: plain, env: { SENTRY_DSN: plain.dsn } },
  {
    name: 'HTTPS, keep-alive off',
    ingest: httpsOff,
    env: { ...httpsOff.serverEnv, NODE_OPTIONS: `--import ${preload}`, BENCH_KEEP_ALIVE: 'false' },
  },
  {
    name: 'HTTPS, keep-alive on',
    ingest: httpsOn,
    env: { ...httpsOn.serverEnv, NODE_OPTIONS: `--import ${preload}`, BENCH_KEEP_ALIVE: 'true' },
  },
];
const reference = 1; // "HTTPS, keep-alive off": what the SDK did by default before 11 (docs/performance.md)

if (!process.argv.includes('--skip-build')) {
  console.log(`Building ${app} as ${distDir} …`);
  rmSync(join(app, distDir), { recursive: true, force: true });
  const script = fileURLToPath(new URL('../packages/foundation/scripts/build.mjs', import.meta.url));
  const result = spawnSync('node', [script], {
    cwd: app,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_DIST_DIR: distDir, NEXT_PUBLIC_SENTRY_DSN: plain.dsn },
  });
  if (result.status !== 0) throw new Error(`the build of ${app} failed`);
}

const serverCore = dedicateServerCore(plain.pid, httpsOff.pid, httpsOn.pid);
const median = (/** @type {number[]} */ values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (/** @type {number} */ i) => sorted[i] ?? NaN;
  const middle = sorted.length / 2;
  return sorted.length % 2 ? at(Math.floor(middle)) : (at(middle - 1) + at(middle)) / 2;
};

/**
 * A server under load, and the ingest it sends to.
 * @typedef {(typeof variants)[number] & Awaited<ReturnType<typeof startStandalone>>} Server
 * @typedef {{ requests: number, rps: number, cpu: number, envelopes: number, tls: number | undefined }} Round
 */

/**
 * One round: every server under the same load at once; each one's CPU per request, envelopes and TLS connections.
 * @param {Server[]} servers
 * @param {Omit<import('autocannon').Options, 'url'>} load
 * @param {number} round
 * @returns {Promise<Round[]>}
 */
async function together(servers, load, round) {
  // The order the loads start in turns with the rounds.
  const order = servers.map((_, i) => (i + round) % servers.length);
  const from = now();
  const before = await Promise.all(
    servers.map(async (s) => ({ cpu: cpuMs(s.server.pid), tls: await s.ingest.tlsConnections?.() })),
  );
  /** @type {import('autocannon').Result[]} */
  const results = [];
  await Promise.all(
    order.map(async (i) => {
      // `order` is a turn of the servers' own indexes.
      const { origin } = /** @type {Server} */ (servers[i]);
      results[i] = await autocannon({ url: `${origin}${path}`, ...load });
    }),
  );
  // What the last requests sent is in flight still: the envelopes and connections are counted once it has arrived.
  await new Promise((done) => setTimeout(done, 3000));
  return Promise.all(
    servers.map(async (s, i) => {
      const result = results[i];
      const start = before[i];
      if (!result || !start) throw new Error(`${s.name}: no load figures on ${path}`);
      if (result.errors + result.timeouts + result.non2xx) throw new Error(`${s.name}: errors on ${path}`);
      const requests = result.requests.total;
      const envelopes = (await s.ingest.requests(from)).length;
      const tls = s.ingest.tlsConnections ? (await s.ingest.tlsConnections()) - (start.tls ?? 0) : undefined;
      return {
        requests,
        rps: result.requests.average,
        cpu: (cpuMs(s.server.pid) - start.cpu) / requests,
        envelopes,
        tls,
      };
    }),
  );
}

const loads = [
  { name: `quiet: ${rate} requests/s to each`, load: { connections: 1, overallRate: rate, duration: quietSeconds } },
  { name: `full: ${connections} connections each`, load: { connections, duration: seconds } },
];
/** One server's figures in one round (`together` returns them in the servers' order). */
const figuresOf = (/** @type {Round[]} */ round, /** @type {number} */ i) => {
  const figures = round[i];
  if (!figures) throw new Error(`a round has no figures for server ${i}`);
  return figures;
};
/** @type {Record<string, string>[]} */
const rows = [];
/** @type {Server[]} */
const servers = [];
try {
  for (const [i, variant] of variants.entries()) {
    const env = { NEXT_DIST_DIR: distDir, ...variant.env };
    servers.push({
      ...variant,
      ...(await startStandalone(serverDir(distDir, app), port + i, env, { cpu: serverCore })),
    });
  }
  for (const { name, load } of loads) {
    // Warm-up: the route's modules, the JIT, the first connection to each ingest.
    await Promise.all(servers.map((s) => autocannon({ url: `${s.origin}${path}`, connections, duration: 2 })));
    /** @type {Round[][]} */
    const perRound = [];
    for (let round = 0; round < rounds; round++) {
      console.log(`${name}: round ${round + 1}/${rounds}`);
      perRound.push(await together(servers, load, round));
    }
    for (const [i, s] of servers.entries()) {
      const ratios = perRound.map((r) => figuresOf(r, i).cpu / figuresOf(r, reference).cpu);
      const sum = (/** @type {'envelopes' | 'tls'} */ key) =>
        perRound.reduce((total, r) => total + (figuresOf(r, i)[key] ?? 0), 0);
      rows.push({
        load: name,
        server: s.name,
        'req/s': median(perRound.map((r) => figuresOf(r, i).rps)).toFixed(1),
        'CPU ms/req': median(perRound.map((r) => figuresOf(r, i).cpu)).toFixed(3),
        'CPU / keep-alive off': i === reference ? '' : median(ratios).toFixed(2),
        rounds: i === reference ? '' : `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`,
        'envelopes / TLS connection': s.ingest.tlsConnections ? (sum('envelopes') / sum('tls')).toFixed(1) : '',
      });
    }
  }
} finally {
  servers.forEach((s) => s.stop());
  [plain, httpsOff, httpsOn].forEach((ingest) => ingest.stop());
}

console.log(
  `\nMachine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}. ${app} (${distDir}), ` +
    `${path}; ${rounds} rounds per load, quiet ${quietSeconds} s, full ${seconds} s, the three servers loaded at ` +
    'once' +
    (serverCore === undefined ? '. ' : ` on core ${serverCore}, the load generator and the ingests on the others. `) +
    'Figures are medians of the rounds; each ratio is the median of the rounds’ ratios against the same round’s ' +
    '"HTTPS, keep-alive off" (their range in "rounds").',
);
console.table(rows);
