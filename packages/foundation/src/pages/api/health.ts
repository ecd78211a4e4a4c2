import { apiRoute, sendJson } from '../../server/api';
import { buildId, deploymentId } from '../../config/settings.mts';

/**
 * GET /api/health: the instance is up; which build it serves, the deployment id Next's skew protection compares
 * (inlined by Next from next.config.ts, equal to the build id), and for how long.
 */
export default apiRoute(['GET', 'HEAD'], (_req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  sendJson(res, 200, {
    status: 'ok',
    buildId: buildId(),
    deploymentId: deploymentId() ?? null,
    uptimeSeconds: Math.round(process.uptime()),
  });
});
