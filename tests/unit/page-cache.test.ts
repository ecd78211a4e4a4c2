import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { nodeFs } from 'next/dist/server/lib/node-fs-methods';
import { RedisClient } from '@redis/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  decodeEntry,
  encodeEntry,
  isStale,
  keyPrefix,
  keySeconds,
  lockKey,
  maxClockSkewMs,
  maxEntryChars,
  maxKeySeconds,
  pageKey,
} from '../../packages/foundation/src/server/pageCache/entry';
import { keyNamespace, parseRedisUrl } from '../../packages/foundation/src/config/redis.mts';
import { parseSettings } from '../../packages/foundation/src/config/settings.mts';
import { recordPageCacheWrite, renderedItself } from '../../packages/foundation/src/server/revalidationWrites';
import { startRedis, type Redis } from '@web-foundation/testing/services';

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

  it('read from Redis are checked before use: a hostile value is refused, not served', () => {
    const now = 1_800_000_000_000;
    const entry = { lastModified: now, value: page('a'), cacheControl: { revalidate: 60, expire: 31_536_000 } };
    const text = encodeEntry(entry);
    expect(decodeEntry(text, now)).toEqual(entry);
    const refused = (changed: Record<string, unknown>) =>
      decodeEntry(JSON.stringify({ ...JSON.parse(text), ...changed }), now);
    // Dated ahead of every clock: it would never go stale. A little skew between instances is fine.
    expect(refused({ lastModified: now + maxClockSkewMs + 1 })).toBeUndefined();
    expect(refused({ lastModified: now + maxClockSkewMs })).toBeDefined();
    expect(refused({ lastModified: 8.64e15 })).toBeUndefined();
    // Cache tags, or any field this app never writes; a kind Next does not have.
    expect(refused({ tags: ['_N_T_/layout'] })).toBeUndefined();
    expect(refused({ value: { ...page('a'), kind: 'SCRIPT' } })).toBeUndefined();
    // A lifetime no page has, or of the wrong type.
    expect(refused({ cacheControl: { revalidate: 1e12, expire: undefined } })).toBeUndefined();
    expect(refused({ cacheControl: { revalidate: -1, expire: undefined } })).toBeUndefined();
    expect(refused({ cacheControl: { revalidate: '60', expire: undefined } })).toBeUndefined();
    expect(refused({ cacheControl: { revalidate: false } })).toBeDefined();
    // Larger than an entry may be: refused before it is parsed.
    const huge = JSON.stringify({ ...JSON.parse(text), value: page('x'.repeat(maxEntryChars)) });
    const parse = vi.spyOn(JSON, 'parse');
    expect(decodeEntry(huge, now)).toBeUndefined();
    expect(parse).not.toHaveBeenCalled();
    parse.mockRestore();
  });

  it('are written with their three fields only, whatever else the entry holds', () => {
    const written = JSON.parse(encodeEntry({ lastModified: 1, value: page('a'), isStale: true } as never));
    expect(Object.keys(written).sort()).toEqual(['format', 'lastModified', 'value']);
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

  it('are namespaced by the deployment and the build id', () => {
    expect(keyPrefix('production', 'abc123')).toBe('production:next-page-cache:abc123:');
    // REDIS_KEY_PREFIX, else the environment the server reports as: staging and production never share a key.
    // The environment as the server's settings settle it, the build's inlined one included.
    const namespace = (env: Record<string, string>, build = {}) =>
      parseSettings({ REDIS_URL: 'redis://r', ...env }, build).redisKeyNamespace;
    expect(namespace({})).toBe('production');
    expect(namespace({ NEXT_PUBLIC_SENTRY_ENVIRONMENT: 'preview' })).toBe('preview');
    expect(namespace({}, { environment: 'preview' })).toBe('preview');
    expect(namespace({ SENTRY_ENVIRONMENT: 'staging', NEXT_PUBLIC_SENTRY_ENVIRONMENT: 'preview' })).toBe('staging');
    expect(namespace({ REDIS_KEY_PREFIX: 'shop:eu', SENTRY_ENVIRONMENT: 'staging' })).toBe('shop:eu');
    expect(keyNamespace({ REDIS_KEY_PREFIX: 'two words' }, 'production')).toBeUndefined();
    expect(keyNamespace({}, 'x'.repeat(65))).toBeUndefined();
  });
});

describe("a revalidation's own render", () => {
  it('is told from one it joined by where the page cache was written from', async () => {
    // A regeneration that started before the revalidation: Next hands the revalidation its promise.
    const running = new Promise<void>((done) => setTimeout(() => (recordPageCacheWrite(), done()), 10));
    expect(await renderedItself(() => running)).toBe(false);
    // Its own render: Next schedules the write on a later tick (its batcher), in the revalidation's context.
    const own = () => new Promise<void>((done) => process.nextTick(() => (recordPageCacheWrite(), done())));
    expect(await renderedItself(own)).toBe(true);
  });
});

describe('REDIS_URL, read as the Redis client reads it', () => {
  it('names Redis in log lines by host and port, never by user or password', () => {
    expect(parseRedisUrl('redis://app:s3cret@cache.internal:6380/2')).toEqual({
      address: 'redis://cache.internal:6380',
    });
    expect(parseRedisUrl('rediss://:s3cret@cache.internal')).toEqual({ address: 'rediss://cache.internal:6379' });
  });

  // Every URL we accept, the client accepts and connects with as we name it; every URL it refuses, we refuse.
  const urls = [
    'redis://127.0.0.1:6379',
    'redis://:pw@cache:6380/0',
    'rediss://app:pw@cache.internal/15',
    'redis://[::1]:6379',
    'redis://:p%40ss@cache',
    'redis://:pw@host:6379/pages',
    'redis://:pw@host:6379/1.5',
    'redis://:pw@host:6379/-1',
    'redis://host:0',
    'redis://host:99999',
    'redis://:%zz@host',
    'http://:pw@host',
    'redis://',
    'redis://:pw@',
    'host:6379',
    'not a url',
  ];
  it.each(urls)('%s', (url) => {
    const ours = parseRedisUrl(url);
    let theirs: ReturnType<typeof RedisClient.parseURL> | undefined;
    try {
      theirs = RedisClient.parseURL(url);
    } catch {
      theirs = undefined;
    }
    if ('address' in ours) {
      expect(theirs, 'the client refuses a URL we accept').toBeDefined();
      const { hostname, port } = new URL(url);
      const socket = theirs!.socket as { port?: number };
      expect(ours.address).toContain(`${hostname}:${socket.port ?? 6379}`);
      expect(port === '' || Number(port) === socket.port).toBe(true);
      expect(Number.isInteger(theirs!.database ?? 0) && (theirs!.database ?? 0) >= 0).toBe(true);
    } else {
      // Refused by the client, or accepted by it only to fail every command (SELECT of a database that is no number).
      expect(ours.problem).toMatch(/\w/);
      expect(ours.problem).not.toMatch(/pw|%zz/);
    }
  });
});

// The handler itself, against Debian's redis-server on loopback: what an instance of the app does with it.
describe('the shared page cache against a real Redis', () => {
  let redis: Redis;
  let distDir: string;
  const warnings: string[] = [];
  /** Every warning since the first connection, never cleared. */
  const allWarnings: string[] = [];
  type Handler = typeof import('../../packages/foundation/src/server/pageCache/handler');
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
  const stored = (key: string) => redis.command('GET', pageKey(keyPrefix('unit', 'unit-build'), key));

  beforeAll(async () => {
    redis = await startRedis();
    distDir = mkdtempSync(join(tmpdir(), 'page-cache-'));
    writeFileSync(join(distDir, 'BUILD_ID'), 'unit-build');
    writeFileSync(join(distDir, 'prerender-manifest.json'), JSON.stringify({ routes: {} }));
    vi.spyOn(console, 'warn').mockImplementation((line: string) => {
      warnings.push(line);
      allWarnings.push(line);
    });
    vi.spyOn(console, 'info').mockImplementation(() => {});
    // The handler reads them through serverEnv(), once per test file (Vitest gives each file its own modules).
    process.env.REDIS_URL = `redis://:not-in-logs@127.0.0.1:${redis.port}`;
    process.env.REDIS_KEY_PREFIX = 'unit';
    ({ default: PageCacheHandler } = await import('../../packages/foundation/src/server/pageCache/handler'));
    ({ callTimeoutMs, pauseMs } = await import('../../packages/foundation/src/server/pageCache/redisConnection'));
  });
  afterAll(async () => {
    delete process.env.REDIS_URL;
    delete process.env.REDIS_KEY_PREFIX;
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
    const ttl = Number(
      await redis.command('TTL', pageKey(keyPrefix('unit', 'unit-build'), '/route-cache/PAGES/x/$/shared')),
    );
    expect(ttl).toBeGreaterThan(86_400 - 10);
    expect(ttl).toBeLessThanOrEqual(86_400);
  });

  it('a corrupt or foreign value is a miss, not a crash, and it is said once', async () => {
    await redis.command('SET', pageKey(keyPrefix('unit', 'unit-build'), '/corrupt'), '{"half a page');
    await redis.command('HSET', pageKey(keyPrefix('unit', 'unit-build'), '/foreign'), 'field', 'value');
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
      pageKey(keyPrefix('unit', 'unit-build'), key),
      encodeEntry({ lastModified, value: page('old'), cacheControl: { revalidate: 60, expire: undefined } }),
    );
    const first = await instance().get(key, ctx);
    const second = await instance().get(key, ctx);
    expect(first?.lastModified).toBe(lastModified);
    expect(second?.value).toEqual(page('old'));
    expect(second!.lastModified).toBeGreaterThan(lastModified + 60_000);
    // Its write ends the regeneration: the next stale read may regenerate again.
    await instance().set(key, page('new'), { cacheControl: { revalidate: 60, expire: undefined } });
    expect(await redis.command('EXISTS', lockKey(keyPrefix('unit', 'unit-build'), key))).toBe(0);
  });

  it('a Redis that would grow without bound or refuse new pages is said once, at the first connection', async () => {
    // This Redis runs with its defaults: no maxmemory, noeviction.
    await vi.waitFor(() =>
      expect(allWarnings.filter((line) => line.includes('memory') || line.includes('evicts'))).toEqual([
        `Page cache: Redis at redis://127.0.0.1:${redis.port} has no maxmemory, so it keeps every page until it expires and grows without bound, and evicts nothing (noeviction), so once full it refuses new pages. Run it as a cache: maxmemory <size> and maxmemory-policy allkeys-lru (docs/scaling-out.md).`,
      ]),
    );
  });

  it('a page that is not found, or too large to share, writes nothing: what was under its key goes', async () => {
    const key = '/route-cache/PAGES/x/$/gone';
    await instance().set(key, page('was here'), { cacheControl: { revalidate: 60, expire: undefined } });
    await instance().set(key, null, { cacheControl: { revalidate: 60, expire: undefined } });
    expect(await stored(key)).toBeNull();
    const before = Number(await redis.command('DBSIZE'));
    await instance().set('/route-cache/PAGES/x/$/made-up', null, { cacheControl: undefined });
    expect(Number(await redis.command('DBSIZE'))).toBe(before);

    warnings.length = 0;
    await instance().set(key, page('x'.repeat(maxEntryChars)), { cacheControl: undefined });
    expect(await stored(key)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining(`more than the ${maxEntryChars} shared through Redis`)]);
  });

  it('a value dated in the future is not served: it is replaced', async () => {
    const key = '/future';
    const frozen = { lastModified: Date.now() + 365 * 86_400_000, value: page('frozen'), cacheControl: undefined };
    await redis.command('SET', pageKey(keyPrefix('unit', 'unit-build'), key), encodeEntry(frozen));
    warnings.length = 0;
    expect(await instance().get(key, ctx)).toBeNull();
    expect(warnings).toEqual([expect.stringContaining('the value under /future is not a page this app wrote')]);
  });

  for (const { fault, refuse, restore, reason } of [
    {
      fault: 'out of memory (noeviction)',
      refuse: () => redis.command('CONFIG', 'SET', 'maxmemory', '1'),
      restore: () => redis.command('CONFIG', 'SET', 'maxmemory', '0'),
      reason: /OOM command not allowed/,
    },
    {
      fault: 'a read-only replica',
      // A replica of a primary that is not there: it answers reads and refuses writes, as after a failover.
      refuse: () => redis.command('REPLICAOF', '127.0.0.1', '1'),
      restore: () => redis.command('REPLICAOF', 'NO', 'ONE'),
      reason: /READONLY/,
    },
  ]) {
    it(`a write Redis answers with an error (${fault}) is a failed write, said once, until one succeeds`, async () => {
      const shared = (globalThis as Record<symbol, { failedWrites: number; refusingWritesSince?: number }>)[
        Symbol.for('app.pageCache.redis')
      ]!;
      const key = '/route-cache/PAGES/x/$/refused';
      await instance().set(key, page('before'), { cacheControl: undefined });
      const failed = shared.failedWrites;
      warnings.length = 0;
      await refuse();
      try {
        await instance().set(key, page('after'), { cacheControl: undefined });
        await instance().set(key, page('again'), { cacheControl: undefined });
        expect(shared.failedWrites).toBe(failed + 2);
        expect(shared.refusingWritesSince).toEqual(expect.any(Number));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(reason);
        expect(warnings[0]).toContain(`Redis at redis://127.0.0.1:${redis.port} refused a write`);
        // The page under the key is still the old one: nothing pretends otherwise.
        expect(JSON.parse(String(await stored(key))).value).toEqual(page('before'));
      } finally {
        await restore();
      }
      await instance().set(key, page('shared again'), { cacheControl: undefined });
      expect(shared.failedWrites).toBe(failed + 2);
      expect(shared.refusingWritesSince).toBeUndefined();
      expect(JSON.parse(String(await stored(key))).value).toEqual(page('shared again'));
    });
  }

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
