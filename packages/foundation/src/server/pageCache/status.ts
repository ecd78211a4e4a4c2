// Where this instance keeps pages now, for /api/ready and /api/revalidate: read through globalThis, never the handler.
import { serverSettings } from '../../config/settings.mts';
import { pageCacheRedis } from '../../processGlobals.mts';

interface SharedRedis {
  unavailableSince?: number;
  refusingWritesSince?: number;
  failedWrites: number;
}

/**
 * `redis-unavailable`: Redis does not answer; `redis-degraded`: it answers but refuses writes (out of memory, a
 * read-only replica), so new pages are not shared.
 */
export type PageCacheStatus = 'filesystem' | 'redis' | 'redis-unavailable' | 'redis-degraded';

/**
 * The page cache's connection to Redis, once a request has made it
 * (packages/foundation/src/server/pageCache/redisConnection.ts).
 */
const connectedRedis = () => (globalThis as Record<symbol, SharedRedis | undefined>)[pageCacheRedis];

export function pageCacheStatus(): PageCacheStatus {
  if (!serverSettings().redis) return 'filesystem';
  const redis = connectedRedis();
  if (redis?.unavailableSince !== undefined) return 'redis-unavailable';
  return redis?.refusingWritesSince === undefined ? 'redis' : 'redis-degraded';
}

/** Writes to Redis that failed since start: one more after a page's write means that page was not shared. */
export function failedPageCacheWrites(): number {
  return connectedRedis()?.failedWrites ?? 0;
}
