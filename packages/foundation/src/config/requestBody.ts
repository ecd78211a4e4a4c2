// How large a request body the server takes (docs/architecture.md, "Request bodies").

/**
 * The largest request body the server accepts, in bytes. Next holds every body that reaches the proxy in memory, whole,
 * before any route runs; next.config.ts gives it this size as `experimental.proxyClientMaxBodySize`, and the server
 * preload (packages/foundation/src/server/preload/bodies.mts) answers 413 to a larger body before reading it. The app's
 * largest body, POST /api/revalidate's, is at most 4.3 KB. Raise it for a route that needs more: every request in
 * flight may then hold this much memory.
 */
export const maxRequestBodyBytes = 64 * 1024;
