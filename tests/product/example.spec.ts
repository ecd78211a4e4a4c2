import { expect, test } from '../e2e/fixtures';

// An example of the product's own end-to-end tests: copy it for a page of yours and change the paths. It runs against
// the app `npm test` builds (your pages, with the tests' and the guide's), and waits at the same local Sentry ingest as
// the foundation's tests: what arrives there is what Sentry would receive. The page here is the guide's `/hello`
// (docs/build-your-product.md, step 1), which `npm test` always builds.

test('the page answers, and its server transaction and spans arrive, and so does its page load', async ({
  page,
  ingest,
}) => {
  const response = await page.goto('/hello');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Hello from the server');

  // The server's transaction, found by the request id the proxy gave the request. Known only from the answer, so the
  // wait looks back to the test's start; a wait for something known beforehand is created before the action instead:
  // `const reported = ingest.waitForError(predicate); await page.click(…); const event = await reported;`
  const requestId = response?.headers()['x-request-id'];
  const server = await ingest.waitForTransaction((t) => t.tags?.request_id === requestId, { from: 'test start' });
  expect(server.transaction).toBe('GET /hello');
  expect(server.spans?.map((span) => span.description)).toEqual(
    expect.arrayContaining(['getServerSideProps /hello', 'render route (pages) /hello']),
  );

  // The browser's page load joins the server's trace, under the page's route.
  const traceId = server.contexts?.trace?.trace_id;
  const pageLoad = await ingest.waitForTransaction(
    (t) => t.contexts?.trace?.op === 'pageload' && t.contexts.trace.trace_id === traceId,
    { from: 'test start' },
  );
  expect(pageLoad.transaction).toBe('/hello');
});

test('an error arrives with the event id the error page shows', async ({ page, ingest }) => {
  const response = await page.goto('/hello?fail=1');
  expect(response?.status()).toBe(500);
  const eventId = await page.getByTestId('event-id').textContent();
  expect(eventId).toMatch(/^[0-9a-f]{32}$/);
  const error = await ingest.waitForError((e) => e.event_id === eventId, { from: 'test start' });
  expect(error.exception?.values?.at(-1)?.value).toBe('Hello failed on purpose');
  expect(error.tags?.request_id).toBe(response?.headers()['x-request-id']);
});
