import { firstException } from '../support/ingest';
import { expect, test } from './fixtures';

// Issue 24: the first step of docs/build-your-product.md, whose files `npm test` copies from
// examples/build-your-product into the app the tests build (tests/support/test-app.mjs). A newcomer's new page and API
// route are served, traced, and their errors reported, exactly as the guide says.
test('the guide’s new pages and API route are served, traced and reported', async ({ page, ingest }) => {
  const requestIdOf = (headers: Record<string, string>) => headers['x-request-id'];
  const tracedAs = async (requestId: string | undefined) =>
    (await ingest.waitForTransaction((e) => e.tags?.request_id === requestId, { from: 'test start' })).transaction;

  // The getServerSideProps page, in the browser.
  const hello = await page.goto('/hello');
  expect(hello?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Hello from the server' })).toBeVisible();
  expect(await tracedAs(requestIdOf(hello!.headers()))).toBe('GET /hello');

  // The API route.
  const api = await page.request.get('/api/hello');
  expect(api.status()).toBe(200);
  expect(await api.json()).toEqual({ greeting: 'Hello from the API' });
  expect(await tracedAs(requestIdOf(api.headers()))).toBe('GET /api/hello');

  // The getStaticProps page, built at build time.
  const built = await page.goto('/hello-static');
  expect(built?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: /^Built at / })).toBeVisible();

  // The guide's error: the page's 500, and the event in Sentry with the request's id.
  const failed = await page.request.get('/hello?fail=1');
  expect(failed.status()).toBe(500);
  const error = await ingest.waitForError((e) => e.tags?.request_id === requestIdOf(failed.headers()), {
    from: 'test start',
  });
  expect(firstException(error)).toBe('Hello failed on purpose');
});
