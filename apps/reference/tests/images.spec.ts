import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Event } from '@sentry/core';
import { copyOfBuild, startInstance, type Instance } from '@web-foundation/testing/cluster';
import { e2eDistDir } from '@web-foundation/testing/env';
import { expect, test } from '@web-foundation/testing';

// Spec §9: image device widths and sizes, minimum cache TTL 60 s, output format webp.
const image = (width: number, url = '/hero.png') => `/_next/image?url=${encodeURIComponent(url)}&w=${width}&q=75`;
const webp = { accept: 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8' };

test('a page renders its image through the optimiser', async ({ page }) => {
  await page.goto('/examples');
  const img = page.getByRole('img', { name: 'A blue gradient' });
  await expect(img).toHaveAttribute('src', /^\/_next\/image\?url=%2Fhero\.png&w=\d+&q=75(&dpl=[\w-]+)?$/);
  expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
});

test('an allowed width answers webp to a browser that accepts it, cached for 60 s', async ({ request }) => {
  for (const width of [640, 750, 828, 1080, 1200, 1920, 2048, 3840, 16, 32, 48, 64, 96, 128, 256, 384]) {
    const response = await request.get(image(width), { headers: webp });
    expect(response.status(), `w=${width}`).toBe(200);
    expect(response.headers()['content-type']).toBe('image/webp');
  }
  const response = await request.get(image(16), { headers: webp });
  expect(response.headers()['cache-control']).toBe('public, max-age=60, must-revalidate');
});

test('a width in neither list and an external URL are refused with 400', async ({ request }) => {
  for (const width of [8, 100, 641, 4000]) {
    expect((await request.get(image(width), { headers: webp })).status(), `w=${width}`).toBe(400);
  }
  expect((await request.get(image(640, 'https://example.com/x.png'), { headers: webp })).status()).toBe(400);
});

test("a page's largest paint, its hero image, is discoverable in the HTML and fetched first", async ({ request }) => {
  const html = await (await request.get('/examples')).text();
  const hero = /<img alt="A blue gradient"[^>]*>/.exec(html)?.[0] ?? '';
  expect(hero).toContain('fetchPriority="high"');
  expect(hero).not.toContain('loading="lazy"');
  // One preload, itself at high priority, ahead of the page's content (React puts it first in the body).
  const preloads = html.match(/<link rel="preload" as="image"[^>]*>/g) ?? [];
  expect(preloads).toHaveLength(1);
  expect(preloads[0]).toContain('fetchPriority="high"');
  expect(html.indexOf(preloads[0]!)).toBeLessThan(html.indexOf('<div id="__next">'));
});

// Issue 44, point 6: Next renders any local source inside the image request (a page, page data, a redirect it answers
// 500 to), and keeps each spelling of a file as a cache entry of its own. An instance from a copy of the build of its
// own: its log and its image cache are this test's alone.
test.describe('the optimiser takes only the images of the build, each in one spelling', () => {
  test.describe.configure({ mode: 'serial' });
  const environment = `images-${Date.now().toString(36)}`;
  let copy: ReturnType<typeof copyOfBuild>;
  let instance: Instance;
  /** The optimiser's disk cache: a folder per entry (Next's image-optimizer.js, under <distDir>/cache/images). */
  const cacheFolder = () => join(copy.dir, e2eDistDir, 'cache', 'images');
  const cacheEntries = () => (existsSync(cacheFolder()) ? readdirSync(cacheFolder()).length : 0);
  test.beforeAll(async () => {
    test.setTimeout(60_000);
    copy = copyOfBuild(e2eDistDir);
    // The copy holds what the suite's own server converted so far.
    rmSync(cacheFolder(), { recursive: true, force: true });
    instance = await startInstance(e2eDistDir, copy.dir, { SENTRY_ENVIRONMENT: environment });
  });
  test.afterAll(async () => {
    await instance?.stop('SIGKILL');
    copy?.remove();
  });
  const get = async (source: string, width = 640) =>
    (await fetch(`${instance.origin}${image(width, source)}`, { headers: webp })).status;

  test('a source that redirects, is missing or is no image gets 400: no error event, no error line', async ({
    ingest,
  }) => {
    const { buildId } = await instance.health();
    for (const source of [
      '/hero.png/',
      '/examples/moved',
      '/nope.png',
      '/robots.txt',
      '/examples/generated',
      `/_next/data/${buildId}/examples/generated.json`,
    ]) {
      expect(await get(source), source).toBe(400);
    }
    await ingest.expectNone<Event>('event', (event) => event.environment === environment, { withinMs: 1000 });
    expect(instance.output()).not.toContain('"level":"error"');
  });

  test('twenty spellings of one image leave one entry in the image cache, and its other width one more', async () => {
    expect(await get('/hero.png')).toBe(200);
    const spellings = [
      ...Array.from({ length: 10 }, (_, i) => `/hero.png#v${i}`),
      ...['/%68ero.png', '/h%65ro.png', '/he%72o.png', '/her%6F.png', '/hero%2Epng'],
      ...['/hero.%70ng', '/hero.p%6Eg', '/hero.pn%67', '/%68%65ro.png', '/hero.png%00'],
    ];
    for (const spelling of spellings) expect(await get(spelling), spelling).toBe(400);
    expect(await get('/hero.png', 750)).toBe(200);
    await expect.poll(cacheEntries).toBe(2);
    test.info().annotations.push({
      type: `image cache entries after 1 + ${spellings.length} spellings + 1 other width`,
      description: String(cacheEntries()),
    });
  });
});
