// `npm run bench:redaction`: what the URL redaction (packages/foundation/src/observability/privacy/events.ts) costs one
// server transaction while personal data is off: `urlRedaction.processEvent` on a page request's transaction as the
// server's SDK builds it (20 attributes, 3 spans), in-process. Set beside `npm run bench:transaction`, the SDK's own
// cost (docs/observability.md, "Privacy").
//
//   npm run bench:redaction                      # 200,000 transactions
//   npm run bench:redaction -- --count 1000000
import { urlRedaction } from '../packages/foundation/src/observability/privacy/events.ts';
import { option } from './lib.mjs';

const count = Number(option('count', 200_000));
const origin = 'http://localhost:3000';

/**
 * A transaction of `GET /examples/42` with the attributes the server's SDK gives it.
 * @returns {import('@sentry/core').Event}
 */
const transaction = () => ({
  type: 'transaction',
  transaction: 'GET /examples/[id]',
  request: { url: `${origin}/examples/42`, headers: { referer: `${origin}/` } },
  contexts: {
    trace: {
      trace_id: 't',
      span_id: 's',
      data: {
        'sentry.op': 'http.server',
        'sentry.origin': 'auto.http.otel.http',
        'sentry.source': 'route',
        'sentry.sample_rate': 1,
        'sentry.kind': 'server',
        'url.full': `${origin}/examples/42`,
        'url.path': '/examples/42',
        'url.scheme': 'http',
        'http.request.method': 'GET',
        'http.route': '/examples/[id]',
        'http.response.status_code': 200,
        'http.request.header.referer': [`${origin}/`],
        'server.address': 'localhost',
        'server.port': 3000,
        'client.address': '127.0.0.1',
        'network.peer.address': '127.0.0.1',
        'network.peer.port': 50000,
        'network.protocol.version': '1.1',
        'user_agent.original': 'Mozilla/5.0',
        request_id: 'r',
      },
    },
  },
  spans: ['getServerSideProps', 'render route (pages)', 'cache.get'].map((name, i) => ({
    span_id: String(i),
    trace_id: 't',
    start_timestamp: 0,
    status: 'ok',
    description: `${name} /examples/[id]`,
    data: { 'sentry.op': 'function.nextjs', 'sentry.origin': 'auto' },
  })),
});

// Built before the clock starts: only the redaction is measured.
const events = Array.from({ length: count }, transaction);
const cpuBefore = process.cpuUsage();
if (!urlRedaction.processEvent) throw new Error('urlRedaction has no processEvent: measure what it does now instead');
// The redaction reads neither the hint nor the client.
const client = /** @type {import('@sentry/core').Client} */ ({});
for (const event of events) urlRedaction.processEvent(event, {}, client);
const cpu = process.cpuUsage(cpuBefore);
console.log(`the URL redaction: ${((cpu.user + cpu.system) / count).toFixed(2)} µs of CPU per transaction (${count})`);
