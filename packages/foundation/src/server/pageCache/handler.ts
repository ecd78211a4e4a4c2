// Next's cache handler for getStaticProps pages: which store serves each get and set; each store's work is beside it.
import { ErrorReply } from '@redis/client';
import type { CacheHandlerContext } from 'next/dist/server/lib/incremental-cache';
import fileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js';
import type { Span } from '@sentry/nextjs';
import type { CacheSpan } from '../../observability/server/cacheSpans';
import { cacheSpan, processGlobals } from '../../processGlobals.mts';
import {
  decodeEntry,
  encodeEntry,
  isStale,
  keySeconds,
  lockKey,
  maxEntryChars,
  pageKey,
  type StoredEntry,
} from './entry';
import { boundDisk, diskFor, type CallContext, type Files } from './diskBound';
import { keepOwnCopy } from './ownCopy';
import { call, type Command, redisFor, type SharedRedis, write } from './redisConnection';
import { recordPageCacheWrite } from '../revalidationWrites';
import { runningNextBuild } from '../../config/settings.mts';

type FileSystemCacheClass = new (ctx: CacheHandlerContext) => Files;
const fileSystemCache = fileSystemCacheModule as unknown as FileSystemCacheClass & { default?: FileSystemCacheClass };
// Node reads the CommonJS module's exports here (the unit tests); Turbopack, which bundles this file, its default.
const FileSystemCache = fileSystemCache.default ?? fileSystemCache;

/** How long one instance may take to regenerate a stale page before another may try. */
const regenerationLockMs = 30_000;

/** The span's wrapper on globalThis (packages/foundation/src/processGlobals.mts), with its type. */
const globals = processGlobals as typeof processGlobals & { [cacheSpan]?: CacheSpan };

/**
 * Sentry's Caches view reads these spans (packages/foundation/src/observability/server/cacheSpans.ts); without
 * reporting, the work runs bare.
 */
function traced<T>(
  op: 'cache.get' | 'cache.put',
  key: string,
  work: (span: Span | undefined) => Promise<T>,
): Promise<T> {
  const span = globals[cacheSpan];
  return span ? span(op, key, work) : work(undefined);
}

/**
 * Next's incremental cache (pages with getStaticProps and their data), shared by every instance through one Redis. The
 * server hands it to Next at start (packages/foundation/src/server/startup.ts); without Redis it is Next's own
 * filesystem cache, with a bound on the pages it keeps on disk. Why our own handler and what it does when Redis fails:
 * docs/scaling-out.md.
 */
export default class PageCacheHandler {
  readonly redis: SharedRedis | undefined;
  readonly files: Files;
  readonly serverDistDir: string | undefined;

  constructor(ctx: CacheHandlerContext) {
    this.redis = redisFor(ctx);
    // Without Redis: Next's own cache. With it: the build's fallback shells, read once per build into Redis.
    this.files = new FileSystemCache(this.redis ? { ...ctx, flushToDisk: false, maxMemoryCacheSize: 0 } : ctx);
    // The build writes its own pages where they belong; a running server's, without Redis, are bounded.
    this.serverDistDir = ctx.dev || runningNextBuild() ? undefined : ctx.serverDistDir;
  }

  async get(key: string, ctx: CallContext): Promise<StoredEntry | null> {
    const redis = this.redis;
    if (!redis) return this.files.get(key, ctx);
    return traced('cache.get', key, async (span) => {
      const found = await this.#read(redis, key, ctx);
      span?.setAttribute('cache.hit', found.hit === true);
      if (found.size) span?.setAttribute('cache.item_size', found.size);
      return found.entry;
    });
  }

  async #read(
    redis: SharedRedis,
    key: string,
    ctx: CallContext,
  ): Promise<{ entry: StoredEntry | null; hit?: boolean; size?: number }> {
    let text: string | null;
    try {
      text = await call(redis, (client) => client.get(pageKey(redis.prefix, key)));
    } catch (error) {
      if (!(error instanceof ErrorReply)) {
        return { entry: redis.ownCopy.get(key)?.entry ?? (await this.#buildCopy(key, ctx)) };
      }
      text = error.message;
    }
    if (text === null) return { entry: await this.#seed(redis, key, ctx, { overwrite: false }) };
    const entry = decodeEntry(text, Date.now());
    if (!entry) {
      console.warn(`Page cache: the value under ${key} is not a page this app wrote; it is replaced.`);
      return { entry: await this.#seed(redis, key, ctx, { overwrite: true }) };
    }
    if (!isStale(entry, Date.now())) return { entry, hit: true, size: text.length };
    // One instance regenerates a stale page for the whole cluster; the others serve it as it is meanwhile.
    const regenerate = await write(redis, [
      ['SET', lockKey(redis.prefix, key), '1', 'NX', 'PX', String(regenerationLockMs)],
    ]).then(
      ([reply]) => reply,
      () => 'OK',
    );
    return {
      entry: regenerate === 'OK' ? entry : { ...entry, lastModified: Date.now() },
      hit: true,
      size: text.length,
    };
  }

  /**
   * The build's copy of an entry, when it is sure to be current: a fallback route's shell, which nothing regenerates.
   * A page's copy is not: it may have been revalidated since, and its key evicted or expired. Without one, Next
   * renders the page afresh and calls set().
   */
  async #buildCopy(key: string, ctx: CallContext): Promise<StoredEntry | null> {
    return ctx.isFallback ? this.files.get(key, ctx) : null;
  }

  /**
   * A fallback route's shell from the build, written to Redis: once per build (unless an instance already wrote it:
   * then that one is served), or over a value that is no entry.
   */
  async #seed(
    redis: SharedRedis,
    key: string,
    ctx: CallContext,
    { overwrite }: { overwrite: boolean },
  ): Promise<StoredEntry | null> {
    const seed = await this.#buildCopy(key, ctx);
    if (!seed) return null;
    const text = encodeEntry(seed);
    const seconds = String(keySeconds(seed.cacheControl));
    // Unless overwriting a value that is no entry, an instance that wrote the shell first wins (NX), and it is served.
    const command: Command = overwrite
      ? ['SET', pageKey(redis.prefix, key), text, 'EX', seconds]
      : ['SET', pageKey(redis.prefix, key), text, 'NX', 'GET', 'EX', seconds];
    const current = await write(redis, [command]).then(
      ([reply]) => reply,
      () => null,
    );
    return (typeof current === 'string' && decodeEntry(current, Date.now())) || seed;
  }

  async set(key: string, data: StoredEntry['value'], ctx: CallContext): Promise<void> {
    recordPageCacheWrite();
    const redis = this.redis;
    if (!redis) {
      await this.files.set(key, data, ctx);
      if (data?.kind === 'PAGES' && this.serverDistDir && !ctx.isFallback)
        boundDisk(this.files, diskFor(this.files, this.serverDistDir), key);
      return;
    }
    const entry: StoredEntry = { value: data, lastModified: Date.now(), cacheControl: ctx.cacheControl };
    // A page that is not found (getStaticProps' notFound: a made-up slug) is not kept: it costs Redis nothing, and a
    // page stored under its key before is removed. So is a page too large to share: each instance renders it.
    const text = data === null ? undefined : encodeEntry(entry);
    const kept = text !== undefined && text.length <= maxEntryChars;
    if (text !== undefined && !kept) {
      console.warn(
        `Page cache: the page under ${key} is ${text.length} characters, more than the ${maxEntryChars} shared through Redis; each instance renders it instead.`,
      );
    }
    await traced('cache.put', key, async (span) => {
      if (text !== undefined) span?.setAttribute('cache.item_size', text.length);
      try {
        await write(redis, [
          kept
            ? ['SET', pageKey(redis.prefix, key), text, 'EX', String(keySeconds(entry.cacheControl))]
            : ['DEL', pageKey(redis.prefix, key)],
          ['DEL', lockKey(redis.prefix, key)],
        ]);
      } catch (error) {
        if (!(error instanceof ErrorReply)) keepOwnCopy(redis, key, kept ? { entry, size: text.length } : undefined);
      }
    });
  }

  // Tags belong to the App Router's fetch cache and revalidateTag(); these pages have none.
  async revalidateTag(): Promise<void> {}

  resetRequestCache(): void {}
}
