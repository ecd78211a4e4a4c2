import type { IncomingMessage } from 'node:http';
import type { NextApiHandler } from 'next';
import { sendJsonError } from '@web-foundation/foundation/api';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request may change something: a safe method, or sent by one of this site's own pages. */
export function fromOwnPages(req: IncomingMessage): boolean {
  if (safeMethods.has(req.method ?? 'GET')) return true;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  return URL.parse(origin)?.host === req.headers.host;
}

/** The API route, with a JSON 403 for an unsafe request from another site. */
export function sameOriginOnly(handler: NextApiHandler): NextApiHandler {
  return (req, res) =>
    fromOwnPages(req)
      ? handler(req, res)
      : sendJsonError(req, res, 403, 'Requests from other sites are refused: use this site’s own pages.');
}
