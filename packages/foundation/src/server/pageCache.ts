// Next's incremental cache (pages with getStaticProps and their data), shared by every instance through one Redis. The
// server hands it to Next at start (packages/foundation/src/server/startup.ts); without Redis it is Next's own
// filesystem cache, with a bound on the pages it keeps on disk. Why our own handler and what it does when Redis fails:
// docs/scaling-out.md.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectionTimeoutError, createClient, createCluster, createSentinel, ErrorReply } from '@redis/client';
import type { CacheHandlerContext } from 'next/dist/server/lib/incremental-cache';
import fileSystemCacheModule from 'next/dist/server/lib/incremental-cache/file-system-cache.js';
import type { Span } from '@sentry/nextjs';
import type { CacheSpan } from '../observability/server/cacheSpans';
import { cacheSpan, pageCacheDisk, pageCacheRedis, processGlobals } from '../processGlobals.mts';
import {
  type CacheControl,
  decodeEntry,
  encodeEntry,
  isStale,
  keyPrefix,
  keySeconds,
  lockKey,
  maxEntryChars,
  pageKey,
  type StoredEntry,
} from './pageCache/entry';
import { recordPageCacheWrite } from './revalidationWrites';
import { serverSettings } from '../config/settings.mts';
import { runningNextBuild } from '../config/settings.mts';
import type { RedisTopology } from '../config/redis.mts';

/** What Next passes with a get or a set; the page cache reads these fields and hands the rest to Next's own cache. */
type CallContext = { isFallback?: boolean; cacheControl?: CacheControl } & Record<string, unknown>;

/** What the page cache uses of Next's FileSystemCache, whose types mark getFilePath private and name other shapes. */
interface Files {
  get(key: string, ctx: CallContext): Promise<StoredEntry | null>;
  set(key: string, data: StoredEntry['value'], ctx: CallContext): Promise<void>;
  getFilePath(pathname: string, kind: 'PAGES'): string;
}
type FileSystemCacheClass = new (ctx: CacheHandlerContext) => Files;
const fileSystemCache = fileSystemCacheModule as unknown as FileSystemCacheClass & { default?: FileSystemCacheClass };
// Node reads the CommonJS module's exports here (the unit tests); Turbopack, which bundles this file, its default.
const FileSystemCache = fileSystemCache.default ?? fileSystemCache;

/** Longest any one Redis call may take before the page is served without it. */
export const callTimeoutMs = 500;
/** After a call timed out, Redis is left alone this long (a hung Redis would cost every request the timeout). */
export const pauseMs = 2000;
/** How long one instance may take to regenerate a stale page before another may try. */
const regenerationLockMs = 30_000;
/** Pages an instance keeps for itself while Redis is unavailable (its own copy, as without Redis): so many at most. */
const ownCopyEntries = 500;
/** And so many characters of them in all, as Next's own in-memory cache keeps 50 MB. */
const ownCopyChars = 50 * 1024 * 1024;

/**
 * Without Redis, the pages a fallback route generates (a made-up but valid slug each) are kept on disk, so many at
 * most: Next's filesystem cache writes about 12 KB in three files for each and never removes one. The oldest written
 * go first; the build's own pages are never removed.
 */
export const diskPages = 1000;

class RedisUnavailable extends Error {}

/** The generated pages on disk: those the build prerendered are never counted or removed. */
interface Disk {
  written: Set<string>;
  prerendered: Set<string>;
}

/**
 * The page cache's values on globalThis (packages/foundation/src/processGlobals.mts), with the types only this file
 * knows.
 */
const globals = processGlobals as typeof processGlobals & {
  [pageCacheDisk]?: Disk;
  [pageCacheRedis]?: SharedRedis;
  [cacheSpan]?: CacheSpan;
};

/**
 * The pages generated on this disk without Redis, oldest first, shared by every handler (one per request). Next writes
 * them under its route cache (`<server>/route-cache/`, a key of the form `/route-cache/PAGES/<route hash>/$/<path>`);
 * those a server wrote before a restart are counted from their files' times.
 */
function diskFor(files: Files, serverDistDir: string): Disk {
  return (globals[pageCacheDisk] ??= openDisk(files, serverDistDir));
}

function openDisk(files: Files, serverDistDir: string): Disk {
  const manifest = JSON.parse(readFileSync(join(serverDistDir, '..', 'prerender-manifest.json'), 'utf8')) as {
    routes: Record<string, unknown>;
    dynamicRoutes: Record<string, unknown>;
  };
  // The build's pages and its fallback routes' shells (`/items/[slug]`).
  const prerendered = new Set([...Object.keys(manifest.routes), ...Object.keys(manifest.dynamicRoutes)]);
  const generated = writtenBefore(files).filter((key) => !prerendered.has(pathOfKey(key)));
  return { written: new Set(generated), prerendered };
}

/** The keys of the pages on disk in Next's route cache, oldest first. */
function writtenBefore(files: Files): string[] {
  const root = files.getFilePath(routeCache, 'PAGES');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((file) => ({
      key: `${routeCache}${file.slice(0, -'.html'.length)}`,
      time: statSync(join(root, file)).mtimeMs,
    }))
    .sort((a, b) => a.time - b.time)
    .map(({ key }) => key);
}
const routeCache = '/route-cache/';

/** The page a key stores: its path after the route cache's `/$`, `/index` being `/`. */
function pathOfKey(key: string): string {
  const path = key.includes('/$/') ? key.slice(key.indexOf('/$/') + 2) : key;
  return path === '/index' ? '/' : path;
}

/** Records a page written to disk, and removes the oldest generated ones' files past diskPages. */
function boundDisk(files: Files, disk: Disk, key: string): void {
  // A prerendered page regenerated is one of the build's pages: removed, it would read as the build wrote it.
  if (disk.prerendered.has(pathOfKey(key))) return;
  disk.written.delete(key);
  disk.written.add(key);
  for (const oldest of disk.written) {
    if (disk.written.size <= diskPages) break;
    disk.written.delete(oldest);
    const html = files.getFilePath(`${oldest}.html`, 'PAGES');
    for (const file of [html, html.replace(/\.html$/, '.json'), html.replace(/\.html$/, '.meta')]) {
      rmSync(file, { force: true });
    }
  }
}

/** Node's codes for a TLS certificate that does not verify against the CAs the client trusts. */
const certificateCodes = /^(?:UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|ERR_TLS_CERT_)/;

/**
 * Why Redis is unavailable, in words an operator acts on. Over TLS, a certificate that does not verify says to give its
 * CA; a handshake that never completes (a Redis without TLS behind rediss:// waits for a command, answering nothing)
 * says to check that Redis speaks TLS.
 */
export function unavailableReason(error: unknown, tls = false): string {
  const fields = typeof error === 'object' && error ? (error as { code?: unknown; message?: unknown }) : undefined;
  const code = String(fields ? (fields.code ?? fields.message) : error);
  if (certificateCodes.test(code)) return `its TLS certificate does not verify: ${code}; give its CA in REDIS_CA_FILE`;
  if (tls && (error instanceof ConnectionTimeoutError || code.startsWith('ERR_SSL_'))) {
    return `no TLS handshake within ${connectTimeoutMs} ms: ${code}; if it runs without TLS, use redis://`;
  }
  return code;
}

/**
 * How long one attempt to connect may take: the client's own default. No request waits for a connection longer than
 * callTimeoutMs, so this only decides when a connection that hangs counts as failed; on the loaded test machine a
 * TLS handshake during an instance's start took over 2 s.
 */
const connectTimeoutMs = 5000;

/** Every topology's connections: attempts bounded as above, retried within pauseMs. */
const socket = {
  connectTimeout: connectTimeoutMs,
  reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, pauseMs),
};

/** A Redis command as its words, the command's name first. */
type Command = string[];

/** One client, whichever the topology. */
interface Client {
  handle: {
    readonly isReady: boolean;
    on(event: string, listener: (error: unknown) => void): unknown;
    connect(): Promise<unknown>;
    destroy(): unknown;
  };
  get(key: string): Promise<string | null>;
  send(command: Command): Promise<unknown>;
}

/**
 * The client of the topology the environment names, behind one interface: `get`, `send` (a command whose second word
 * is its key, if it has one) and `handle`, the client itself. A command while disconnected fails at once instead of
 * waiting in a queue for a Redis that may not come back.
 */
function clientFor(topology: RedisTopology): Client {
  if (topology.kind === 'sentinel') {
    // It follows the primary: on READONLY or a lost connection it asks the sentinels where the primary is now.
    const sentinel = createSentinel({
      name: topology.primary,
      sentinelRootNodes: topology.sentinels,
      nodeClientOptions: { password: topology.password, disableOfflineQueue: true, socket },
      sentinelClientOptions: { password: topology.sentinelPassword, socket },
    });
    return {
      handle: sentinel,
      get: (key) => sentinel.get(key),
      send: (command) => sentinel.sendCommand(false, command),
    };
  }
  if (topology.kind === 'cluster') {
    // The nodes given are where it learns the cluster's slots; every node it then finds gets `defaults`.
    const cluster = createCluster({
      rootNodes: topology.nodes.map(({ host, port }) => ({ socket: { host, port } })),
      defaults: { password: topology.password, disableOfflineQueue: true, socket },
    });
    return {
      handle: cluster,
      get: (key) => cluster.get(key),
      send: (command) => cluster.sendCommand(command[1], false, command),
    };
  }
  const client = createClient({
    url: topology.url,
    disableOfflineQueue: true,
    socket: { ...socket, ...(topology.caFile ? { ca: readFileSync(topology.caFile) } : {}) },
  });
  return { handle: client, get: (key) => client.get(key), send: (command) => client.sendCommand(command) };
}

/** An entry kept while Redis is unavailable, with the characters it takes. */
interface OwnCopy {
  entry: StoredEntry;
  size: number;
}

/**
 * The process's connection and what it knows of Redis (packages/foundation/src/server/pageCacheStatus.ts reads the last
 * three).
 */
interface SharedRedis {
  client: Client;
  tls: boolean;
  prefix: string;
  ownCopy: Map<string, OwnCopy>;
  ownCopyChars: number;
  warned: boolean;
  pausedUntil: number;
  firstConnection: Promise<unknown> | undefined;
  evictionChecked: boolean;
  lastFailure: number;
  reconnectedAt: number;
  unavailableSince: number | undefined;
  refusingWritesSince: number | undefined;
  failedWrites: number;
  lost(reason?: string): void;
  back(now?: boolean): void;
  refused(reason: string): void;
  reconnect(): void;
  accepted(): void;
}

/** One connection per process, shared by every handler (Next makes one handler per request). */
function connectSharedRedis(topology: RedisTopology, namespace: string, distDir: string): SharedRedis {
  const address = topology.address;
  const redis: SharedRedis = {
    // Connected by open() below; a reconnection opens a new one.
    client: clientFor(topology),
    tls: topology.kind === 'single' && topology.url.startsWith('rediss://'),
    prefix: keyPrefix(namespace, readFileSync(join(distDir, 'BUILD_ID'), 'utf8').trim()),
    /** Entries written while Redis was unavailable, with their sizes, read until it is back; the oldest go first. */
    ownCopy: new Map(),
    ownCopyChars: 0,
    unavailableSince: undefined,
    warned: false,
    /** Since when Redis answers but refuses writes (out of memory, a read-only replica): pages are not shared. */
    refusingWritesSince: undefined,
    /** Writes that did not reach Redis, ever: POST /api/revalidate compares it before and after its page's write. */
    failedWrites: 0,
    pausedUntil: 0,
    firstConnection: undefined,
    evictionChecked: false,
    lastFailure: 0,
    reconnectedAt: 0,
    /**
     * One warning per outage, naming the host but never the credentials. Without a `reason` (a request found no
     * connection yet) the outage counts, and the warning waits for the client to say why.
     */
    lost: (reason) => {
      redis.unavailableSince ??= Date.now();
      if (redis.warned || reason === undefined) return;
      redis.warned = true;
      console.warn(
        `Page cache: Redis at ${address} is unavailable (${reason}); each instance renders and keeps pages on its own until it is back. Check the Redis settings (docs/scaling-out.md) and that Redis runs.`,
      );
    },
    /**
     * After a call that worked, or once the connection is ready again (`now`). Part of a Cluster may be down while the
     * rest answers: a Cluster counts as back once a call works pauseMs after the last that failed.
     */
    back: (now = false) => {
      if (redis.unavailableSince === undefined) return;
      if (!now && topology.kind === 'cluster' && Date.now() - redis.lastFailure < pauseMs) return;
      const seconds = ((Date.now() - redis.unavailableSince) / 1000).toFixed(1);
      redis.unavailableSince = undefined;
      redis.ownCopy.clear();
      redis.ownCopyChars = 0;
      if (!redis.warned) return;
      redis.warned = false;
      console.info(`Page cache: Redis at ${address} answers again after ${seconds} s; pages are shared again.`);
    },
    /** One warning per episode of refused writes, with Redis's own reason (OOM, READONLY, MISCONF). */
    refused: (reason) => {
      if (redis.refusingWritesSince !== undefined) return;
      redis.refusingWritesSince = Date.now();
      console.warn(
        `Page cache: Redis at ${address} refused a write (${reason}); pages regenerated here are not shared and POST /api/revalidate answers 503 until it takes writes again. Give Redis maxmemory with an evicting maxmemory-policy, or point REDIS_URL at the primary (docs/scaling-out.md).`,
      );
    },
    /**
     * A new connection (its address resolved again), as after a failover the address names the new primary while the
     * old one, now a replica, answers READONLY on the connection kept. At most once per pauseMs.
     */
    reconnect: () => {
      if (Date.now() - redis.reconnectedAt < pauseMs) return;
      redis.reconnectedAt = Date.now();
      const previous = redis.client.handle;
      open();
      void Promise.resolve(previous.destroy()).catch(() => {});
    },
    accepted: () => {
      if (redis.refusingWritesSince === undefined) return;
      const seconds = ((Date.now() - redis.refusingWritesSince) / 1000).toFixed(1);
      redis.refusingWritesSince = undefined;
      console.info(`Page cache: Redis at ${address} takes writes again after ${seconds} s; pages are shared again.`);
    },
  };
  function open(client = clientFor(topology)): void {
    redis.client = client;
    client.handle.on('error', (error) => {
      redis.lastFailure = Date.now();
      redis.lost(unavailableReason(error, redis.tls));
    });
    // A Cluster says `connect` once it knows its slots; the others `ready` on each connection.
    client.handle.on(topology.kind === 'cluster' ? 'connect' : 'ready', () => {
      redis.back(true);
      if (!redis.evictionChecked) void checkEviction(redis, address);
    });
    // A Sentinel or Cluster client that finds none of its nodes at start gives up: a new one tries again.
    redis.firstConnection = client.handle.connect().catch((error) => {
      if (redis.client !== client) return;
      redis.lastFailure = Date.now();
      redis.lost(unavailableReason(error, redis.tls));
      setTimeout(() => redis.client === client && open(), pauseMs).unref();
    });
  }
  open(redis.client);
  return redis;
}

/** While Redis is unavailable, what this instance wrote is read from here: bounded in entries and in size. */
function keepOwnCopy(redis: SharedRedis, key: string, copy: OwnCopy | undefined): void {
  const previous = redis.ownCopy.get(key);
  if (previous) redis.ownCopyChars -= previous.size;
  redis.ownCopy.delete(key);
  if (!copy) return;
  redis.ownCopy.set(key, copy);
  redis.ownCopyChars += copy.size;
  for (const [oldest, { size }] of redis.ownCopy) {
    if (redis.ownCopy.size <= ownCopyEntries && redis.ownCopyChars <= ownCopyChars) break;
    redis.ownCopy.delete(oldest);
    redis.ownCopyChars -= size;
  }
}

/** The process's Redis connection, or undefined when the cache is Next's filesystem cache. */
function redisFor(ctx: CacheHandlerContext): SharedRedis | undefined {
  // The build prerenders into its own directory; Redis is for the running instances.
  if (ctx.dev || runningNextBuild() || !ctx.serverDistDir) return undefined;
  // Parsed and checked once, at start (packages/foundation/src/server/startup.ts); a namespace comes with every Redis.
  const { redis: topology, redisKeyNamespace: namespace } = serverSettings();
  if (!topology || namespace === undefined) return undefined;
  return (globals[pageCacheRedis] ??= connectSharedRedis(topology, namespace, join(ctx.serverDistDir, '..')));
}

/**
 * Runs one Redis call within callTimeoutMs, or throws RedisUnavailable. A timeout pauses Redis for pauseMs: the
 * client's own abort does not reach a command already on the socket, so a stalled Redis would hold every request.
 */
async function call<T>(redis: SharedRedis, command: (client: Client) => Promise<T>): Promise<T> {
  // The first connection is waited for (bounded), so that an instance's first requests share too.
  if (!redis.client.handle.isReady && redis.firstConnection) {
    await Promise.race([redis.firstConnection, new Promise((done) => setTimeout(done, callTimeoutMs))]);
    redis.firstConnection = undefined;
  }
  if (!redis.client.handle.isReady) {
    redis.lastFailure = Date.now();
    redis.lost();
    throw new RedisUnavailable('not connected');
  }
  if (Date.now() < redis.pausedUntil) throw new RedisUnavailable('paused');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // After the timer, one more turn of the event loop: a reply that arrived while this process was starved of CPU is
    // read first (I/O before setImmediate), so a busy instance does not take a slow turn of its own for a Redis fault.
    const expire = () => reject(new RedisUnavailable(`no answer within ${callTimeoutMs} ms`));
    timer = setTimeout(() => setImmediate(expire), callTimeoutMs);
  });
  try {
    const result = await Promise.race([command(redis.client), timeout]);
    redis.back();
    return result;
  } catch (error) {
    // A reply that is an error (a foreign key of another type) is an answer: Redis is fine.
    if (error instanceof ErrorReply) throw error;
    if (error instanceof RedisUnavailable) redis.pausedUntil = Date.now() + pauseMs;
    redis.lastFailure = Date.now();
    redis.lost(unavailableReason(error, redis.tls));
    throw error instanceof RedisUnavailable ? error : new RedisUnavailable((error as Error).message);
  } finally {
    clearTimeout(timer);
  }
}

/** A setting of CONFIG GET's answer: a [name, value] list (RESP2) or a map (RESP3). */
function configValue(reply: unknown, name: string): unknown {
  return Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null | undefined)?.[name];
}

/**
 * Once per process: a warning when Redis would keep every page any visitor makes the app generate (no maxmemory) or
 * refuse new ones when full (noeviction, Redis's default). A managed Redis may forbid CONFIG: then it says so.
 */
async function checkEviction(redis: SharedRedis, address: string): Promise<void> {
  redis.evictionChecked = true;
  let maxmemory: number;
  let policy: unknown;
  try {
    maxmemory = Number(configValue(await call(redis, (c) => c.send(['CONFIG', 'GET', 'maxmemory'])), 'maxmemory'));
    policy = configValue(await call(redis, (c) => c.send(['CONFIG', 'GET', 'maxmemory-policy'])), 'maxmemory-policy');
  } catch (error) {
    console.info(
      `Page cache: could not read the memory settings of Redis at ${address} (${(error as Error).message}); make sure it has maxmemory and an evicting maxmemory-policy such as allkeys-lru (docs/scaling-out.md).`,
    );
    return;
  }
  const problems = [
    ...(maxmemory === 0 ? ['has no maxmemory, so it keeps every page until it expires and grows without bound'] : []),
    ...(policy === 'noeviction' ? ['evicts nothing (noeviction), so once full it refuses new pages'] : []),
  ];
  if (problems.length === 0) return;
  console.warn(
    `Page cache: Redis at ${address} ${problems.join(', and ')}. Run it as a cache: maxmemory <size> and maxmemory-policy allkeys-lru (docs/scaling-out.md).`,
  );
}

/**
 * Runs write commands together. An error reply (OOM, READONLY, MISCONF) is a write that did not happen, even though
 * Redis answered: counted and said once, as an outage is. Throws as call() does.
 */
async function write(redis: SharedRedis, commands: Command[]): Promise<unknown[]> {
  try {
    const replies = await call(redis, (client) => Promise.all(commands.map((command) => client.send(command))));
    redis.accepted();
    return replies;
  } catch (error) {
    redis.failedWrites++;
    if (error instanceof ErrorReply) redis.refused(error.message);
    if (error instanceof ErrorReply && error.message.startsWith('READONLY')) redis.reconnect();
    throw error;
  }
}

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
