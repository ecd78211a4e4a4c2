import type { Event } from '@sentry/core';
import { appOrigin } from '@web-foundation/testing/env';
import { expect, test } from '@web-foundation/testing';

// Spec §1 (100% of transactions traced) on the server's lean path
// (packages/foundation/src/observability/server/reporter.ts, nextSpans.ts): what each request's transaction holds,
// proven by the envelopes that reach the local ingest.

const traceOf = (t: Event) => t.contexts?.trace ?? { trace_id: undefined, op: undefined, data: undefined };
const dataOf = (t: Event) => (traceOf(t).data ?? {}) as Record<string, unknown>;
const spanNames = (t: Event) => (t.spans ?? []).map((s) => s.description);
/** Matches the transaction or event of the request sent with this X-Request-Id (the app keeps a safe one). */
const ofRequest = (requestId: string) => (e: Event) => e.tags?.request_id === requestId;
const incomingTraceId = '0af7651916cd43dd8448eb211c80319c';
const incomingSpanId = 'b7ad6b7169203331';

test('a getServerSideProps page: route name, status, request id, duration, continued trace, data-fetching span', async ({
  request,
  ingest,
}) => {
  const requestId = crypto.randomUUID();
  const sent = ingest.waitForTransaction(ofRequest(requestId));
  const response = await request.get('/examples/7', {
    headers: {
      'x-request-id': requestId,
      'sentry-trace': `${incomingTraceId}-${incomingSpanId}-1`,
      baggage: `sentry-trace_id=${incomingTraceId},sentry-environment=production,sentry-public_key=public,sentry-sampled=true,sentry-sample_rand=0.4`,
    },
  });
  expect(response.status()).toBe(200);
  const transaction = await sent;
  expect(transaction.transaction).toBe('GET /examples/[id]');
  expect(transaction.transaction_info?.source).toBe('route');
  expect(dataOf(transaction)['http.response.status_code']).toBe(200);
  expect(traceOf(transaction)).toMatchObject({
    op: 'http.server',
    trace_id: incomingTraceId,
    parent_span_id: incomingSpanId,
  });
  expect(transaction.timestamp! - transaction.start_timestamp!).toBeGreaterThan(0);
  const dataFetching = transaction.spans?.find((s) => s.description === 'getServerSideProps /examples/[id]');
  expect(dataFetching).toMatchObject({ op: 'function.nextjs', trace_id: incomingTraceId });
});

test("the page's meta tags carry the server's trace, so the browser's page load joins it", async ({
  page,
  ingest,
  token,
}) => {
  // A segment of the test's own: both transactions are found by the page's path.
  const path = `/examples/${token}`;
  const server = ingest.waitForTransaction((t) => traceOf(t).op === 'http.server' && t.request?.url === path);
  const pageLoad = ingest.waitForTransaction(
    (t) => traceOf(t).op === 'pageload' && t.request?.url === `${appOrigin}${path}`,
  );
  await page.goto(path);
  const metaTrace = await page.locator('meta[name="sentry-trace"]').getAttribute('content');
  expect(metaTrace?.split('-')[0]).toBe(traceOf(await server).trace_id);
  expect(await page.locator('meta[name="baggage"]').getAttribute('content')).toContain(
    'sentry-transaction=GET%20%2Fexamples%2F%5Bid%5D',
  );
  expect((await pageLoad).transaction).toBe('/examples/[id]');
  expect(traceOf(await pageLoad).trace_id).toBe(traceOf(await server).trace_id);
});

test('an API route: its route, and a span for the handler', async ({ request, ingest }) => {
  const requestId = crypto.randomUUID();
  const sent = ingest.waitForTransaction(ofRequest(requestId));
  await request.get('/api/health', { headers: { 'x-request-id': requestId } });
  const transaction = await sent;
  expect(transaction.transaction).toBe('GET /api/health');
  expect(spanNames(transaction)).toContain('executing api route (pages) /api/health');
});

test('page data fetched by the router is named after its route; on-demand getStaticProps gets its span', async ({
  request,
  ingest,
  token,
}) => {
  const { buildId } = (await (await request.get('/api/health')).json()) as { buildId: string };
  const requestId = crypto.randomUUID();
  const sent = ingest.waitForTransaction(ofRequest(requestId));
  const data = await request.get(`/_next/data/${buildId}/examples/on-demand/${token}.json`, {
    headers: { 'x-request-id': requestId },
  });
  expect(data.status()).toBe(200);
  const transaction = await sent;
  expect(transaction.transaction).toBe('GET /examples/on-demand/[slug]');
  expect(spanNames(transaction)).toContain('getStaticProps /examples/on-demand/[slug]');
});

test("a catch-all page and a static page are named after their routes; Next's own steps are not transactions", async ({
  request,
  ingest,
}) => {
  for (const [path, name] of [
    ['/examples/docs/guides/intro', 'GET /examples/docs/[...path]'],
    ['/examples/new', 'GET /examples/new'],
  ] as const) {
    const requestId = crypto.randomUUID();
    const sent = ingest.waitForTransaction(ofRequest(requestId));
    await request.get(path, { headers: { 'x-request-id': requestId } });
    expect((await sent).transaction).toBe(name);
  }
  // With OpenTelemetry's pipeline, every route module Next loaded became a transaction of its own, and so did the
  // proxy's pass.
  await ingest.expectNone<Event>(
    'transaction',
    (t) => /^(load route module|resolve page components|middleware )/.test(t.transaction ?? ''),
    { withinMs: 500 },
  );
});

test('process and module details go with errors, not with every transaction', async ({ request, ingest }) => {
  const requestId = crypto.randomUUID();
  const reported = ingest.waitForError(ofRequest(requestId));
  const sent = ingest.waitForTransaction(ofRequest(requestId));
  await request.get('/api/diagnostics/server-error', { headers: { 'x-request-id': requestId } });
  const error = await reported;
  expect(error.contexts?.app?.app_memory).toBeGreaterThan(0);
  expect(error.contexts?.os).toBeDefined();
  expect(Object.keys(error.modules ?? {})).toContain('next');
  const transaction = await sent;
  expect(transaction.transaction).toBe('GET /api/diagnostics/server-error');
  expect(transaction.contexts?.app).toBeUndefined();
  expect(transaction.modules).toBeUndefined();
  expect(transaction.contexts?.runtime?.name).toBe('node');
});
