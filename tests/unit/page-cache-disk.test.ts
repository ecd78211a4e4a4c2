import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFs } from 'next/dist/server/lib/node-fs-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PageCacheHandler from '../../packages/foundation/src/server/pageCache/handler';
import { diskPages } from '../../packages/foundation/src/server/pageCache/diskBound';

// Issue 36, point 5: without Redis, Next's filesystem cache wrote every page a fallback route generated (a made-up but
// valid slug each, about 12 KB in three files) and never removed one. Next's own writer, into a build of its own, under
// the keys Next 16 gives a page of the route /examples/on-demand/[slug] (its route cache).
describe('the page cache without Redis: pages on disk are bounded, oldest first', () => {
  let distDir: string;
  const routeCache = '/route-cache/PAGES/a95149416c43cec72fcd00e9670b4feb1d8c7240624eb0cae4cc75fbb5d67151/$';
  const key = (slug: string) => `${routeCache}/examples/on-demand/${slug}`;
  const pagesDir = () => join(distDir, 'server', ...routeCache.split('/'), 'examples', 'on-demand');
  const builtDir = () => join(distDir, 'server', 'pages', 'examples', 'on-demand');
  /** A server started anew: what it knows of the disk is what it finds there. */
  const restart = () => delete (globalThis as Record<symbol, unknown>)[Symbol.for('app.pageCache.disk')];
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
      JSON.stringify({
        routes: { '/examples/on-demand/first': {} },
        dynamicRoutes: { '/examples/on-demand/[slug]': {} },
      }),
    );
    // A page the build prerendered is never removed, nor its regenerated copy, nor the route's fallback shell.
    mkdirSync(builtDir(), { recursive: true });
    writeFileSync(join(builtDir(), 'first.html'), 'built');
  });
  afterAll(() => rmSync(distDir, { recursive: true, force: true }));

  it(`keeps ${diskPages} generated pages at most, the build's own besides, and removes the oldest first`, async () => {
    const extra = 25;
    for (let i = 0; i < diskPages + extra; i++) {
      await handler().set(key(`slug-${i}`), page(`slug-${i}`), ctx);
    }
    await handler().set(key('first'), page('first'), ctx);
    await handler().set(key('[slug]'), page('the fallback shell'), ctx);
    const files = readdirSync(pagesDir());
    expect(files.filter((f) => f.endsWith('.html'))).toHaveLength(diskPages + 2);
    expect(files).toHaveLength(diskPages * 3 + 6);
    for (let i = 0; i < extra; i++) expect(existsSync(join(pagesDir(), `slug-${i}.html`))).toBe(false);
    for (const suffix of ['html', 'json', 'meta']) {
      expect(existsSync(join(pagesDir(), `slug-${extra}.${suffix}`))).toBe(true);
    }
    expect(existsSync(join(pagesDir(), 'first.html'))).toBe(true);
    expect(existsSync(join(builtDir(), 'first.html'))).toBe(true);
  });

  it('a page written again is the newest: the next to go is the oldest other one', async () => {
    await handler().set(key(`slug-${diskPages - 1}`), page('again'), ctx);
    await handler().set(key(`slug-${diskPages - 1}`), page('again'), ctx);
    await handler().set(key('one-more'), page('one-more'), ctx);
    expect(existsSync(join(pagesDir(), `slug-25.html`))).toBe(false);
    expect(existsSync(join(pagesDir(), `slug-26.html`))).toBe(true);
  });

  it('after a restart, the pages written before count, and the oldest of them go first', async () => {
    // Their files' times as a server long gone left them: slug-26 the oldest, then in order.
    const before = readdirSync(pagesDir()).filter((f) => f.startsWith('slug-') && f.endsWith('.html'));
    expect(before).toHaveLength(diskPages - 1);
    for (const file of before) {
      const seconds = 1_000_000 + Number(/^slug-(\d+)/.exec(file)![1]);
      utimesSync(join(pagesDir(), file), seconds, seconds);
    }
    restart();
    for (let i = 0; i < 10; i++) await handler().set(key(`after-restart-${i}`), page(`after-restart-${i}`), ctx);
    expect(readdirSync(pagesDir()).filter((f) => f.endsWith('.html'))).toHaveLength(diskPages + 2);
    for (let i = 26; i <= 35; i++) expect(existsSync(join(pagesDir(), `slug-${i}.html`))).toBe(false);
    expect(existsSync(join(pagesDir(), 'slug-36.html'))).toBe(true);
    expect(existsSync(join(pagesDir(), 'after-restart-0.html'))).toBe(true);
    expect(existsSync(join(pagesDir(), 'first.html'))).toBe(true);
    expect(existsSync(join(pagesDir(), '[slug].html'))).toBe(true);
  });
});
