import type { Event } from '@sentry/core';
import { expect, installedIntegrations, test } from '@web-foundation/testing';

// Issue 29: a W3C traceparent goes beside sentry-trace and baggage, so that a service traced with OpenTelemetry joins
// the trace; and a request that arrives with only a traceparent continues its trace
// (packages/foundation/src/observability/server/traceparent.ts). The server's own outgoing calls, checked at a real
// backend: apps/guide/tests/product-tracing.spec.ts.

const traceOf = (t: Event) => t.contexts?.trace ?? {};
const ofRequest = (requestId: string) => (e: Event) => e.tags?.request_id === requestId;
const callerTraceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const callerSpanId = '00f067aa0ba902b7';

test("the browser's same-origin requests carry traceparent, sentry-trace and baggage of one trace", async ({
  page,
  ingest,
  token,
}) => {
  await page.goto('/examples');
  await installedIntegrations(page, ['BrowserTracing'], 'BrowserTracing');
  // A segment of the test's own: the server's transaction of the page data is found by its path.
  const target = `/examples/${token}`;
  const dataPath = (url: string) =>
    new RegExp(`^(?:https?://[^/]+)?/_next/data/[^/]+${target}\\.json(?:\\?|$)`).test(url);
  const served = ingest.waitForTransaction(
    (t) => t.contexts?.trace?.op === 'http.server' && dataPath(String(t.contexts.trace.data?.['url.full'])),
  );
  const [data] = await Promise.all([
    page.waitForRequest((r) => dataPath(r.url())),
    page.evaluate(
      (path) => (window as unknown as { next: { router: { push(url: string): void } } }).next.router.push(path),
      target,
    ),
  ]);
  const headers = await data.allHeaders();
  const [traceId, spanId, sampled] = headers['sentry-trace']!.split('-');
  expect(headers.traceparent).toBe(`00-${traceId}-${spanId}-${sampled === '1' ? '01' : '00'}`);
  expect(headers.baggage).toContain(`sentry-trace_id=${traceId}`);
  // The server's transaction for that request continues the browser's trace under the request's span.
  const server = await served;
  expect(traceOf(server)).toMatchObject({ trace_id: traceId, parent_span_id: spanId });
});

test("a request with only a traceparent continues the caller's trace", async ({ request, ingest }) => {
  const requestId = crypto.randomUUID();
  const traced = ingest.waitForTransaction(ofRequest(requestId));
  await request.get('/examples/7', {
    headers: { traceparent: `00-${callerTraceId}-${callerSpanId}-01`, 'x-request-id': requestId },
  });
  const transaction = await traced;
  expect(transaction.transaction).toBe('GET /examples/[id]');
  expect(traceOf(transaction)).toMatchObject({
    op: 'http.server',
    trace_id: callerTraceId,
    parent_span_id: callerSpanId,
  });
});

test('a request with sentry-trace and traceparent continues the sentry-trace', async ({ request, ingest }) => {
  const sentryTraceId = '0af7651916cd43dd8448eb211c80319c';
  const requestId = crypto.randomUUID();
  const traced = ingest.waitForTransaction(ofRequest(requestId));
  await request.get('/examples/7', {
    headers: {
      'sentry-trace': `${sentryTraceId}-b7ad6b7169203331-1`,
      traceparent: `00-${callerTraceId}-${callerSpanId}-01`,
      'x-request-id': requestId,
    },
  });
  const transaction = await traced;
  expect(traceOf(transaction)).toMatchObject({ trace_id: sentryTraceId, parent_span_id: 'b7ad6b7169203331' });
});
