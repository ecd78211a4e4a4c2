import { apiRoute, sendJson } from '../../server/api';

/** GET /api: what this API is, named by the app's own package.json (its name and version). */
export function describeApi({ name, version }: { name: string; version: string }) {
  return apiRoute(['GET', 'HEAD'], (_req, res) => sendJson(res, 200, { name, version }));
}
