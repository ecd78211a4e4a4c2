import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
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

/** A static file as it travels: its status, headers and bytes undecoded, asked for with `acceptEncoding`. */
function fetchRaw(url: string, acceptEncoding: string, method = 'GET', more: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      const request = get(url, { method, headers: { 'accept-encoding': acceptEncoding, ...more } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
      });
      request.on('error', reject);
    },
  );
}

test("a page's scripts and styles travel in brotli to a browser that takes it, in gzip to one that does not, alike", async ({
  page,
  baseURL,
}) => {
  const encodings = new Map<string, string | undefined>();
  page.on('response', async (response) => {
    const { pathname } = new URL(response.url());
    if (pathname.startsWith('/_next/static/'))
      encodings.set(pathname, (await response.allHeaders())['content-encoding']);
  });
  await page.goto('/examples');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const assets = [...encodings.keys()].filter((path) => /\.(?:js|css)$/.test(path));
  expect(assets.length).toBeGreaterThan(3);
  for (const path of assets) {
    const url = new URL(path, baseURL).href;
    const plain = await fetchRaw(url, 'identity');
    if (plain.body.length < 1024) continue; // Next compresses nothing smaller either
    // Chromium takes brotli, and every script and style of 1 KB or more reached it so.
    expect(encodings.get(path), path).toBe('br');
    const brotli = await fetchRaw(url, 'gzip, deflate, br');
    const gzip = await fetchRaw(url, 'gzip, br;q=0');
    expect([brotli.status, gzip.status, plain.status], path).toEqual([200, 200, 200]);
    expect(brotli.headers['content-encoding'], path).toBe('br');
    expect(gzip.headers['content-encoding'], path).toBe('gzip');
    expect(brotli.body.length, path).toBeLessThan(gzip.body.length);
    expect(brotliDecompressSync(brotli.body).equals(plain.body), path).toBe(true);
    expect(gunzipSync(gzip.body).equals(plain.body), path).toBe(true);
    for (const answer of [brotli, gzip, plain]) {
      expect(answer.headers['content-type'], path).toBe(plain.headers['content-type']);
      expect(answer.headers['cache-control'], path).toBe('public, max-age=31536000, immutable');
      expect(answer.headers.vary, path).toMatch(/Accept-Encoding/i);
    }
    // A HEAD says what a GET would send, and a cache revalidating its brotli copy hears that it still holds.
    const head = await fetchRaw(url, 'br', 'HEAD');
    expect(head.headers['content-length'], path).toBe(String(brotli.body.length));
    expect(head.headers.etag, path).toBe(brotli.headers.etag);
    expect(head.headers.etag, path).not.toBe(plain.headers.etag);
    const revalidated = await fetchRaw(url, 'br', 'GET', { 'if-none-match': String(brotli.headers.etag) });
    expect(revalidated.status, path).toBe(304);
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
