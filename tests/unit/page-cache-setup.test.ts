import { afterEach, describe, expect, it } from 'vitest';
import PageCacheHandler from '../../src/server/pageCache.mjs';
import { sharePageCache } from '../../src/server/startup';

// Where Next's IncrementalCache finds a cache handler when next.config names none
// (next/dist/server/lib/incremental-cache/index.js: `globalThis[Symbol.for('@next/cache-handlers')].FetchCache`).
const nextCacheHandlers = Symbol.for('@next/cache-handlers');
const handlers = () => (globalThis as Record<symbol, Record<string, unknown> | undefined>)[nextCacheHandlers];

afterEach(() => {
  delete (globalThis as Record<symbol, unknown>)[nextCacheHandlers];
});

describe('the shared page cache at start (issue 28)', () => {
  it('hands Next the shared page cache when REDIS_URL is set', async () => {
    await sharePageCache('redis://127.0.0.1:6379');
    expect(handlers()?.FetchCache).toBe(PageCacheHandler);
  });

  it('leaves Next its own filesystem cache when REDIS_URL is unset', async () => {
    await sharePageCache(undefined);
    expect(handlers()).toBeUndefined();
  });

  it('keeps the handlers a platform registered there for other caches', async () => {
    const DefaultCache = {};
    (globalThis as Record<symbol, unknown>)[nextCacheHandlers] = { DefaultCache };
    await sharePageCache('redis://127.0.0.1:6379');
    expect(handlers()).toEqual({ DefaultCache, FetchCache: PageCacheHandler });
  });
});
