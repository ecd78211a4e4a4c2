import type { IncomingMessage } from 'node:http';
import { captureException, withScope } from '@sentry/nextjs';
import type { NextApiHandler, NextApiRequest, NextApiResponse } from 'next';
import { serverSettings } from '../config/settings.mts';
import { loggedUrl } from '../observability/privacy/urls.mts';
import { serverLogger } from '../observability/server/log.mts';

/** The id the proxy gave this request (src/proxy.ts); quoted in error bodies so support can find the log line. */
export function requestIdOf(req: IncomingMessage): string | undefined {
  const id = req.headers['x-request-id'];
  return typeof id === 'string' ? id : undefined;
}

/** Every API answer, errors included, is JSON. */
export function sendJson(res: NextApiResponse, status: number, body: unknown): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/** The body as UTF-8 text, or undefined as soon as it grows past `maxBytes` (the rest is left unread). */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJsonError(req: NextApiRequest, res: NextApiResponse, status: number, message: string): void {
  sendJson(res, status, { error: { status, message, requestId: requestIdOf(req) } });
}

/**
 * An API route that answers only the given methods (405 JSON with Allow otherwise) and answers
 * JSON 500 when the handler throws, instead of Next's plain-text page.
 */
export function apiRoute(methods: readonly string[], handler: NextApiHandler): NextApiHandler {
  return async (req, res) => {
    if (!methods.includes(req.method ?? '')) {
      res.setHeader('Allow', methods.join(', '));
      return sendJsonError(
        req,
        res,
        405,
        `Method ${req.method ?? ''} is not allowed here. Allowed: ${methods.join(', ')}.`,
      );
    }
    try {
      await handler(req, res);
    } catch (error) {
      // Answered here, so Next's onRequestError never sees it: report it ourselves.
      withScope((scope) => {
        scope.setTag('request_id', requestIdOf(req));
        captureException(error, { mechanism: { type: 'auto.function.nextjs.api_route', handled: false } });
      });
      serverLogger().error(
        { err: error, request_id: requestIdOf(req) },
        `API route ${loggedUrl(req.url ?? '', serverSettings().collectPersonalData)} failed`,
      );
      if (!res.headersSent) sendJsonError(req, res, 500, 'The server failed to answer this request.');
      else res.end();
    }
  };
}
