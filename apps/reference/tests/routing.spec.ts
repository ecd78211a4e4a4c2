import { expect, test, type Page } from '@playwright/test';

// Spec §2 dynamic routes and specificity; §4 and §7 page data.

/** Marks the current document, so a test can tell a client-side navigation from a full page load. */
async function markDocument(page: Page) {
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
}
const isSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

test('a dynamic segment is matched and its value filled in, on the server and after navigation', async ({
  page,
  request,
}) => {
  expect(await (await request.get('/examples/abc-123')).text()).toContain('abc-123');
  await page.goto('/examples');
  await page.getByRole('link', { name: /A dynamic segment/ }).click();
  await expect(page.getByTestId('segment')).toHaveText('42');
});

test('the static route /examples/new beats /examples/[id]', async ({ page }) => {
  await page.goto('/examples/new');
  await expect(page.getByTestId('route')).toContainText('/examples/new is a static route');
  await expect(page.getByTestId('segment')).toHaveCount(0);
});

test('the catch-all route receives every segment', async ({ page }) => {
  await page.goto('/examples/docs/guides/routing/intro%20page');
  await expect(page.getByTestId('segments').getByRole('listitem')).toHaveText(['guides', 'routing', 'intro page']);
});

test('client-side navigation fetches page data with GET from the build-specific data path', async ({ page }) => {
  // Link prefetching may fetch it before the click and the router reuses that answer: count both.
  const dataRequests: import('@playwright/test').Request[] = [];
  page.on('request', (r) => new URL(r.url()).pathname.endsWith('/examples/42.json') && dataRequests.push(r));
  await page.goto('/examples');
  const buildId = await page.evaluate(
    () => (window as unknown as { __NEXT_DATA__: { buildId: string } }).__NEXT_DATA__.buildId,
  );
  await markDocument(page);
  await page.getByRole('link', { name: /A dynamic segment/ }).click();
  await expect(page.getByTestId('segment')).toHaveText('42');
  expect(await isSameDocument(page)).toBe(true);
  expect(dataRequests.length).toBeGreaterThan(0);
  for (const request of dataRequests) {
    expect(request.method()).toBe('GET');
    expect(new URL(request.url()).pathname).toBe(`/_next/data/${buildId}/examples/42.json`);
    expect(request.headers()['x-nextjs-data']).toBe('1');
  }
});

for (const [failure, handle] of [
  ['answers 404', (route: import('@playwright/test').Route) => route.fulfill({ status: 404, body: '{}' })],
  ['drops the connection', (route: import('@playwright/test').Route) => route.abort('connectionreset')],
] as const) {
  test(`when the page-data fetch ${failure}, a full-page navigation still lands the user on the page`, async ({
    page,
  }) => {
    await page.route('**/_next/data/**', handle);
    await page.goto('/examples');
    await markDocument(page);
    await page.getByRole('link', { name: /A dynamic segment/ }).click();
    await expect(page).toHaveURL(/\/examples\/42$/);
    await expect(page.getByTestId('segment')).toHaveText('42');
    expect(await isSameDocument(page)).toBe(false);
  });
}

test('after navigating to a getStaticProps page, the router checks for a newer version with HEAD', async ({ page }) => {
  const dataRequests: import('@playwright/test').Request[] = [];
  page.on('request', (r) => new URL(r.url()).pathname.endsWith('/examples/generated.json') && dataRequests.push(r));
  await page.goto('/examples');
  const buildId = await page.evaluate(
    () => (window as unknown as { __NEXT_DATA__: { buildId: string } }).__NEXT_DATA__.buildId,
  );
  await page.getByRole('link', { name: /generated at build time/ }).click();
  await expect(page.getByTestId('generated-at')).toBeVisible();
  await expect.poll(() => dataRequests.map((r) => r.method())).toContain('HEAD');
  for (const request of dataRequests) {
    expect(['GET', 'HEAD']).toContain(request.method());
    expect(new URL(request.url()).pathname).toBe(`/_next/data/${buildId}/examples/generated.json`);
  }
  expect(dataRequests.map((r) => r.method())).toContain('GET');
});
