import { apiRoute, sendJson } from '../../server/api';

/** GET /api/ready: 200 while this instance takes traffic, 503 from SIGTERM until it exits (scripts/server-lifecycle.mjs). */
export default apiRoute(['GET', 'HEAD'], (_req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  const draining = (globalThis as Record<symbol, unknown>)[Symbol.for('app.draining')] === true;
  sendJson(res, draining ? 503 : 200, { status: draining ? 'draining' : 'ready' });
});
