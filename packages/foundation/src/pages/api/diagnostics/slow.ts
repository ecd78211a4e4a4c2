import { serverSettings } from '../../../config/settings.mts';
import { apiRoute, sendJson, sendJsonError } from '../../../server/api';

/**
 * GET /api/diagnostics/slow?ms=N: answers after N ms (at most 10 s), to watch a request survive a graceful shutdown;
 * POST too, to watch a body leave the server's count once the route has read it, long before the answer.
 */
export default apiRoute(['GET', 'POST'], async (req, res) => {
  if (!serverSettings().enableDiagnostics) return sendJsonError(req, res, 404, 'No API route answers this path.');
  const ms = Math.min(Math.max(Number(req.query.ms) || 0, 0), 10_000);
  await new Promise((done) => setTimeout(done, ms));
  sendJson(res, 200, { waitedMs: ms });
});
