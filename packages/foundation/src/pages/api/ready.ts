import { draining, processGlobals } from '../../processGlobals.mts';
import { apiRoute, sendJson } from '../../server/api';
import { pageCacheStatus } from '../../server/pageCache/status';

/**
 * GET /api/ready: 200 while this instance takes traffic, 503 from SIGTERM until it exits
 * (packages/foundation/src/server/preload/drain.mts). `pageCache` says where pages are kept. Redis being unavailable
 * does not make the instance unready: it still serves every page (rendering and keeping them itself), and a 503 here
 * would take every instance out at once.
 */
export default apiRoute(['GET', 'HEAD'], (_req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  const leaving = processGlobals[draining] === true;
  sendJson(res, leaving ? 503 : 200, { status: leaving ? 'draining' : 'ready', pageCache: pageCacheStatus() });
});
