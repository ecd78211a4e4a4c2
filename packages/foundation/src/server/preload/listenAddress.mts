// Next names its own origin after HOSTNAME (initURL, next/dist/server/lib/router-utils/resolve-routes.js), while its
// NextURL calls every loopback address `localhost` (next/dist/server/web/next-url.js). On 127.0.0.1 or ::1 the proxy's
// rewrites to the status pages looked external, and Next proxied them to http://localhost:<port>, which need not
// answer. So Next is told `localhost`, and its server binds the address asked for.
import http from 'node:http';
import type { Logger } from 'pino';
import { tellNext } from '../../config/settings.mts';
import { listenBacklog } from './connections.mts';

/** The address to bind when HOSTNAME is a loopback address (Next is then told `localhost`), else undefined. */
export function loopbackAddressOf(hostname: string): string | undefined {
  return /^(?:127(?:\.\d{1,3}){3}|::1|\[::1\])$/.test(hostname) ? hostname.replace(/^\[(.*)\]$/, '$1') : undefined;
}

/** Listen errors that mean HOSTNAME is not an address of this machine. */
const notOurAddress = new Set(['EADDRNOTAVAIL', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME']);

/**
 * Every server Next opens listens where HOSTNAME asks, and is handed to `opened` first; a HOSTNAME that is no address
 * of this machine stops the process with the sentence that says what to set.
 */
export function listenWhereAsked(hostname: string, log: Logger, opened: (server: http.Server) => void): void {
  const loopbackAddress = loopbackAddressOf(hostname);
  if (loopbackAddress) tellNext({ HOSTNAME: 'localhost' });
  const listen = http.Server.prototype.listen;
  http.Server.prototype.listen = function listenAsAsked(this: http.Server, ...args: unknown[]) {
    opened(this);
    if (loopbackAddress && args[1] === 'localhost') args[1] = loopbackAddress;
    // Next listens with (port, hostname), hostname undefined for every interface: Node's default backlog, 511.
    if (args.length === 2 && typeof args[0] === 'number') args.push(listenBacklog);
    // First: Next's own listener exits at once, with its error's stack.
    this.prependOnceListener('error', (error: NodeJS.ErrnoException) => {
      if (!notOurAddress.has(error.code ?? '')) return;
      log.fatal(
        `Configuration error: HOSTNAME=${hostname} is no address of this machine (${error.code}): set it to one of its addresses or names, to localhost, or leave it unset for every interface.`,
      );
      process.exit(1);
    });
    return listen.apply(this, args as Parameters<typeof listen>);
  } as typeof listen;
}
