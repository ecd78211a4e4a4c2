import { apiRoute, sendJson } from '@web-foundation/foundation/api';

/** GET /api/examples/fails?fail: the app's own API route throwing, for the source-map tests (pages/examples/fails.tsx). */
export default apiRoute(['GET'], (req, res) => {
  if (req.query.fail !== undefined) throw new Error("Reference: an exception thrown in the app's API route");
  sendJson(res, 200, { fails: 'with ?fail' });
});
