import type { NextApiRequest, NextApiResponse } from 'next';
import { serverEnv } from '../../../config/env';
import { allowMethods, sendJsonError } from '../../../server/api';

/** GET /api/diagnostics/server-error: throws, so that operators see a server error arrive. */
export default function serverError(req: NextApiRequest, res: NextApiResponse) {
  if (!serverEnv().enableDiagnostics) return sendJsonError(res, 404, 'No API route answers this path.');
  if (!allowMethods(req, res, ['GET', 'POST'])) return;
  throw new Error('Diagnostics: an exception thrown in an API route');
}
