// Regenerates cached pages after a route changed their data, for every instance: the product's own API routes and the
// foundation's POST /api/revalidate alike (docs/build-your-product.md, step 4f; docs/scaling-out.md).
import type { NextApiRequest, NextApiResponse } from 'next';
import { sendJsonError } from './api';
import { failedPageCacheWrites, pageCacheStatus } from './pageCache/status';
import { renderedItself } from './revalidationWrites';

/** Seconds a caller should wait before trying a revalidation again that did not reach every instance. */
const retryAfterSeconds = 5;

/** What `revalidatePages` did, for the route to answer with. */
export type Revalidation =
  /** Every page was regenerated and the shared page cache took it; under `next dev` none, and `skipped` says why. */
  { ok: true; revalidated: string[]; skipped?: string } | RevalidationFailure;

/** A page not regenerated for every instance: the route answers `status` with `message` (`sendRevalidationFailure`). */
export interface RevalidationFailure {
  ok: false;
  /** 400: no page answers the path, or it redirects; 503: try again after `retryAfterSeconds`. */
  status: 400 | 503;
  message: string;
  retryAfterSeconds?: number;
}

/**
 * Regenerates each page (`/invoices/3`) in turn, as `res.revalidate()` does, with what it lacks: under `next dev`,
 * where Next renders every page anew, nothing to do instead of a 500; a second render when Next answered with a
 * regeneration of the page that had started before the data changed; and a failure when Redis did not take the new
 * page, which the other instances would then never see. Stops at the first page that fails.
 */
export async function revalidatePages(res: NextApiResponse, paths: readonly string[]): Promise<Revalidation> {
  // `next dev` sets NODE_ENV to development; there Next has no page cache, and its revalidate() answers 500.
  if (process.env.NODE_ENV === 'development') {
    return { ok: true, revalidated: [], skipped: 'next dev renders every page anew: there is nothing to revalidate.' };
  }
  for (const path of paths) {
    const failed = await revalidatePage(res, path);
    if (failed) return failed;
  }
  return { ok: true, revalidated: [...paths] };
}

async function revalidatePage(res: NextApiResponse, path: string): Promise<RevalidationFailure | undefined> {
  const failedWrites = failedPageCacheWrites();
  let rendered: boolean;
  try {
    // Next renders the page again in this instance and writes it to the page cache, which every instance reads. It
    // may join a regeneration of the page that started before this request, from the data before the update: once
    // that one has ended, the page is rendered again.
    const revalidation = () => res.revalidate(path);
    rendered = (await renderedItself(revalidation)) || (await renderedItself(revalidation));
  } catch (error) {
    // Next's own words for what the page answered instead of a page (next-server.js revalidate()).
    const status = error instanceof Error ? Number(/Invalid response (\d{3})$/.exec(error.message)?.[1]) : NaN;
    if (status === 404) return { ok: false, status: 400, message: `No page of the app answers ${path}.` };
    if (status >= 300 && status < 400) {
      return { ok: false, status: 400, message: `${path} redirects: revalidate the path it redirects to.` };
    }
    throw error;
  }
  if (!rendered) {
    return {
      ok: false,
      status: 503,
      retryAfterSeconds,
      message: `${path} was not regenerated: twice, a regeneration of it that had started earlier answered instead. Try again in ${retryAfterSeconds} seconds.`,
    };
  }
  // The new page did not reach Redis (unavailable, or it refused the write): the other instances still serve the old
  // one, so this is not a success.
  const status = pageCacheStatus();
  if (failedPageCacheWrites() !== failedWrites || status === 'redis-unavailable') {
    const why =
      status === 'redis-unavailable' ? 'is unavailable' : 'refused the write (see the server log for its reason)';
    return {
      ok: false,
      status: 503,
      retryAfterSeconds,
      message: `${path} was regenerated on this instance only: the shared page cache (Redis) ${why}. Try again in ${retryAfterSeconds} seconds.`,
    };
  }
  return undefined;
}

/** Answers a failed revalidation: its status and sentence as JSON, with `Retry-After` when trying again may work. */
export function sendRevalidationFailure(req: NextApiRequest, res: NextApiResponse, failed: RevalidationFailure): void {
  if (failed.retryAfterSeconds) res.setHeader('Retry-After', String(failed.retryAfterSeconds));
  sendJsonError(req, res, failed.status, failed.message);
}
