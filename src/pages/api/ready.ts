import { serverEnv } from '../../config/env';
import { apiRoute, sendJson } from '../../server/api';

/** The page cache's connection (src/server/pageCache.mjs), once a page has used it. */
const pageCacheRedis = Symbol.for('app.pageCache.redis');

/**
 * Where this instance keeps pages now. Redis being unavailable does not make the instance unready: it still serves
 * every page (rendering and keeping them itself), and a 503 here would take every instance out at once.
 */
function pageCache(): 'filesystem' | 'redis' | 'redis-unavailable' {
  if (!serverEnv().redisUrl) return 'filesystem';
  const redis = (globalThis as Record<symbol, { unavailableSince?: number } | undefined>)[pageCacheRedis];
  return redis?.unavailableSince === undefined ? 'redis' : 'redis-unavailable';
}

/** GET /api/ready: 200 while this instance takes traffic, 503 from SIGTERM until it exits (scripts/server-lifecycle.mjs). */
export default apiRoute(['GET', 'HEAD'], (_req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  const draining = (globalThis as Record<symbol, unknown>)[Symbol.for('app.draining')] === true;
  sendJson(res, draining ? 503 : 200, { status: draining ? 'draining' : 'ready', pageCache: pageCache() });
});
