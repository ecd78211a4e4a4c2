import type { NextApiRequest, NextApiResponse } from 'next';
import { allowMethods, sendJson } from '../../server/api';
import { buildId } from '../../config/build';

/** GET /api/health: the instance is up; which build it serves and for how long. */
export default function health(req: NextApiRequest, res: NextApiResponse) {
  if (!allowMethods(req, res, ['GET', 'HEAD'])) return;
  res.setHeader('Cache-Control', 'no-store');
  sendJson(res, 200, { status: 'ok', buildId, uptimeSeconds: Math.round(process.uptime()) });
}
