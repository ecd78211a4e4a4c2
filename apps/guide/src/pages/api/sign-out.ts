import { apiRoute } from '@web-foundation/foundation/api';
import { sameOriginOnly } from '../../server/sameOrigin';
import { clearSessionCookie } from '../../server/session';

export default apiRoute(
  ['POST'],
  sameOriginOnly((req, res) => {
    clearSessionCookie(req, res);
    res.redirect(303, '/sign-in');
  }),
);
