import { apiRoute, sendJson } from '@web-foundation/foundation/api';

// GET /api/hello answers JSON; other methods get a JSON 405, and a thrown error a JSON 500 that Sentry receives.
export default apiRoute(['GET', 'HEAD'], (req, res) => {
  if (req.query.fail === '1') throw new Error('Hello API failed on purpose');
  sendJson(res, 200, { greeting: 'Hello from the API' });
});
