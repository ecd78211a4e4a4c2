import { apiRoute } from '@web-foundation/foundation/api';
import { sameOriginOnly } from '../../server/sameOrigin';
import { newSession, setSessionCookie } from '../../server/session';
import { verifyCredentials } from '../../server/users';

export default apiRoute(
  ['POST'],
  sameOriginOnly(async (req, res) => {
    const { email, password } = (req.body ?? {}) as Record<string, unknown>;
    const userId =
      typeof email === 'string' && typeof password === 'string' ? await verifyCredentials(email, password) : undefined;
    if (!userId) return res.redirect(303, '/sign-in?failed=1');
    setSessionCookie(req, res, newSession(userId));
    res.redirect(303, '/account');
  }),
);
