import type { NextApiHandler } from 'next';
import { serverSettings } from '../../config/settings.mts';
import type { Product } from '../../product';
import { apiRoute, readBody, sendJson, sendJsonError } from '../../server/api';
import { failedPageCacheWrites, pageCacheStatus } from '../../server/pageCache/status';
import { pagesOfBuild } from '../../server/cachedPages';
import { bearerMatches, maxRevalidatePathLength, revalidationRequest } from '../../server/revalidation';
import { renderedItself } from '../../server/revalidationWrites';

/** Largest body read: a path of the longest length, with room for the JSON around it. */
const maxBodyBytes = maxRevalidatePathLength * 4 + 256;

/** Seconds a caller should wait before trying a revalidation again that did not reach every instance. */
const retryAfterSeconds = 5;

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
    const failedWrites = failedPageCacheWrites();
    let rendered: boolean;
    try {
      // Next renders the page again in this instance and writes it to the page cache, which every instance reads. It
      // may join a regeneration of the page that started before this request, from the data before the update: once
      // that one has ended, the page is rendered again.
      const revalidation = () => res.revalidate(request.path);
      rendered = (await renderedItself(revalidation)) || (await renderedItself(revalidation));
    } catch (error) {
      // Next's own words for what the page answered instead of a page (next-server.js revalidate()).
      const status = error instanceof Error ? Number(/Invalid response (\d{3})$/.exec(error.message)?.[1]) : NaN;
      if (status === 404) return sendJsonError(req, res, 400, `No page of the app answers ${request.path}.`);
      if (status >= 300 && status < 400) {
        return sendJsonError(req, res, 400, `${request.path} redirects: revalidate the path it redirects to.`);
      }
      throw error;
    }
    if (!rendered) {
      res.setHeader('Retry-After', String(retryAfterSeconds));
      return sendJsonError(
        req,
        res,
        503,
        `${request.path} was not regenerated: twice, a regeneration of it that had started earlier answered instead. Try again in ${retryAfterSeconds} seconds.`,
      );
    }
    // The new page did not reach Redis (unavailable, or it refused the write): the other instances still serve the old
    // one, so this is not a success. The caller should try again.
    const status = pageCacheStatus();
    if (failedPageCacheWrites() !== failedWrites || status === 'redis-unavailable') {
      const why =
        status === 'redis-unavailable' ? 'is unavailable' : 'refused the write (see the server log for its reason)';
      res.setHeader('Retry-After', String(retryAfterSeconds));
      return sendJsonError(
        req,
        res,
        503,
        `${request.path} was regenerated on this instance only: the shared page cache (Redis) ${why}. Try again in ${retryAfterSeconds} seconds.`,
      );
    }
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
