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
export declare function pageKey(prefix: string, key: string): string;
export declare function lockKey(prefix: string, key: string): string;
export interface RedisAddress {
  host: string;
  port: number;
}
export type RedisTopology =
  | { kind: 'single'; url: string; caFile: string | undefined; address: string }
  | {
      kind: 'sentinel';
      primary: string;
      sentinels: RedisAddress[];
      password: string | undefined;
      sentinelPassword: string | undefined;
      address: string;
    }
  | { kind: 'cluster'; nodes: RedisAddress[]; password: string | undefined; address: string };
export declare function redisTopology(
  env: Record<string, string | undefined>,
): RedisTopology | { problem: string } | undefined;
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
