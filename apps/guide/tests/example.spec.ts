import { expect, gotoWithRequestId, test } from '@web-foundation/testing';

// An example of the product's own end-to-end tests: copy it for a page of yours and change the paths. It runs against
// the app `npm test` builds (your pages, with the tests' and the guide's), and waits at the same local Sentry ingest as
// the foundation's tests: what arrives there is what Sentry would receive. The page here is the guide's `/hello`
// (docs/build-your-product.md, step 1), which `npm test` always builds.

test('the page answers, and its server transaction and spans arrive, and so does its page load', async ({
  page,
  ingest,
}) => {
  // A wait is created before the action it waits for. The server's transaction is found by the request id the test
  // chose and sent (the proxy keeps a safe one): `gotoWithRequestId` for a page, an `x-request-id` header otherwise.
  const requestId = crypto.randomUUID();
  const traced = ingest.waitForTransaction((t) => t.tags?.request_id === requestId);
  const response = await gotoWithRequestId(page, '/hello', requestId);
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello from the server');
  const server = await traced;
  expect(server.transaction).toBe('GET /hello');
  expect(server.spans?.map((span) => span.description)).toEqual(
    expect.arrayContaining(['getServerSideProps /hello', 'render route (pages) /hello']),
  );

  // The browser's page load joins the server's trace, under the page's route. The trace id is the server's, known only
  // once it answered, and is what this proves: the wait looks back to the test's start.
  const traceId = server.contexts?.trace?.trace_id;
  const pageLoad = await ingest.waitForTransaction(
    (t) => t.contexts?.trace?.op === 'pageload' && t.contexts.trace.trace_id === traceId,
    { from: 'test start' },
  );
  expect(pageLoad.transaction).toBe('/hello');
});

test('an error arrives with the event id the error page shows', async ({ page, ingest }) => {
  const requestId = crypto.randomUUID();
  const reported = ingest.waitForError((e) => e.tags?.request_id === requestId);
  const response = await gotoWithRequestId(page, '/hello?fail=1', requestId);
  expect(response?.status()).toBe(500);
  const eventId = await page.getByTestId('event-id').textContent();
  expect(eventId).toMatch(/^[0-9a-f]{32}$/);
  const error = await reported;
  expect(error.event_id).toBe(eventId);
  expect(error.exception?.values?.at(-1)?.value).toBe('Hello failed on purpose');
});
