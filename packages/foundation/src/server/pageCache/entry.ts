// The page cache's decisions as pure functions, tested directly: an entry's format in Redis, key, lifetime, staleness.

/** Next's cacheControl of an entry: seconds until it is stale (false: never) and until it expires. */
export interface CacheControl {
  revalidate: number | false;
  expire: number | undefined;
}

/** An entry as Next hands it to the cache and reads it back; `value` is null for a page that is not found. */
export interface StoredEntry {
  lastModified: number;
  value: ({ kind: string } & Record<string, unknown>) | null;
  cacheControl?: CacheControl | undefined;
}

/** Bumped when the stored shape changes, so that a new version reads an old one as a miss, not as garbage. */
const FORMAT = 1;

/** Longest a key lives: the build-id namespace of an old deploy is gone a day after its last write. */
export const maxKeySeconds = 24 * 60 * 60;

/**
 * Largest entry written to or read from Redis (its JSON, in characters): Next's own data cache refuses items over 2 MB.
 * A page this large is served, rendered by each instance, and not shared; a larger value read is not parsed.
 */
export const maxEntryChars = 2 * 1024 * 1024;

/** How far ahead of this instance's clock another's may run: a `lastModified` later than that is not a real write. */
export const maxClockSkewMs = 60_000;

/**
 * Longest revalidate or expire a stored page may name: ten years, well past what Next writes for `revalidate: false`
 * (a year) and any sensible `expireTime`; a value beyond it would keep a page for ever.
 */
const maxLifetimeSeconds = 10 * 365 * 24 * 60 * 60;

/** Next's kinds of cached value (CachedRouteKind): anything else under a key is not an entry Next wrote. */
const knownKinds: ReadonlySet<unknown> = new Set(['PAGES', 'REDIRECT', 'APP_PAGE', 'APP_ROUTE', 'FETCH', 'IMAGE']);

/** The start of one deployment's build's keys, `<namespace>:next-page-cache:<buildId>:` (pageKey adds the rest). */
export function keyPrefix(namespace: string, buildId: string): string {
  return `${namespace}:next-page-cache:${buildId}:`;
}

/**
 * The key of a page: Next's key inside a hash tag, so that the page and its regeneration lock (lockKey) sit in one slot
 * of a Redis Cluster. A page's key is the start of its lock's key and holds a whole tag: both hash alike.
 */
export function pageKey(prefix: string, key: string): string {
  return `${prefix}{${key}}`;
}

/** The key of the short lock that lets one instance regenerate a stale page for all: in its page's slot. */
export function lockKey(prefix: string, key: string): string {
  return `${pageKey(prefix, key)}:lock`;
}

/**
 * One JSON string for Next's entry. Next's values hold Buffers and Maps (App Router kinds), which JSON would flatten;
 * they are tagged so that decodeEntry restores them.
 */
export function encodeEntry(entry: StoredEntry): string {
  const { lastModified, value, cacheControl } = entry;
  // These fields only: decodeEntry refuses anything more.
  return JSON.stringify(
    { format: FORMAT, lastModified, value, cacheControl },
    function tag(this: Record<string, unknown>, key: string, value: unknown) {
      const raw = this[key];
      if (Buffer.isBuffer(raw)) return { $buffer: raw.toString('base64') };
      if (raw instanceof Map) return { $map: [...raw.entries()] };
      return value;
    },
  );
}

function untag(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object') {
    const { $buffer, $map } = value as { $buffer?: unknown; $map?: unknown };
    if (typeof $buffer === 'string') return Buffer.from($buffer, 'base64');
    if (Array.isArray($map)) return new Map($map as [unknown, unknown][]);
  }
  return value;
}

const lifetime = (seconds: unknown): boolean =>
  typeof seconds === 'number' && seconds >= 0 && seconds <= maxLifetimeSeconds;

/** A cacheControl as Next writes it: revalidate seconds (or false) and expire seconds (or none), within bounds. */
function isCacheControl(cacheControl: unknown): cacheControl is CacheControl | undefined {
  if (cacheControl === undefined) return true;
  if (typeof cacheControl !== 'object' || cacheControl === null) return false;
  const { revalidate, expire } = cacheControl as Record<string, unknown>;
  return (revalidate === false || lifetime(revalidate)) && (expire === undefined || lifetime(expire));
}

/** A value of one of Next's kinds. */
function isNextValue(value: unknown): value is NonNullable<StoredEntry['value']> {
  return typeof value === 'object' && value !== null && knownKinds.has((value as { kind?: unknown }).kind);
}

/**
 * The entry written by encodeEntry, or undefined for anything else under the key: corrupt, foreign, of an older format,
 * larger than maxEntryChars (not parsed), dated later than `now` allows, or with fields this app never writes (cache
 * tags, an unknown kind or encoding). Redis is a trust boundary: such a value is replaced, never served.
 */
export function decodeEntry(text: string, now = Date.now()): StoredEntry | undefined {
  if (text.length > maxEntryChars) return undefined;
  let parsed: unknown;
  try {
    // A reviver runs for every value: only entries that hold tagged values (not the Pages Router's) pay for it.
    parsed = /"\$(buffer|map)":/.test(text) ? JSON.parse(text, untag) : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { format, lastModified, value, cacheControl, ...rest } = parsed as Record<string, unknown>;
  // Pages carry no cache tags (revalidateTag is the App Router's): a key with any was written by someone else.
  if (format !== FORMAT || Object.keys(rest).length > 0) return undefined;
  if (typeof lastModified !== 'number' || !Number.isFinite(lastModified)) return undefined;
  // A date ahead of every clock would keep the page fresh for ever.
  if (lastModified > now + maxClockSkewMs) return undefined;
  if (value !== null && !isNextValue(value)) return undefined;
  if (!isCacheControl(cacheControl)) return undefined;
  return { lastModified, value, cacheControl };
}

/** Seconds the key lives: the page's own `expire` when shorter than a day, else a day. */
export function keySeconds(cacheControl: CacheControl | undefined): number {
  const expire = cacheControl?.expire;
  return typeof expire === 'number' && expire > 0 ? Math.min(Math.ceil(expire), maxKeySeconds) : maxKeySeconds;
}

/** Whether Next will regenerate the entry when it reads it now (its `revalidate` seconds have passed). */
export function isStale(entry: StoredEntry, now: number): boolean {
  const revalidate = entry.cacheControl?.revalidate;
  return typeof revalidate === 'number' && now - entry.lastModified > revalidate * 1000;
}
