// Types of pageCacheEntry.mjs.
export interface CacheControl {
  revalidate: number | false;
  expire: number | undefined;
}
export interface StoredEntry {
  lastModified: number;
  value: ({ kind: string } & Record<string, unknown>) | null;
  cacheControl?: CacheControl;
}
export declare const maxKeySeconds: number;
export declare function keyPrefix(buildId: string): string;
export declare function encodeEntry(entry: StoredEntry): string;
export declare function decodeEntry(text: string): StoredEntry | undefined;
export declare function keySeconds(cacheControl: CacheControl | undefined): number;
export declare function isStale(entry: StoredEntry, now: number): boolean;
export declare function redisAddress(url: string): string;
export declare function seedCacheControl(
  prerenderManifest: {
    routes?: Record<string, { initialRevalidateSeconds: number | false; initialExpireSeconds?: number }>;
  },
  key: string,
): CacheControl | undefined;
