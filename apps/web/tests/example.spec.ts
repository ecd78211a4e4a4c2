import { expect, test } from '@web-foundation/testing';

// An example of this app's own end-to-end tests: copy it for a page of yours and change the paths. It runs against the
// build `npm test` makes of this app, and waits at the local Sentry ingest the tests run: what arrives there is what
// Sentry would receive. One spec alone: `npm run test:e2e -- apps/web/tests/example.spec.ts`.

test("the start page answers, and the browser's page load arrives under its route", async ({ page, ingest }) => {
  // A wait is created before the action it waits for.
  const pageLoad = ingest.waitForTransaction((t) => t.contexts?.trace?.op === 'pageload' && t.transaction === '/');
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await pageLoad;
});

test('an API route that throws answers 500, and its error arrives, found by the request id the test sent', async ({
  request,
  ingest,
}) => {
  // The diagnostics route (on in the tests, ENABLE_DIAGNOSTICS=1) stands for a route of yours; the app keeps a safe
  // X-Request-Id and tags the error with it.
  const requestId = crypto.randomUUID();
  const reported = ingest.waitForError((e) => e.tags?.request_id === requestId);
  const response = await request.get('/api/diagnostics/server-error', { headers: { 'x-request-id': requestId } });
  expect(response.status()).toBe(500);
  expect((await reported).exception?.values?.at(-1)?.value).toBe('Diagnostics: an exception thrown in an API route');
});
