import type { NextApiHandler } from 'next';
import { serverEnv } from '../../config/env';
import { apiRoute, sendJson, sendJsonError } from '../../server/api';
import { pageCacheStatus } from '../../server/pageCacheStatus';
import { bearerMatches, maxRevalidatePathLength, revalidationRequest } from '../../server/revalidation';

// The body is read here, bounded, so that malformed JSON gets this route's JSON 400 instead of Next's text.
export const config = { api: { bodyParser: false } };

/** Largest body read: a path of the longest length, with room for the JSON around it. */
const maxBodyBytes = maxRevalidatePathLength * 4 + 256;

async function readBody(req: Parameters<NextApiHandler>[0]): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBodyBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const revalidate = apiRoute(['POST'], async (req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  const secret = serverEnv().revalidateSecret!;
  if (!bearerMatches(req.headers.authorization, secret)) {
    res.setHeader('WWW-Authenticate', 'Bearer');
    return sendJsonError(req, res, 401, 'Send the secret REVALIDATE_SECRET as Authorization: Bearer <secret>.');
  }
  const body = await readBody(req);
  if (body === undefined) return sendJsonError(req, res, 413, `The body is larger than ${maxBodyBytes} bytes.`);
  const request = revalidationRequest(body);
  if ('problem' in request) return sendJsonError(req, res, 400, request.problem);
  try {
    // Next renders the page again in this instance and writes it to the page cache, which every instance reads.
    await res.revalidate(request.path);
  } catch (error) {
    // Next's own words for a path that no page answers (api-resolver.js); anything else is a failure of ours.
    if (error instanceof Error && /Invalid response 404$/.test(error.message)) {
      return sendJsonError(req, res, 400, `No page of the app answers ${request.path}.`);
    }
    throw error;
  }
  // The new page reached only this instance's own copy: the caller should try again once Redis is back.
  if (pageCacheStatus() === 'redis-unavailable') {
    res.setHeader('Retry-After', '5');
    return sendJsonError(
      req,
      res,
      503,
      `${request.path} was regenerated on this instance only: the shared page cache (Redis) is unavailable. Try again.`,
    );
  }
  sendJson(res, 200, { revalidated: request.path });
});

/** POST /api/revalidate {"path": "/examples/generated"}: regenerates that page for every instance. */
const handler: NextApiHandler = (req, res) =>
  serverEnv().revalidateSecret ? revalidate(req, res) : sendJsonError(req, res, 404, 'No API route answers this path.');

export default handler;
