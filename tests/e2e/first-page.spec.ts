import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startInstance } from '../support/cluster';
import { e2eDistDir, guideServerDir } from '../support/e2e-env.mjs';
import { firstException } from '../support/ingest';
import { expect, test } from './fixtures';

// Issue 24: the first step of docs/build-your-product.md, built by `npm test` into a throwaway copy of the app from the
// guide's own code (tests/support/first-page.mjs). A newcomer's new page and API route are served, traced, and their
// errors reported, exactly as the guide says.
const serverDir = guideServerDir;

test('the guide’s new pages and API route, added to a copy of the app, are served, traced and reported', async ({
  page,
  ingest,
  since,
}) => {
  if (!existsSync(join(serverDir, 'server.js'))) {
    throw new Error(`No build of the guide's first page in ${serverDir}: run node tests/support/first-page.mjs first.`);
  }
  // The guide's product requires its settings (section 4a): step 1's pages call neither, so no backend answers here.
  const app = await startInstance(e2eDistDir, serverDir, {
    BACKEND_URL: 'http://127.0.0.1:9',
    DATABASE_URL: 'postgres://app@127.0.0.1:9/none',
  });
  try {
    const requestIdOf = (headers: Record<string, string>) => headers['x-request-id'];
    const tracedAs = async (requestId: string | undefined) =>
      (await ingest.waitForTransaction((e) => e.tags?.request_id === requestId, { since })).transaction;

    // The getServerSideProps page, in the browser.
    const hello = await page.goto(`${app.origin}/hello`);
    expect(hello?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Hello from the server' })).toBeVisible();
    expect(await tracedAs(requestIdOf(hello!.headers()))).toBe('GET /hello');

    // The API route.
    const api = await page.request.get(`${app.origin}/api/hello`);
    expect(api.status()).toBe(200);
    expect(await api.json()).toEqual({ greeting: 'Hello from the API' });
    expect(await tracedAs(requestIdOf(api.headers()))).toBe('GET /api/hello');

    // The getStaticProps page, built at build time.
    const built = await page.goto(`${app.origin}/hello-static`);
    expect(built?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: /^Built at / })).toBeVisible();

    // The guide's error: the page's 500, and the event in Sentry with the request's id.
    const failed = await page.request.get(`${app.origin}/hello?fail=1`);
    expect(failed.status()).toBe(500);
    const error = await ingest.waitForError((e) => e.tags?.request_id === requestIdOf(failed.headers()), { since });
    expect(firstException(error)).toBe('Hello failed on purpose');
  } finally {
    await app.stop();
  }
});
