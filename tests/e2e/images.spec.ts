import { expect, test } from '@playwright/test';

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
