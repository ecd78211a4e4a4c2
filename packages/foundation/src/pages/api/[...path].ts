import type { NextApiRequest, NextApiResponse } from 'next';
import { sendJsonError } from '../../server/api';

/** Any /api/... path that no route answers: a JSON 404, never the HTML page. */
export default function unknownApiRoute(req: NextApiRequest, res: NextApiResponse) {
  sendJsonError(req, res, 404, 'No API route answers this path.');
}
