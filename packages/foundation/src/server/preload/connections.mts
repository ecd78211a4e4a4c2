// What one connection, and all of them together, may hold, and how a connection closes after an answer the preload
// sends itself.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connectionShare, heldByNetwork, networkOf } from './networks.mts';
import type { Refusal } from './requests.mts';

/** The rest of a refused body is read and dropped up to this size: nginx forwards up to 1 MB (client_max_body_size). */
const drainedBodyBytes = 1024 * 1024;
/** How long a client may go on sending a refused body (nginx's lingering_timeout); then it is cut off. */
const refusedBodyLingerMs = 5000;
/** How long a new connection may stay silent: clients, and proxies, send their request as soon as they connect. */
const firstByteMs = 3000;
/**
 * How long a request's headers may take to arrive whole: a connection's first request from the connection's opening,
 * a later one from its own first byte. A browser sends its headers in one write, whole within a round trip; 5 s leaves
 * room for one lost segment on a slow mobile link (an 800 ms round trip retransmits after about 2.4 s).
 */
export const wholeHeadersMs = 5000;
/**
 * How many connections the kernel keeps waiting for the process to accept them (Node's default is 511). It caps the
 * value at net.core.somaxconn (4,096 since Linux 5.4): past it, a new client's handshake is dropped and retried only
 * after a second, which is what a busy event loop under a flood did to other clients.
 */
export const listenBacklog = 4096;

/** Connections the preload has refused a request on: nothing they carry after it is served. */
const refusedConnections = new WeakSet<Socket>();
/** Connections whose first request has arrived whole (Node's own deadline takes the later ones). */
const heardConnections = new WeakSet<Socket>();

/** Marks a connection's request (or upgrade) as arrived whole: its headers are no longer awaited. */
export const heardFrom = (req: IncomingMessage): void => void heardConnections.add(req.socket);

/** Whether a request arrived behind one the preload refused on its connection (the client pipelined it). */
export const followsRefusal = (req: IncomingMessage): boolean => refusedConnections.has(req.socket);

/** Stops reading a connection for good: Node's parser resumes reading after each request and each read of a body. */
function stopReading(socket: Socket): void {
  socket.pause();
  socket.resume = () => socket;
}

/**
 * Drops a request that follows a refusal on its connection, neither run nor answered, and stops reading the
 * connection: it closes after the refusal's answer (closeAfterAnswer), so nothing more it carries is for anyone.
 */
export function dropAfterRefusal(req: IncomingMessage): true {
  stopReading(req.socket);
  return true;
}

/**
 * After an answer that says `Connection: close`, the connection closes as RFC 9112 §9.6 asks: the server's side ends
 * at once, the body still coming is read and dropped up to drainedBodyBytes (a larger one stays unread: TCP holds the
 * client back), and the socket closes when the client has closed its side or, at the latest, after the linger. Closing
 * at once would reset the connection under a client still sending, and it could lose the answer.
 */
export function closeAfterAnswer(req: IncomingMessage): void {
  const { socket } = req;
  if (socket.destroyed) return;
  refusedConnections.add(socket);
  // Node would destroy the socket as soon as the answer is written (resOnFinish); ending it keeps the read side open.
  socket.destroySoon = () => socket.end();
  // Node would otherwise read all of the body to drop it (req._dump()).
  const chunked = req.headers['transfer-encoding'] !== undefined;
  if ((chunked ? Infinity : Number(req.headers['content-length'] ?? 0)) > drainedBodyBytes) stopReading(socket);
  const cutOff = setTimeout(() => socket.destroy(), refusedBodyLingerMs).unref();
  socket.once('close', () => clearTimeout(cutOff));
  req.once('end', () => socket.end());
}

/** Sends a plain-text refusal and closes the connection: some of the request may be unread. */
export function sendRefusal(res: ServerResponse, { status, text, headers = {} }: Refusal): true {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close', ...headers });
  res.end(text);
  closeAfterAnswer(res.req);
  return true;
}

/**
 * Next 16 answers an upgrade (a WebSocket) only on a route that takes one, which no page or API route does, and leaves
 * any other open: each held a socket until the process ran out of file descriptors. So every upgrade is answered 404,
 * as no resource here speaks another protocol (426 would ask the client to switch protocols, which it just tried),
 * and closed.
 */
export function refuseUpgrade(socket: Duplex): true {
  const text = 'No resource here takes an upgrade.';
  socket.on('error', () => undefined);
  socket.end(
    `HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${text.length}\r\n` +
      `Connection: close\r\n\r\n${text}`,
  );
  const cutOff = setTimeout(() => socket.destroy(), refusedBodyLingerMs).unref();
  socket.once('close', () => clearTimeout(cutOff));
  return true;
}

/** The process's limit on open files (Linux /proc), or Infinity where it cannot be read. */
function openFileLimit(): number {
  try {
    return Number(/^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1] ?? Infinity);
  } catch {
    return Infinity;
  }
}

/**
 * Every connection's life, each network's connections and all of them together are bounded
 * (docs/reliability-and-security.md, "Connections"): Node's defaults give a request 5 minutes to arrive and let a
 * silent socket live forever.
 */
export function boundConnections(server: Server): void {
  server.headersTimeout = wholeHeadersMs;
  server.requestTimeout = 30_000;
  // Node checks the two above on a sweep, every 30 s by default, so a request could take 30 s more than they allow.
  // An option of createServer (Next creates the server), read from the server when it starts listening.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = 1000;
  // Past this, new connections are closed at once; below the file limit, so that the process can still open files
  // and reach Redis and the ingest.
  server.maxConnections = Math.max(64, Math.min(4096, openFileLimit() - 512));
  const share = connectionShare(server.maxConnections);
  const openByNetwork = heldByNetwork();
  server.on('connection', (socket: Socket) => {
    // A peer that has already gone has no address: there is nothing to serve.
    if (socket.remoteAddress === undefined) return void socket.destroy();
    const network = networkOf(socket.remoteAddress);
    // Over its network's share, a connection is closed before it is read: one network cannot lock the others out.
    if (openByNetwork.of(network) >= share) return void socket.destroy();
    openByNetwork.add(network, 1);
    // A connection that has said nothing, or is still sending its first request's headers, is closed: until then it
    // takes a place among maxConnections, and one client opening thousands, or trickling their headers a byte at a
    // time, locked everyone else out. Node's own headers timeout counts from the first byte, which a client can delay.
    const closeUnlessHeard = () => {
      if (!heardConnections.has(socket)) socket.destroy();
    };
    let deadline = setTimeout(() => {
      if (socket.bytesRead === 0) socket.destroy();
      else if (!heardConnections.has(socket))
        deadline = setTimeout(closeUnlessHeard, wholeHeadersMs - firstByteMs).unref();
    }, firstByteMs).unref();
    socket.once('close', () => {
      clearTimeout(deadline);
      openByNetwork.add(network, -1);
    });
  });
  // A socket silent both ways for 2 minutes is closed, an answer in progress included.
  server.setTimeout(120_000, (socket) => socket.destroy());
  server.maxRequestsPerSocket = 1000;
}
