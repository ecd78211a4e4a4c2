import { apiRoute, sendJson, sendJsonError } from '@web-foundation/foundation/api';
import { revalidatePages, sendRevalidationFailure } from '@web-foundation/foundation/revalidate-pages';
import { addBook } from '../../server/books';

// POST /api/books {"title": "…"}: adds a book, then regenerates the catalog for every instance.
export default apiRoute(['POST'], async (req, res) => {
  const body = (req.body ?? {}) as { title?: unknown };
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (!title || title.length > 200) return sendJsonError(req, res, 400, 'Send {"title": "…"}, at most 200 characters.');
  const book = await addBook(title);
  const revalidation = await revalidatePages(res, ['/catalog']);
  if (!revalidation.ok) return sendRevalidationFailure(req, res, revalidation);
  sendJson(res, 201, { ...book, revalidated: revalidation.revalidated, skipped: revalidation.skipped });
});
