import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFs } from 'next/dist/server/lib/node-fs-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PageCacheHandler, { diskPages } from '../../src/server/pageCache.mjs';

// Issue 36, point 5: without Redis, Next's filesystem cache wrote every page a fallback route generated (a made-up but
// valid slug each, about 12 KB in three files) and never removed one. Next's own writer, into a build of its own.
describe('the page cache without Redis: pages on disk are bounded, oldest first', () => {
  let distDir: string;
  const pagesDir = () => join(distDir, 'server', 'pages', 'examples', 'on-demand');
  const handler = () =>
    new PageCacheHandler({
      fs: nodeFs,
      serverDistDir: join(distDir, 'server'),
      flushToDisk: true,
      revalidatedTags: [],
      _requestHeaders: {},
    });
  const page = (slug: string) => ({
    kind: 'PAGES',
    html: `<html><body>${slug}</body></html>`,
    pageData: { pageProps: { slug } },
    headers: undefined,
    status: undefined,
  });
  const ctx = { isFallback: false, cacheControl: { revalidate: 60, expire: undefined } };

  beforeAll(() => {
    delete process.env.REDIS_URL;
    distDir = mkdtempSync(join(tmpdir(), 'page-cache-disk-'));
    writeFileSync(join(distDir, 'BUILD_ID'), 'unit-build');
    writeFileSync(
      join(distDir, 'prerender-manifest.json'),
      JSON.stringify({ routes: { '/examples/on-demand/first': {} }, dynamicRoutes: {} }),
    );
    // A page the build prerendered is never removed.
    mkdirSync(pagesDir(), { recursive: true });
    writeFileSync(join(pagesDir(), 'first.html'), 'built');
  });
  afterAll(() => rmSync(distDir, { recursive: true, force: true }));

  it(`keeps ${diskPages} generated pages at most, the build's own besides, and removes the oldest first`, async () => {
    const extra = 25;
    for (let i = 0; i < diskPages + extra; i++) {
      await handler().set(`/examples/on-demand/slug-${i}`, page(`slug-${i}`), ctx);
    }
    await handler().set('/examples/on-demand/first', page('first'), ctx);
    const files = readdirSync(pagesDir());
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(diskPages + 1);
    expect(files).toHaveLength(diskPages * 3 + 3);
    for (let i = 0; i < extra; i++) expect(existsSync(join(pagesDir(), `slug-${i}.html`))).toBe(false);
    for (const suffix of ['html', 'json', 'meta']) {
      expect(existsSync(join(pagesDir(), `slug-${extra}.${suffix}`))).toBe(true);
    }
    expect(existsSync(join(pagesDir(), 'first.html'))).toBe(true);
  });

  it('a page written again is the newest: the next to go is the oldest other one', async () => {
    await handler().set(`/examples/on-demand/slug-${diskPages - 1}`, page('again'), ctx);
    await handler().set(`/examples/on-demand/slug-${diskPages - 1}`, page('again'), ctx);
    await handler().set('/examples/on-demand/one-more', page('one-more'), ctx);
    expect(existsSync(join(pagesDir(), `slug-25.html`))).toBe(false);
    expect(existsSync(join(pagesDir(), `slug-26.html`))).toBe(true);
  });
});
