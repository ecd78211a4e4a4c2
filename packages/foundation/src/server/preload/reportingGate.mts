// Requests that reach the server before its reporting has started wait for it. Next listens first and runs the app's
// register() (instrumentation.ts, which starts Sentry) after; under `next dev` that takes seconds (it compiles the
// instrumentation first), and the SDK traces a request only from the moment it arrives: the developer's first request
// never reached Spotlight. Preloaded by `npm run dev` (scripts/dev.mjs); register() opens the gate
// (../startup.ts), whatever its outcome.
import diagnosticsChannel from 'node:diagnostics_channel';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';

const opener = Symbol.for('web-foundation.openRequestGate');
type WithOpener = typeof globalThis & { [opener]?: () => void };

/** Node's own message for a request's start, which the SDK listens to: published again when a held request goes on. */
const requestStart = diagnosticsChannel.channel('http.server.request.start');

/**
 * Holds each request the server's processes take until `openRequestGate()` runs, or `maxWaitMs` passed (an app whose
 * register() never runs is served all the same).
 */
export function holdRequestsUntilReporting(maxWaitMs: number): void {
  let held: (() => void)[] | undefined = [];
  const open = () => {
    const waiting = held;
    held = undefined;
    for (const resume of waiting ?? []) resume();
  };
  (globalThis as WithOpener)[opener] = open;
  setTimeout(open, maxWaitMs).unref();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitOnceReporting(this: http.Server, event: string, ...args: unknown[]) {
    if (event !== 'request' || !held) return emit.call(this, event, ...args);
    const [request, response] = args as [IncomingMessage, ServerResponse];
    held.push(() => {
      requestStart.publish({ request, response, socket: request.socket, server: this });
      this.emit('request', request, response);
    });
    return true;
  } as typeof emit;
}

/** Lets the held requests go on, and every later one straight through (a no-op where nothing holds them). */
export function openRequestGate(): void {
  (globalThis as WithOpener)[opener]?.();
}
