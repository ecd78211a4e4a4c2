// Names each request's transaction after the route Next matched (`GET /examples/[id]`), not its URL: one name per
// route, as the SDK's OpenTelemetry pipeline named them, at the cost of one property read per request.
import { statusPagePrefix } from '../../server/routing';

/**
 * Where Next keeps what it learnt about a request (next/dist/server/request-meta.js, `NEXT_REQUEST_META`). An
 * internal of Next's: apps/reference/tests/server-tracing.spec.ts fails if an upgrade moves it, and until then names fall back
 * to the URL.
 */
const nextRequestMeta = Symbol.for('NextInternalRequestMeta');

interface NextRequestMeta {
  match?: { definition?: { pathname?: unknown } };
}

/** The route Next matched for the request (`/examples/[id]`), once it has; undefined before or when none did. */
export function matchedRoute(request: object): string | undefined {
  const meta = (request as { [nextRequestMeta]?: NextRequestMeta })[nextRequestMeta];
  const pathname = meta?.match?.definition?.pathname;
  return typeof pathname === 'string' ? pathname : undefined;
}

/** Pages that render another request's failure or status: their name says nothing about what was asked for. */
const statusPages = new Set(['/_error', `${statusPagePrefix}[code]`, '/404', '/500']);

/** The transaction name for a request whose route Next matched, or undefined to keep the URL's. */
export function routeTransactionName(method: string | undefined, route: string | undefined): string | undefined {
  if (!route || statusPages.has(route)) return undefined;
  return `${(method ?? 'GET').toUpperCase()} ${route}`;
}
