import { apiRoute, sendJson, sendJsonError } from '@web-foundation/foundation/api';
import { revalidatePages, sendRevalidationFailure } from '@web-foundation/foundation/revalidate-pages';
import { product } from '../../../product';
import { renameProduct } from '../../../server/products';
import { sameOriginOnly } from '../../../server/sameOrigin';
import { sessionCookieName, sessionUser } from '../../../server/session';

// PUT /api/products/3 {"name": "Pears"}: renames the product, then regenerates its page for every instance, so that
// the next visit shows the new name. A signed-in user's, from this site's own pages (section 4d).
export default apiRoute(
  ['PUT'],
  sameOriginOnly(async (req, res) => {
    if (!sessionUser(req.cookies[sessionCookieName])) return sendJsonError(req, res, 401, 'Sign in first.');
    const id = String(req.query.id);
    const body = (req.body ?? {}) as { name?: unknown };
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (!name || name.length > 100) {
      return sendJsonError(req, res, 400, 'The body must name the product: {"name": "Pears"}, at most 100 characters.');
    }
    const renamed = product.acceptsSlug('/products/[id]', id) ? await renameProduct(id, name) : 'missing';
    if (renamed === 'missing') return sendJsonError(req, res, 404, `There is no product ${id}.`);
    if (renamed === 'taken') return sendJsonError(req, res, 409, `Another product is named ${name}.`);
    // The row is written: a failure now means that some instances still show the old name (503, try again).
    const revalidation = await revalidatePages(res, [`/products/${id}`]);
    if (!revalidation.ok) return sendRevalidationFailure(req, res, revalidation);
    sendJson(res, 200, { id, name, revalidated: revalidation.revalidated, skipped: revalidation.skipped });
  }),
);
