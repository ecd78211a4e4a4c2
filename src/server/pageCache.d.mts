// Types of pageCache.mjs, for the tests that drive it against a real Redis.
import type { StoredEntry } from './pageCacheEntry.mjs';

export declare const callTimeoutMs: number;
export declare const pauseMs: number;
export declare const diskPages: number;
export default class PageCacheHandler {
  constructor(ctx: {
    serverDistDir?: string;
    dev?: boolean;
    fs?: unknown;
    flushToDisk?: boolean;
    maxMemoryCacheSize?: number;
    revalidatedTags: string[];
    _requestHeaders: Record<string, unknown>;
  });
  get(key: string, ctx: Record<string, unknown>): Promise<StoredEntry | null>;
  set(key: string, data: StoredEntry['value'], ctx: Record<string, unknown>): Promise<void>;
  revalidateTag(): Promise<void>;
  resetRequestCache(): void;
}
