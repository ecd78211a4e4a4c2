import { apiRoute, sendJson } from '../../server/api';
import pkg from '../../../package.json';

/** GET /api: what this API is. */
export default apiRoute(['GET', 'HEAD'], (_req, res) => sendJson(res, 200, { name: pkg.name, version: pkg.version }));
