import { apiRoute, sendJson } from '../../server/api';
import { buildId } from '../../config/build';

/** GET /api/health: the instance is up; which build it serves and for how long. */
export default apiRoute(['GET', 'HEAD'], (_req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  sendJson(res, 200, { status: 'ok', buildId, uptimeSeconds: Math.round(process.uptime()) });
});
