import type { NextApiHandler } from 'next';
import { serverSettings } from '../../config/settings.mts';
import type { Product } from '../../product';
import { apiRoute, readBody, sendJson, sendJsonError } from '../../server/api';
import { pagesOfBuild } from '../../server/cachedPages';
import { bearerMatches, maxRevalidatePathLength, revalidationRequest } from '../../server/revalidation';
import { revalidatePages, sendRevalidationFailure } from '../../server/revalidatePages';

/** Largest body read: a path of the longest length, with room for the JSON around it. */
const maxBodyBytes = maxRevalidatePathLength * 4 + 256;

const revalidation = ({ slugRules }: Pick<Product<unknown>, 'slugRules'>) =>
  apiRoute(['POST'], async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const secret = serverSettings().revalidateSecret!;
    if (!bearerMatches(req.headers.authorization, secret)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJsonError(req, res, 401, 'Send the secret REVALIDATE_SECRET as Authorization: Bearer <secret>.');
    }
    const body = await readBody(req, maxBodyBytes);
    if (body === undefined) return sendJsonError(req, res, 413, `The body is larger than ${maxBodyBytes} bytes.`);
    const pages = pagesOfBuild();
    if (!pages) {
      return sendJsonError(req, res, 404, 'Revalidation needs a production build: next dev renders every page anew.');
    }
    const request = revalidationRequest(body, pages, slugRules);
    if ('problem' in request) return sendJsonError(req, res, 400, request.problem);
    const revalidation = await revalidatePages(res, [request.path]);
    if (!revalidation.ok) return sendRevalidationFailure(req, res, revalidation);
    sendJson(res, 200, { revalidated: request.path });
  });

/**
 * POST /api/revalidate {"path": "/examples/generated"}: regenerates that page for every instance. The app's
 * pages/api/revalidate.ts exports `revalidationRouteFor(product)`, whose slug rules it keeps to.
 */
export function revalidationRouteFor(product: Pick<Product<unknown>, 'slugRules'>): NextApiHandler {
  const revalidate = revalidation(product);
  return (req, res) =>
    serverSettings().revalidateSecret
      ? revalidate(req, res)
      : sendJsonError(req, res, 404, 'No API route answers this path.');
}
