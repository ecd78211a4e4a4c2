// Ports for the servers the tests start, all on loopback. Node runs this file as it is (tests/product/services.ts).
import { createServer } from 'node:net';

/**
 * A port nothing listens on now, below the range Linux hands out to clients (32768–60999). The tests poll a server's
 * port while it starts; a client connecting to a port in that range can get the same port as its own source and
 * connect to itself (TCP simultaneous open), and the server that starts next on it then fails with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
