import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFs } from 'next/dist/server/lib/node-fs-methods';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  decodeEntry,
  encodeEntry,
  isStale,
  keyPrefix,
  keySeconds,
  maxKeySeconds,
  redisAddress,
  seedCacheControl,
} from '../../src/server/pageCacheEntry.mjs';
import { startRedis, type Redis } from '../support/redis';

const page = (html: string) => ({ kind: 'PAGES', html, pageData: { generatedAt: html }, headers: {}, status: 200 });

describe('page cache entries', () => {
  it('survive the round trip through Redis, Buffers and Maps included', () => {
    const entry = {
      lastModified: 1_700_000_000_000,
      value: { kind: 'APP_PAGE', rscData: Buffer.from([0, 255, 1]), segmentData: new Map([['/a', Buffer.from('x')]]) },
      cacheControl: { revalidate: 60, expire: 31_536_000 },
    };
    expect(decodeEntry(encodeEntry(entry))).toEqual(entry);
    expect(decodeEntry(encodeEntry({ lastModified: 1, value: null }))).toEqual({
      lastModified: 1,
      value: null,
      cacheControl: undefined,
    });
  });

  it('read anything else under a key as a miss: corrupt, foreign, or of another format', () => {
    for (const text of ['', 'not json', '{"lastModified":1', 'null', '42', '"page"', '[]']) {
      expect(decodeEntry(text)).toBeUndefined();
    }
    expect(decodeEntry(JSON.stringify({ lastModified: 1, value: page('a') }))).toBeUndefined();
    expect(decodeEntry(JSON.stringify({ format: 2, lastModified: 1, value: page('a') }))).toBeUndefined();
    expect(decodeEntry(JSON.stringify({ format: 1, lastModified: 'yesterday', value: page('a') }))).toBeUndefined();
    expect(decodeEntry(JSON.stringify({ format: 1, lastModified: 1, value: { html: 'no kind' } }))).toBeUndefined();
  });

  it('live a day at most, or the page’s own shorter expiry', () => {
    expect(maxKeySeconds).toBe(86_400);
    expect(keySeconds(undefined)).toBe(86_400);
    expect(keySeconds({ revalidate: 60, expire: 31_536_000 })).toBe(86_400);
    expect(keySeconds({ revalidate: 60, expire: 300 })).toBe(300);
  });

  it('are stale once their revalidate seconds have passed, never without any', () => {
    const entry = { lastModified: 0, value: page('a'), cacheControl: { revalidate: 60, expire: undefined } };
    expect(isStale(entry, 60_000)).toBe(false);
    expect(isStale(entry, 60_001)).toBe(true);
    expect(isStale({ ...entry, cacheControl: { revalidate: false, expire: undefined } }, 1e12)).toBe(false);
    expect(isStale({ lastModified: 0, value: page('a') }, 1e12)).toBe(false);
  });

  it('are namespaced by the build id', () => {
    expect(keyPrefix('abc123')).toBe('next-page-cache:abc123:');
  });

  it('take a prerendered page’s lifetime from the prerender manifest', () => {
    const manifest = {
      routes: {
        '/examples/generated': { initialRevalidateSeconds: 60, initialExpireSeconds: 31_536_000 },
        '/': { initialRevalidateSeconds: false as const },
      },
    };
    expect(seedCacheControl(manifest, '/route-cache/PAGES/abc/$/examples/generated')).toEqual({
      revalidate: 60,
      expire: 31_536_000,
    });
    expect(seedCacheControl(manifest, '/route-cache/PAGES/abc/$/index')).toEqual({
      revalidate: false,
      expire: undefined,
    });
    expect(seedCacheControl(manifest, '/route-cache/PAGES/abc/$/examples/other')).toBeUndefined();
  });

  it('name Redis in log lines by host and port, never by user or password', () => {
    expect(redisAddress('redis://app:s3cret@cache.internal:6380/2')).toBe('redis://cache.internal:6380');
    expect(redisAddress('rediss://:s3cret@cache.internal')).toBe('rediss://cache.internal:6379');
  });
});

// The handler itself, against Debian's redis-server on loopback: what an instance of the app does with it.
describe('the shared page cache against a real Redis', () => {
  let redis: Redis;
  let distDir: string;
  const warnings: string[] = [];
  type Handler = typeof import('../../src/server/pageCache.mjs');
  let PageCacheHandler: Handler['default'];
  let callTimeoutMs: number;
  let pauseMs: number;
  const instance = () =>
    new PageCacheHandler({
      fs: nodeFs,
      serverDistDir: join(distDir, 'server'),
      revalidatedTags: [],
      _requestHeaders: {},
    });
  const ctx = { kind: 'PAGES', isFallback: false };
  const stored = (key: string) => redis.command('GET', `${keyPrefix('unit-build')}${key}`);

  beforeAll(async () => {
    redis = await startRedis();
    distDir = mkdtempSync(join(tmpdir(), 'page-cache-'));
    writeFileSync(join(distDir, 'BUILD_ID'), 'unit-build');
    writeFileSync(join(distDir, 'prerender-manifest.json'), JSON.stringify({ routes: {} }));
    vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line));
    vi.spyOn(console, 'info').mockImplementation(() => {});
    process.env.REDIS_URL = `redis://:not-in-logs@127.0.0.1:${redis.port}`;
    ({ default: PageCacheHandler, callTimeoutMs, pauseMs } = await import('../../src/server/pageCache.mjs'));
  });
  afterAll(async () => {
    delete process.env.REDIS_URL;
    await redis?.stop();
    rmSync(distDir, { recursive: true, force: true });
  });

  it('what one instance writes, another reads, under the build’s namespace', async () => {
    await instance().set('/route-cache/PAGES/x/$/shared', page('one'), {
      cacheControl: { revalidate: 60, expire: 31_536_000 },
    });
    const read = await instance().get('/route-cache/PAGES/x/$/shared', ctx);
    expect(read?.value).toEqual(page('one'));
    expect(read?.cacheControl).toEqual({ revalidate: 60, expire: 31_536_000 });
    expect(await stored('/route-cache/PAGES/x/$/shared')).toEqual(expect.any(String));
    // A day, less the seconds since the write.
    const ttl = Number(await redis.command('TTL', `${keyPrefix('unit-build')}/route-cache/PAGES/x/$/shared`));
    expect(ttl).toBeGreaterThan(86_400 - 10);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it('a corrupt or foreign value is a miss, not a crash, and it is said once', async () => {
    await redis.command('SET', `${keyPrefix('unit-build')}/corrupt`, '{"half a page');
    await redis.command('HSET', `${keyPrefix('unit-build')}/foreign`, 'field', 'value');
    warnings.length = 0;
    expect(await instance().get('/corrupt', ctx)).toBeNull();
    expect(await instance().get('/foreign', ctx)).toBeNull();
    expect(warnings).toEqual([
      expect.stringContaining('the value under /corrupt is not a page this app wrote'),
      expect.stringContaining('the value under /foreign is not a page this app wrote'),
    ]);
    // The page Next then renders replaces it.
    await instance().set('/foreign', page('fresh'), { cacheControl: { revalidate: 60, expire: undefined } });
    expect((await instance().get('/foreign', ctx))?.value).toEqual(page('fresh'));
  });

  it('one instance regenerates a stale page; the others serve it as it is meanwhile', async () => {
    const key = '/route-cache/PAGES/x/$/stale';
    const lastModified = Date.now() - 61_000;
    await redis.command(
      'SET',
      `${keyPrefix('unit-build')}${key}`,
      encodeEntry({ lastModified, value: page('old'), cacheControl: { revalidate: 60, expire: undefined } }),
    );
    const first = await instance().get(key, ctx);
    const second = await instance().get(key, ctx);
    expect(first?.lastModified).toBe(lastModified);
    expect(second?.value).toEqual(page('old'));
    expect(second!.lastModified).toBeGreaterThan(lastModified + 60_000);
    // Its write ends the regeneration: the next stale read may regenerate again.
    await instance().set(key, page('new'), { cacheControl: { revalidate: 60, expire: undefined } });
    expect(await redis.command('EXISTS', `${keyPrefix('unit-build')}lock:${key}`)).toBe(0);
  });

  it('a stopped Redis costs no request more than the call timeout; pages are kept per instance, shared again once it is back', async () => {
    await instance().set('/route-cache/PAGES/x/$/outage', page('before'), { cacheControl: undefined });
    warnings.length = 0;
    await redis.stop();
    const started = Date.now();
    expect((await instance().get('/route-cache/PAGES/x/$/outage', ctx))?.value ?? null).toBeNull();
    await instance().set('/route-cache/PAGES/x/$/outage', page('during'), { cacheControl: undefined });
    expect((await instance().get('/route-cache/PAGES/x/$/outage', ctx))?.value).toEqual(page('during'));
    expect(Date.now() - started).toBeLessThan(callTimeoutMs * 3);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(`Redis at redis://127.0.0.1:${redis.port} is unavailable`);
    expect(warnings[0]).not.toContain('not-in-logs');

    await redis.start();
    await vi.waitFor(async () => expect(await instance().get('/route-cache/PAGES/x/$/outage', ctx)).toBeNull(), {
      timeout: pauseMs * 3,
      interval: 100,
    });
    await instance().set('/route-cache/PAGES/x/$/outage', page('after'), { cacheControl: undefined });
    expect(JSON.parse(String(await stored('/route-cache/PAGES/x/$/outage'))).value).toEqual(page('after'));
  });

  it('a Redis that hangs holds one request for the call timeout, then none while it is left alone', async () => {
    await instance().set('/route-cache/PAGES/x/$/hang', page('before'), { cacheControl: undefined });
    redis.pause();
    try {
      let started = Date.now();
      await instance().get('/route-cache/PAGES/x/$/hang', ctx);
      const first = Date.now() - started;
      expect(first).toBeGreaterThanOrEqual(callTimeoutMs - 5);
      expect(first).toBeLessThan(callTimeoutMs * 3);
      started = Date.now();
      await instance().get('/route-cache/PAGES/x/$/hang', ctx);
      expect(Date.now() - started).toBeLessThan(callTimeoutMs / 2);
    } finally {
      redis.resume();
    }
  });
});
