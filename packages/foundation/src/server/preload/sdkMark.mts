// The SDK's mark of a request it has taken in (`@sentry/core`, server-subscription.js): a marked request passes its
// wrapper of the server's emit untouched. The preload marks a request the SDK is not to see (yet) when it starts,
// before that wrapper runs. Were the mark renamed, the SDK would trace every request as it arrives again:
// apps/reference/tests/connection-bounds.spec.ts counts what 1,000 aborts and a pipelined request send, and would fail.
import diagnosticsChannel from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

const sdkHandled = Symbol.for('sentry_http_server_instrumented');
type Marked = IncomingMessage & { [sdkHandled]?: boolean };

/** Hides from the SDK every request `hidden` picks, from the moment it starts. */
export function hideFromSdk(hidden: (req: IncomingMessage) => boolean): void {
  diagnosticsChannel.subscribe('http.server.request.start', (message) => {
    const { request } = message as { request: Marked };
    if (hidden(request)) request[sdkHandled] = true;
  });
}

/** Shows a hidden request to the SDK: the server's next emit of it starts its trace. */
export function showToSdk(req: IncomingMessage): void {
  delete (req as Marked)[sdkHandled];
}
