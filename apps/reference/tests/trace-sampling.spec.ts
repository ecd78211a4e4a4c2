import type { Event } from '@sentry/core';
import { startExpectingExit, startInstance } from '@web-foundation/testing/cluster';
import { firstException } from '@web-foundation/testing/ingest';
import { expect, test, throwInPage, waitForReporting } from '@web-foundation/testing';

// Issue 35: an operator lowers tracing below the spec's 100% with SENTRY_TRACES_SAMPLE_RATE. Errors keep their rate,
// and the decision is made once, at the head of the trace: every service and the browser follow it, so a trace is
// whole or absent, never in pieces (docs/build-your-product.md, "Trace fewer requests").

const traceOf = (event: Event): { trace_id?: string } => event.contexts?.trace ?? {};
const ofRequest = (requestId: string | undefined) => (event: Event) => event.tags?.request_id === requestId;
/** The page's trace meta tag: trace id, span id and the sampling decision the browser continues. */
const metaTrace = /<meta name="sentry-trace" content="([0-9a-f]{32})-([0-9a-f]{16})-([01])"/;

test('at SENTRY_TRACES_SAMPLE_RATE=0 no transaction is sent, errors still are, and a caller’s sampled trace is kept', async ({
  page,
  ingest,
}) => {
  const app = await startInstance(undefined, undefined, { SENTRY_TRACES_SAMPLE_RATE: '0' });
  try {
    // A page: served, its unsampled decision handed to the browser in the meta tags.
    const served = await page.request.get(`${app.origin}/examples/42`);
    expect(served.status()).toBe(200);
    const [, traceId, , sampled] = metaTrace.exec(await served.text()) ?? [];
    expect(sampled).toBe('0');

    // An error on the server: reported, with the request id and its trace.
    const failedId = crypto.randomUUID();
    const raised = ingest.waitForError(ofRequest(failedId));
    const failed = await page.request.get(`${app.origin}/api/diagnostics/server-error`, {
      headers: { 'x-request-id': failedId },
    });
    expect(failed.status()).toBe(500);
    const error = await raised;
    expect(firstException(error)).toBe('Diagnostics: an exception thrown in an API route');
    expect(traceOf(error).trace_id).toMatch(/^[0-9a-f]{32}$/);

    // The browser continues the page's unsampled trace: its error arrives on that trace, its page load does not.
    await page.goto(`${app.origin}/examples/42`);
    const browserTraceId = (await page.locator('meta[name="sentry-trace"]').getAttribute('content'))?.split('-')[0];
    await waitForReporting(page);
    const reported = ingest.waitForError((e) => firstException(e) === 'Thrown in an unsampled page');
    await throwInPage(page, 'Thrown in an unsampled page');
    const browserError = await reported;
    expect(traceOf(browserError).trace_id).toBe(browserTraceId);

    // A caller that sampled its trace keeps it whole: the server follows the caller's decision, not its own rate.
    const callerTraceId = '5c1f0c2b9a7e4d3f8b6a1e2d3c4b5a69';
    const continuedId = crypto.randomUUID();
    const traced = ingest.waitForTransaction(ofRequest(continuedId));
    await page.request.get(`${app.origin}/examples/7`, {
      headers: { 'sentry-trace': `${callerTraceId}-a1b2c3d4e5f60718-1`, 'x-request-id': continuedId },
    });
    const transaction = await traced;
    expect(traceOf(transaction)).toMatchObject({ trace_id: callerTraceId, parent_span_id: 'a1b2c3d4e5f60718' });

    // Nothing else of this instance's traces arrived: not the server's, not the browser's page load.
    const unsampled = new Set([traceId, browserTraceId, traceOf(error).trace_id]);
    await ingest.expectNone<Event>('transaction', (t) => unsampled.has(traceOf(t).trace_id));
  } finally {
    await app.stop();
  }
});

test('a caller’s unsampled trace stays unsampled at the spec’s rate of 1, and so does the page it serves', async ({
  request,
  ingest,
}) => {
  const callerTraceId = '6d2e1f3a0b8c4e5f9a7b2c3d4e5f6a70';
  const served = await request.get('/examples/42', {
    headers: { 'sentry-trace': `${callerTraceId}-b2c3d4e5f6071829-0` },
  });
  expect(served.status()).toBe(200);
  const [, traceId, , sampled] = metaTrace.exec(await served.text()) ?? [];
  expect([traceId, sampled]).toEqual([callerTraceId, '0']);
  await ingest.expectNone<Event>('transaction', (t) => traceOf(t).trace_id === callerTraceId);
});

test('a rate outside 0 to 1 stops start-up with one line that says what to set', async () => {
  const { code, fatal } = await startExpectingExit({ SENTRY_TRACES_SAMPLE_RATE: '10%' });
  expect(code).toBe(1);
  expect(fatal).toEqual([
    'Configuration error: SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1, e.g. 0.1 to keep one trace in ten (got "10%"); unset it to keep every trace.',
  ]);
});
