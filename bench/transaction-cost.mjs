// `npm run bench:transaction`: what one server transaction costs in the Sentry SDK alone, outside any HTTP request:
// a root span with two child spans (a request with getServerSideProps and a render), built, filtered, serialised and
// sent to the local ingest, with the server's options (no OpenTelemetry, whole transactions). It is the floor under
// the server's per-request cost at 100% tracing, whatever instruments the request (docs/performance.md, "Known limits").
// Loopback only; it stops by itself.
//
//   npm run bench:transaction                    # 3000 transactions, each way
//   npm run bench:transaction -- --count 10000
import * as Sentry from '@sentry/node';
import { option, startIngest } from './lib.mjs';

const count = Number(option('count', 3000));
/** @type {Record<string, Sentry.NodeOptions['transport']>} */
const ways = {
  'sent to the ingest': undefined,
  'built, not sent (a transport that drops)': () => ({ send: async () => ({}), flush: async () => true }),
};
const way = option('way', 'sent to the ingest');
if (!(way in ways)) {
  console.error(`--way names no way: ${way}. Name one of: ${Object.keys(ways).join('; ')}.`);
  process.exit(1);
}
const ingest = startIngest(3298);
await new Promise((ready) => setTimeout(ready, 500));
Sentry.init({
  dsn: ingest.dsn,
  tracesSampleRate: 1,
  traceLifecycle: 'static',
  enableOpenTelemetrySetup: false,
  transport: ways[way],
});
const cpuBefore = process.cpuUsage();
for (let i = 0; i < count; i++) {
  Sentry.startSpan(
    { name: 'GET /examples/[id]', op: 'http.server', attributes: { 'http.response.status_code': 200 } },
    () => {
      Sentry.startSpan({ name: 'getServerSideProps /examples/[id]', op: 'function.nextjs' }, () => {});
      Sentry.startSpan({ name: 'render route (pages) /examples/[id]', op: 'function.nextjs' }, () => {});
    },
  );
  // Let the transport's requests go out as a server's would, between requests.
  if (i % 50 === 0) await new Promise((next) => setImmediate(next));
}
await Sentry.flush(30_000);
const cpu = process.cpuUsage(cpuBefore);
console.log(`${way}: ${((cpu.user + cpu.system) / 1000 / count).toFixed(3)} ms of CPU per transaction (${count})`);
ingest.stop();
