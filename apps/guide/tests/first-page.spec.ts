import { firstException } from '@web-foundation/testing/ingest';
import { expect, gotoWithRequestId, test } from '@web-foundation/testing';

// Issue 24: the first step of docs/build-your-product.md, in the guide's app (apps/guide) as `npm test` builds and
// serves it. A newcomer's new page and API route are served, traced, and their errors reported, exactly as the guide
// says.
test('the guide’s new pages and API route are served, traced and reported', async ({ page, ingest }) => {
  // Each request is sent with an id of the test's own, so that the wait for what it reports is created before it.
  const ofRequest = (requestId: string) => (e: { tags?: Record<string, unknown> }) => e.tags?.request_id === requestId;

  // The getServerSideProps page, in the browser.
  const helloId = crypto.randomUUID();
  const helloTraced = ingest.waitForTransaction(ofRequest(helloId));
  const hello = await gotoWithRequestId(page, '/hello', helloId);
  expect(hello?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Hello from the server' })).toBeVisible();
  expect((await helloTraced).transaction).toBe('GET /hello');

  // The API route.
  const apiId = crypto.randomUUID();
  const apiTraced = ingest.waitForTransaction(ofRequest(apiId));
  const api = await page.request.get('/api/hello', { headers: { 'x-request-id': apiId } });
  expect(api.status()).toBe(200);
  expect(await api.json()).toEqual({ greeting: 'Hello from the API' });
  expect((await apiTraced).transaction).toBe('GET /api/hello');

  // The getStaticProps page, built at build time.
  const built = await page.goto('/hello-static');
  expect(built?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: /^Built at / })).toBeVisible();

  // The guide's error: the page's 500, and the event in Sentry with the request's id.
  const failedId = crypto.randomUUID();
  const reported = ingest.waitForError(ofRequest(failedId));
  const failed = await page.request.get('/hello?fail=1', { headers: { 'x-request-id': failedId } });
  expect(failed.status()).toBe(500);
  const error = await reported;
  expect(firstException(error)).toBe('Hello failed on purpose');
});
