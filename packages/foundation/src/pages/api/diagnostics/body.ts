import { createHash } from 'node:crypto';
import { serverSettings } from '../../../config/settings.mts';
import { apiRoute, sendJson, sendJsonError } from '../../../server/api';

/**
 * POST /api/diagnostics/body: the size and SHA-256 of the body this route received, so that operators can check that
 * bodies up to the server's limit reach the routes whole, through their load balancer too.
 */
export default apiRoute(['POST'], async (req, res) => {
  if (!serverSettings().enableDiagnostics) return sendJsonError(req, res, 404, 'No API route answers this path.');
  const digest = createHash('sha256');
  let bytes = 0;
  // The server preload has refused any body larger than the limit before this route runs.
  for await (const chunk of req as AsyncIterable<Buffer>) {
    bytes += chunk.length;
    digest.update(chunk);
  }
  sendJson(res, 200, { bytes, sha256: digest.digest('hex') });
});
