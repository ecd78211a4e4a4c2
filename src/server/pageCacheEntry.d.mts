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
export declare const maxEntryChars: number;
export declare const maxClockSkewMs: number;
export declare const keyNamespacePattern: RegExp;
export declare function keyNamespace(env: Record<string, string | undefined>): string | undefined;
export declare function keyPrefix(namespace: string, buildId: string): string;
export declare function parseRedisUrl(text: string): { address: string } | { problem: string };
export declare function encodeEntry(entry: StoredEntry): string;
export declare function decodeEntry(text: string, now?: number): StoredEntry | undefined;
export declare function keySeconds(cacheControl: CacheControl | undefined): number;
export declare function isStale(entry: StoredEntry, now: number): boolean;
export declare function seedCacheControl(
  prerenderManifest: {
    routes?: Record<string, { initialRevalidateSeconds: number | false; initialExpireSeconds?: number }>;
  },
  key: string,
): CacheControl | undefined;
