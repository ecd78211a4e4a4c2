// Request bodies: refused unread when too large, held until whole before Next or the SDK sees the request, and bounded
// together. Next holds a request's body in memory for the proxy, whole, before any route runs; past its limit it drops
// the rest and passes the route what it kept, and it answers nothing until the body has ended (docs/architecture.md,
// "Request bodies"). So a larger body is refused here, unread.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { requestIdFor } from '../requestId.mts';
import { closeAfterAnswer } from './connections.mts';
import { hideFromSdk, showToSdk } from './sdkMark.mts';

/** A refused body's JSON error, in the API routes' form (src/server/api.ts): only API routes take bodies. */
export interface BodyRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * All request bodies the server holds at once, in bytes: those arriving and those a route has yet to finish with.
 * 256 bodies of the largest size; a request whose body would go past it gets 503 and its connection is closed.
 */
export const heldBodyBytesLimit = 256 * 64 * 1024;

const tooLarge = (maxBodyBytes: number): BodyRefusal => ({
  status: 413,
  message: `The body is larger than ${maxBodyBytes} bytes, the most this server accepts.`,
});
const serverFull: BodyRefusal = {
  status: 503,
  message: 'The server is holding as many request bodies as it can; try again in a second.',
  headers: { 'Retry-After': '1' },
};

export const hasBody = (headers: IncomingHttpHeaders): boolean =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/** Why a body is refused before it is read, or undefined when it may be read (a chunked one is counted as it comes). */
export function bodyRefusal(headers: IncomingHttpHeaders, maxBodyBytes: number): BodyRefusal | undefined {
  return Number(headers['content-length'] ?? 0) > maxBodyBytes ? tooLarge(maxBodyBytes) : undefined;
}

/**
 * Why the next chunk of a body is refused, or undefined when it may be held: `bodyBytes` of this body and `heldBytes`
 * of all bodies are held already.
 */
export function chunkRefusal(
  { bodyBytes, heldBytes, chunkBytes }: { bodyBytes: number; heldBytes: number; chunkBytes: number },
  { maxBodyBytes, heldLimit = heldBodyBytesLimit }: { maxBodyBytes: number; heldLimit?: number },
): BodyRefusal | undefined {
  if (bodyBytes + chunkBytes > maxBodyBytes) return tooLarge(maxBodyBytes);
  if (heldBytes + chunkBytes > heldLimit) return serverFull;
  return undefined;
}

/** Answers a refused body with the API routes' JSON error and closes the connection. */
export function refuseBody(req: IncomingMessage, res: ServerResponse, { status, message, headers = {} }: BodyRefusal) {
  const requestId = requestIdFor(req.headers['x-request-id'] as string | undefined);
  // Set, not passed to writeHead: the access log and the request's transaction read it back.
  res.setHeader('X-Request-Id', requestId);
  // Some of the body is unread: the connection cannot carry another request (RFC 9112 §9.6).
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'close',
    ...headers,
  });
  res.end(JSON.stringify({ error: { status, message, requestId } }));
  closeAfterAnswer(req);
  return true;
}

/**
 * A request with a body reaches the SDK and Next once the body has arrived whole, counted as it comes: past the limit
 * it gets 413 at once, past what all bodies together may hold 503, and a client that goes away mid-body costs nothing
 * more (Next would have read the body itself, rendered its error page for the aborted read and reported it; the SDK
 * would have opened a trace and a span for it). Chunked bodies are taken so too: their size is known only as they come.
 */
export function holdBodiesUntilWhole(maxBodyBytes: number) {
  let heldBytes = 0;
  /** Requests whose body has arrived whole and that go on to Next unchecked. */
  const whole = new WeakSet<IncomingMessage>();
  hideFromSdk((req) => hasBody(req.headers));

  function hold(server: Server, req: IncomingMessage, res: ServerResponse): true {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let refused = false;
    const push = req.push;
    const release = () => {
      heldBytes -= bytes;
      bytes = 0;
    };
    // A client that ends its side mid-body has gone: close now, before Node answers 400 to no one and builds an error
    // for the request it can no longer finish.
    const socket = req.socket;
    const gone = () => {
      req.destroy();
      socket.destroy();
    };
    socket.prependOnceListener('end', gone);
    const deliver = () => {
      socket.removeListener('end', gone);
      req.push = push;
      res.once('close', release);
      // Through the server's own emit again, which the SDK wraps: it starts the request's trace now.
      showToSdk(req);
      whole.add(req);
      server.emit('request', req, res);
      for (const chunk of chunks) push.call(req, chunk);
      push.call(req, null);
    };
    req.once('close', () => {
      if (!req.complete) release();
    });
    req.push = function holdUntilWhole(chunk: Buffer | string | null, encoding?: BufferEncoding) {
      // The rest of a refused body is left unread, its size unknown: TCP holds the client back until the linger ends.
      if (refused) return false;
      if (chunk === null) {
        deliver();
        return false;
      }
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
      const refusal = chunkRefusal({ bodyBytes: bytes, heldBytes, chunkBytes: buffer.length }, { maxBodyBytes });
      if (refusal) {
        refused = true;
        socket.removeListener('end', gone);
        release();
        chunks.length = 0;
        refuseBody(req, res, refusal);
        return true;
      }
      chunks.push(buffer);
      bytes += buffer.length;
      heldBytes += buffer.length;
      return true;
    };
    return true;
  }

  return { hold, isWhole: (req: IncomingMessage) => whole.has(req) };
}
