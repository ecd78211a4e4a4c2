import { serverSettings } from '../../../config/settings.mts';
import { apiRoute, sendJsonError } from '../../../server/api';

/** GET /api/diagnostics/server-error: throws, so that operators see a server error arrive. */
export default apiRoute(['GET', 'POST'], (req, res) => {
  if (!serverSettings().enableDiagnostics) return sendJsonError(req, res, 404, 'No API route answers this path.');
  throw new Error('Diagnostics: an exception thrown in an API route');
});
