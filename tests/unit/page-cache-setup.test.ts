import { afterEach, describe, expect, it } from 'vitest';
import PageCacheHandler from '../../packages/foundation/src/server/pageCache/handler';
import { handPageCacheToNext } from '../../packages/foundation/src/server/startup';

// Where Next's IncrementalCache finds a cache handler when next.config names none
// (next/dist/server/lib/incremental-cache/index.js: `globalThis[Symbol.for('@next/cache-handlers')].FetchCache`).
const nextCacheHandlers = Symbol.for('@next/cache-handlers');
const handlers = () => (globalThis as Record<symbol, Record<string, unknown> | undefined>)[nextCacheHandlers];

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[nextCacheHandlers];
});

describe('the shared page cache at start (issue 28)', () => {
  it('hands Next the page cache, with or without REDIS_URL (without it, the disk is bounded: issue 36)', async () => {
    await handPageCacheToNext();
    expect(handlers()?.FetchCache).toBe(PageCacheHandler);
  });

  it('keeps the handlers a platform registered there for other caches', async () => {
    const DefaultCache = {};
    (globalThis as Record<symbol, unknown>)[nextCacheHandlers] = { DefaultCache };
    await handPageCacheToNext();
    expect(handlers()).toEqual({ DefaultCache, FetchCache: PageCacheHandler });
  });
});
