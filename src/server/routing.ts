import { apiRoutePrefix } from '../config/spec';

/** §2: a path is an API route when it equals /api or begins with /api/ (not /apiary, not /api-docs). */
export function isApiRoute(pathname: string): boolean {
  return pathname === apiRoutePrefix || pathname.startsWith(`${apiRoutePrefix}/`);
}

const safeRequestId = /^[A-Za-z0-9._-]{1,128}$/;

/** The inbound X-Request-Id when it is a safe token of at most 128 characters, otherwise a fresh UUID. */
export function requestIdFor(inbound: string | null | undefined): string {
  return inbound && safeRequestId.test(inbound) ? inbound : crypto.randomUUID();
}

/** Internal path of the error page for a status the proxy decides (see src/pages/_status/[code].tsx). */
export const statusPagePrefix = '/_status/';

/** Methods a page answers; API routes choose their own. */
export const pageMethods = ['GET', 'HEAD'] as const;

export type ProxyDecision =
  | { kind: 'pass' }
  | { kind: 'status'; status: 400 | 404 | 405 }
  /** An OPTIONS request to a page: 204 with the Allow header. */
  | { kind: 'options' };

function isWellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** What the proxy does with a request before Next routes it. */
export function proxyDecision(method: string, pathname: string): ProxyDecision {
  if (!isWellEncoded(pathname)) return { kind: 'status', status: 400 };
  if (pathname.startsWith(statusPagePrefix)) return { kind: 'status', status: 404 };
  if (isApiRoute(pathname) || pathname.startsWith('/_next/')) return { kind: 'pass' };
  if (method === 'OPTIONS') return { kind: 'options' };
  if (!(pageMethods as readonly string[]).includes(method)) return { kind: 'status', status: 405 };
  return { kind: 'pass' };
}
