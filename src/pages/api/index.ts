import type { NextApiRequest, NextApiResponse } from 'next';
import { allowMethods, sendJson } from '../../server/api';
import pkg from '../../../package.json';

/** GET /api: what this API is. */
export default function api(req: NextApiRequest, res: NextApiResponse) {
  if (!allowMethods(req, res, ['GET', 'HEAD'])) return;
  sendJson(res, 200, { name: pkg.name, version: pkg.version });
}
