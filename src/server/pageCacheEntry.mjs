// The decisions of the shared page cache (pageCache.mjs), as pure functions: how an entry is written to and read
// from Redis, under which key, for how long, and when it is stale. Plain JavaScript, because Next imports the cache
// handler at run time without compiling it; types in pageCacheEntry.d.mts.

/** Bumped when the stored shape changes, so that a new version reads an old one as a miss, not as garbage. */
const FORMAT = 1;

/** Longest a key lives: the build-id namespace of an old deploy is gone a day after its last write. */
export const maxKeySeconds = 24 * 60 * 60;

/** Keys of one build: `<prefix><buildId>:<Next's key>`. Another build never reads them. */
export function keyPrefix(buildId) {
  return `next-page-cache:${buildId}:`;
}

/**
 * One JSON string for Next's entry. Next's values hold Buffers and Maps (App Router kinds), which JSON would flatten;
 * they are tagged so that decodeEntry restores them.
 */
export function encodeEntry(entry) {
  return JSON.stringify({ format: FORMAT, ...entry }, function tag(key, value) {
    const raw = this[key];
    if (Buffer.isBuffer(raw)) return { $buffer: raw.toString('base64') };
    if (raw instanceof Map) return { $map: [...raw.entries()] };
    return value;
  });
}

function untag(_key, value) {
  if (value && typeof value === 'object' && typeof value.$buffer === 'string')
    return Buffer.from(value.$buffer, 'base64');
  if (value && typeof value === 'object' && Array.isArray(value.$map)) return new Map(value.$map);
  return value;
}

/** The entry written by encodeEntry, or undefined for anything else under the key (corrupt, foreign, older format). */
export function decodeEntry(text) {
  let parsed;
  try {
    // A reviver runs for every value: only entries that hold tagged values (not the Pages Router's) pay for it.
    parsed = /"\$(buffer|map)":/.test(text) ? JSON.parse(text, untag) : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || parsed.format !== FORMAT) return undefined;
  const { lastModified, value, cacheControl } = parsed;
  if (typeof lastModified !== 'number' || !Number.isFinite(lastModified)) return undefined;
  if (value !== null && (typeof value !== 'object' || typeof value.kind !== 'string')) return undefined;
  if (cacheControl !== undefined && (typeof cacheControl !== 'object' || cacheControl === null)) return undefined;
  return { lastModified, value, cacheControl };
}

/** Seconds the key lives: the page's own `expire` when shorter than a day, else a day. */
export function keySeconds(cacheControl) {
  const expire = cacheControl?.expire;
  return typeof expire === 'number' && expire > 0 ? Math.min(Math.ceil(expire), maxKeySeconds) : maxKeySeconds;
}

/** Whether Next will regenerate the entry when it reads it now (its `revalidate` seconds have passed). */
export function isStale(entry, now) {
  const revalidate = entry.cacheControl?.revalidate;
  return typeof revalidate === 'number' && now - entry.lastModified > revalidate * 1000;
}

/** `redis://host:port` of a Redis URL, for log lines: never the user name or the password. */
export function redisAddress(url) {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * The lifetime the build gave a prerendered page (Next's prerender-manifest.json), for an entry read from the build:
 * Next's filesystem cache returns those without it. Next's key ends in `/$<page path>` (route-cache-key.js).
 */
export function seedCacheControl(prerenderManifest, key) {
  const marker = key.indexOf('/$/');
  if (marker === -1) return undefined;
  const pagePath = key.slice(marker + 2);
  const route = prerenderManifest?.routes?.[pagePath === '/index' ? '/' : pagePath.replace(/^\/index\//, '/')];
  if (!route) return undefined;
  return { revalidate: route.initialRevalidateSeconds, expire: route.initialExpireSeconds };
}
