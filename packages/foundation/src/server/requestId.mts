// The request id rule, shared by the proxy (src/proxy.ts, through routing.ts) and the server's preload
// (packages/foundation/src/server/preload.mts, which answers some requests before the proxy runs). TypeScript that Node
// runs as it is (`.mts`), because the preload loads it outside Next's bundle.

const safeRequestId = /^[A-Za-z0-9._-]{1,128}$/;

/** The inbound X-Request-Id when it is a safe token of at most 128 characters, otherwise a fresh UUID. */
export function requestIdFor(inbound: string | null | undefined): string {
  return inbound && safeRequestId.test(inbound) ? inbound : globalThis.crypto.randomUUID();
}
