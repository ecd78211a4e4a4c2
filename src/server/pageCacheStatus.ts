// Where this instance keeps pages now, for /api/ready and /api/revalidate: read from the page cache's connection
// (src/server/pageCache.mjs), which it keeps on globalThis because Next loads that file outside this bundle.
import { serverEnv } from '../config/env';

const pageCacheRedis = Symbol.for('app.pageCache.redis');

export type PageCacheStatus = 'filesystem' | 'redis' | 'redis-unavailable';

export function pageCacheStatus(): PageCacheStatus {
  if (!serverEnv().redisUrl) return 'filesystem';
  const redis = (globalThis as Record<symbol, { unavailableSince?: number } | undefined>)[pageCacheRedis];
  return redis?.unavailableSince === undefined ? 'redis' : 'redis-unavailable';
}
