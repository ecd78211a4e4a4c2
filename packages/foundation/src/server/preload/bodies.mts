// Request bodies: refused unread when too large, held until whole before Next or the SDK sees the request (only where a
// route reads them; anywhere else dropped as they arrive), and bounded together. Next holds a request's body in memory
// for the proxy, whole, before any route runs; past its limit it drops the rest and passes the route what it kept, and
// it answers nothing until the body has ended (docs/architecture.md, "Request bodies"). So a larger body is refused
// here, unread.
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { apiRoutePrefix } from '../../config/specification.mts';
import type { AddressBlock } from '../../config/trustedProxies.mts';
import { requestIdFor } from '../requestId.mts';
import { closeAfterAnswer } from './connections.mts';
import { bodyNetwork, heldByNetwork } from './networks.mts';
import { hideFromSdk, showToSdk } from './sdkMark.mts';

/**
 * A refused body's JSON error, in the API routes' form (packages/foundation/src/server/api.ts): only API routes take
 * bodies.
 */
export interface BodyRefusal {
  status: number;
  message: string;
  headers?: Record<string, string>;
}

/**
 * All request bodies the server holds at once, in bytes: those arriving and those a route has yet to read. 256 bodies
 * of the largest size; a request whose body would go past it gets 503 and its connection is closed.
 */
export const heldBodyBytesLimit = 256 * 64 * 1024;

/**
 * What the bodies still arriving from one network (bodyNetwork) may hold: a quarter of all, 64 bodies of the largest
 * size, so that no one client, nor one holding a block of addresses, can refuse everyone's bodies
 * (docs/reliability-and-security.md, "Connections").
 */
export const networkArrivingBytesLimit = heldBodyBytesLimit / 4;

/**
 * The most pieces a body may arrive in: chunks of a chunked body, or reads of one with a length. Node's parser hands
 * each to JavaScript on its own, so a piece of one byte costs as much work as a large one. 64 bytes on average for the
 * largest body; a body over TCP from a client that does not dribble it arrives in far fewer.
 */
export const maxBodyPieces = 1024;

const tooManyPieces: BodyRefusal = {
  status: 413,
  message: `The body arrived in more than ${maxBodyPieces} pieces, the most this server accepts: send it in larger ones.`,
};
const tooLarge = (maxBodyBytes: number): BodyRefusal => ({
  status: 413,
  message: `The body is larger than ${maxBodyBytes} bytes, the most this server accepts.`,
});
const serverFull: BodyRefusal = {
  status: 503,
  message: 'The server is holding as many request bodies as it can; try again in a second.',
  headers: { 'Retry-After': '1' },
};
const networkFull: BodyRefusal = {
  status: 503,
  message:
    "The server is holding as many request bodies from this client's network as it takes from one; try again in a second.",
  headers: { 'Retry-After': '1' },
};

export const hasBody = (headers: IncomingHttpHeaders): boolean =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * Whether the route a request goes to reads its body: an API route (Next's own test, next/dist/lib/is-api-route), asked
 * with a method that carries one. Pages, page data, public files, static assets and the image optimiser never read a
 * body, nor does anything on GET or HEAD; Next would answer them as if they had none (a page 405 to a method it does
 * not take), so the body is dropped rather than refused: a client that sends one loses nothing it could have used.
 */
export function routeReadsBody(method: string, target: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  const path = target.split('?', 1)[0]!;
  return path === apiRoutePrefix || path.startsWith(`${apiRoutePrefix}/`);
}

/** Why a body is refused before it is read, or undefined when it may be read (a chunked one is counted as it comes). */
export function bodyRefusal(headers: IncomingHttpHeaders, maxBodyBytes: number): BodyRefusal | undefined {
  return Number(headers['content-length'] ?? 0) > maxBodyBytes ? tooLarge(maxBodyBytes) : undefined;
}

/**
 * Why the next piece of a body is refused, or undefined when it may be held. `pieces` and `bodyBytes` are the body's
 * with the piece, `moreBytes` what holding it adds to the memory held (0 while the body's buffer has room, and always
 * for a body that is dropped), `heldBytes` what all bodies hold already and `networkBytes` what the bodies still
 * arriving from the client's network hold.
 */
export function chunkRefusal(
  {
    pieces,
    bodyBytes,
    moreBytes,
    heldBytes,
    networkBytes,
  }: { pieces: number; bodyBytes: number; moreBytes: number; heldBytes: number; networkBytes: number },
  {
    maxBodyBytes,
    heldLimit = heldBodyBytesLimit,
    networkLimit = networkArrivingBytesLimit,
  }: { maxBodyBytes: number; heldLimit?: number; networkLimit?: number },
): BodyRefusal | undefined {
  if (bodyBytes > maxBodyBytes) return tooLarge(maxBodyBytes);
  if (pieces > maxBodyPieces) return tooManyPieces;
  if (networkBytes + moreBytes > networkLimit) return networkFull;
  if (heldBytes + moreBytes > heldLimit) return serverFull;
  return undefined;
}

/**
 * How large a body's buffer is to grow to hold `bodyBytes`: twice what it had, up to the declared length or, for a
 * chunked body, the most a body may be. Never the declared length at once: a client that declares 64 KB and sends one
 * byte would hold 64 KB for one byte sent, so the memory held is what arrived, at most twice over.
 */
export function bufferBytes(
  { bodyBytes, capacity, declared }: { bodyBytes: number; capacity: number; declared: number | undefined },
  maxBodyBytes: number,
): number {
  return Math.min(declared ?? maxBodyBytes, Math.max(bodyBytes, 2 * capacity));
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
 * it gets 413 at once, past what all bodies together (or one network's still arriving) may hold 503, and a client that
 * goes away mid-body costs nothing more (Next would have read the body itself, rendered its error page for the aborted
 * read and reported it; the SDK would have opened a trace and a span for it). Chunked bodies are taken so too: their
 * size is known only as they come. Each body is copied into one buffer, and that buffer is what is counted: Node's
 * parser hands over every chunk as a Buffer of its own, whose overhead dwarfs a small chunk (figures:
 * docs/reliability-and-security.md, "Connections"). The buffer leaves the count once the route has read it (the request
 * has ended), not when the answer has gone: a client that reads its answer slowly holds no body. A body no route reads
 * (`keep` false) is checked for its size and pieces as it comes and dropped: it holds and counts nothing.
 */
export function holdBodiesUntilWhole(maxBodyBytes: number, trustedProxies?: readonly AddressBlock[]) {
  let heldBytes = 0;
  /** The bytes of bodies still arriving, by network (bodyNetwork). */
  const arrivingBytes = heldByNetwork();
  /** Requests whose body has arrived whole and that go on to Next unchecked. */
  const whole = new WeakSet<IncomingMessage>();
  hideFromSdk((req) => hasBody(req.headers));

  function hold(server: Server, req: IncomingMessage, res: ServerResponse, keep: boolean): true {
    const forwardedFor = req.headers['x-forwarded-for'] as string | undefined;
    const network = bodyNetwork(req.socket.remoteAddress ?? '', forwardedFor, trustedProxies);
    const declared = req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : undefined;
    let body = Buffer.alloc(0);
    let bytes = 0;
    let pieces = 0;
    let refused = false;
    const push = req.push;
    /** The body is no longer arriving: it leaves its network's share. */
    const arrived = () => arrivingBytes.add(network, -body.length);
    const release = () => {
      heldBytes -= body.length;
      body = Buffer.alloc(0);
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
      arrived();
      // Read by the route, or never to be: Next reads a body for the proxy and the API route before either runs.
      req.once('end', release);
      res.once('close', release);
      // Through the server's own emit again, which the SDK wraps: it starts the request's trace now.
      showToSdk(req);
      whole.add(req);
      server.emit('request', req, res);
      if (keep && bytes > 0) push.call(req, body.subarray(0, bytes));
      push.call(req, null);
    };
    req.once('close', () => {
      if (req.complete) return;
      arrived();
      release();
    });
    req.push = function holdUntilWhole(chunk: Buffer | string | null, encoding?: BufferEncoding) {
      // The rest of a refused body is left unread, its size unknown: TCP holds the client back until the linger ends.
      if (refused) return false;
      if (chunk === null) {
        deliver();
        return false;
      }
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk;
      pieces += 1;
      const bodyBytes = bytes + buffer.length;
      const capacity =
        keep && bodyBytes > body.length
          ? bufferBytes({ bodyBytes, capacity: body.length, declared }, maxBodyBytes)
          : body.length;
      const moreBytes = capacity - body.length;
      const networkBytes = arrivingBytes.of(network);
      const refusal = chunkRefusal({ pieces, bodyBytes, moreBytes, heldBytes, networkBytes }, { maxBodyBytes });
      if (refusal) {
        refused = true;
        socket.removeListener('end', gone);
        arrived();
        release();
        refuseBody(req, res, refusal);
        return true;
      }
      if (moreBytes > 0) {
        // Never from Buffer's shared pool: a small slice of it would keep the whole pool alive.
        const grown = Buffer.allocUnsafeSlow(capacity);
        body.copy(grown, 0, 0, bytes);
        body = grown;
        heldBytes += moreBytes;
        arrivingBytes.add(network, moreBytes);
      }
      if (keep) buffer.copy(body, bytes);
      bytes = bodyBytes;
      return true;
    };
    return true;
  }

  return { hold, isWhole: (req: IncomingMessage) => whole.has(req) };
}
