import { expect, test, type Page } from '@playwright/test';

// Spec §7: route scripts and stylesheets load from the static assets path; §8: loading errors
// (failed script or stylesheet, route time-out of 3800 ms) must not leave the user on a broken page.

test('scripts and stylesheets load from /_next/static/ with immutable cache headers', async ({ page, request }) => {
  await page.goto('/examples');
  const assets = await page.evaluate(() => [
    ...[...document.querySelectorAll<HTMLScriptElement>('script[src]')].map((s) => s.src),
    ...[...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].map((l) => l.href),
  ]);
  // Asset URLs carry Next's deployment token (`?dpl=<build id>`): compare paths.
  expect(assets.some((a) => new URL(a).pathname.endsWith('.css'))).toBe(true);
  for (const asset of assets) {
    const { pathname } = new URL(asset);
    expect(pathname).toMatch(/^\/_next\/static\//);
    const response = await request.get(pathname);
    expect(response.status(), pathname).toBe(200);
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  }
});

/** The script paths Next's build manifest lists for a route (requests add the `?dpl=` deployment token). */
async function routeScripts(page: Page, route: string): Promise<string[]> {
  return page.evaluate(async (r) => {
    const w = window as unknown as { __BUILD_MANIFEST?: Record<string, string[]> };
    for (let i = 0; i < 50 && !w.__BUILD_MANIFEST; i++) await new Promise((done) => setTimeout(done, 100));
    return (w.__BUILD_MANIFEST?.[r] ?? []).filter((f) => f.endsWith('.js')).map((f) => `/_next/${f}`);
  }, route);
}

for (const [failure, handle] of [
  ['fails to load', (route: import('@playwright/test').Route) => route.abort('failed')],
  [
    'does not complete within 3800 ms',
    async (route: import('@playwright/test').Route) => {
      await new Promise((done) => setTimeout(done, 6000));
      await route.continue().catch(() => undefined);
    },
  ],
] as const) {
  test(`when a route's script ${failure}, the user lands on the page through a full navigation`, async ({ page }) => {
    // A page with no link to the target, so that nothing prefetches the target's scripts before the test.
    await page.goto('/examples/announcer/titled');
    const scripts = await routeScripts(page, '/examples/new');
    expect(scripts.length).toBeGreaterThan(0);
    let intercepted = 0;
    // Only the first request fails; the full navigation that follows loads normally.
    await page.route(
      (url) => scripts.includes(url.pathname),
      (route) => (intercepted++ === 0 ? handle(route) : route.continue()),
    );
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const started = Date.now();
    // Not awaited in the page: a navigation that ends in a full one leaves push's promise pending, and the page with it.
    await page.evaluate(() => {
      void (window as unknown as { next: { router: { push(url: string): Promise<boolean> } } }).next.router.push(
        '/examples/new',
      );
    });
    await expect(page).toHaveURL(/\/examples\/new$/, { timeout: 10_000 });
    await expect(page.getByTestId('route')).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBeUndefined();
    expect(intercepted).toBeGreaterThan(0);
    if (failure !== 'fails to load') expect(Date.now() - started).toBeGreaterThanOrEqual(3800);
  });
}
