import { apiRoutePrefix } from '../config/spec';

/** §2: a path is an API route when it equals /api or begins with /api/ (not /apiary, not /api-docs). */
export function isApiRoute(pathname: string): boolean {
  return pathname === apiRoutePrefix || pathname.startsWith(`${apiRoutePrefix}/`);
}

export { requestIdFor } from './requestId.mjs';

/** Internal path of the error page for a status the proxy decides (see src/pages/_status/[code].tsx). */
export const statusPagePrefix = '/_status/';

/** Methods a page answers; API routes choose their own. */
export const pageMethods = ['GET', 'HEAD'] as const;

export type ProxyDecision =
  | { kind: 'pass' }
  | { kind: 'status'; status: 400 | 404 | 405 }
  /** An OPTIONS request to a page: 204 with the Allow header. */
  | { kind: 'options' }
  /** Page data of a page that cannot exist: 404 with Next's own `{"notFound":true}`, so the router shows the 404 page. */
  | { kind: 'data-not-found' };

/** The reference product's slugs: lowercase letters, digits and dashes, at most 64 characters. */
export const productSlug = /^[a-z0-9-]{1,64}$/;

export function isProductSlug(slug: unknown): slug is string {
  return typeof slug === 'string' && productSlug.test(slug);
}

/**
 * Pages whose last path segment is a product slug, by the path before it. Each such page is cached on its first visit
 * (a fallback route), so a made-up slug must cost nothing: the proxy answers 404 for its page and its page data before
 * Next renders or stores anything, and the page's getStaticProps refuses the same slugs (revalidation skips the proxy).
 * A product lists its own routes here.
 */
export const slugPagePrefixes = ['/examples/on-demand/'] as const;

/** The page a page-data request is for (`/_next/data/<build id>/examples/x.json` is `/examples/x`), if it is one. */
export function pageOfData(pathname: string): string | undefined {
  return /^\/_next\/data\/[^/]+(\/.+)\.json$/.exec(pathname)?.[1];
}

/** Whether the path is a slug page's with a slug the product cannot have. */
export function isUnknownSlugPage(pathname: string): boolean {
  const prefix = slugPagePrefixes.find((p) => pathname.startsWith(p));
  if (!prefix) return false;
  const slug = pathname.slice(prefix.length);
  // A trailing slash is Next's to redirect.
  return !isProductSlug(slug.endsWith('/') ? slug.slice(0, -1) : slug);
}

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
  // Next keeps a little memory for every page whose data it renders, found or not: a made-up slug must not reach it.
  const dataOf = pageOfData(pathname);
  if (dataOf !== undefined && isUnknownSlugPage(dataOf)) return { kind: 'data-not-found' };
  if (isApiRoute(pathname) || pathname.startsWith('/_next/')) return { kind: 'pass' };
  if (method === 'OPTIONS') return { kind: 'options' };
  if (!(pageMethods as readonly string[]).includes(method)) return { kind: 'status', status: 405 };
  if (isUnknownSlugPage(pathname)) return { kind: 'status', status: 404 };
  return { kind: 'pass' };
}
