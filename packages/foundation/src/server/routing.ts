import { defaultSlugRule, type SlugRules } from '../config/slugs.ts';
import { apiRoutePrefix } from '../config/specification.mts';
import type { CachedPages } from './cachedPages';

/** §2: a path is an API route when it equals /api or begins with /api/ (not /apiary, not /api-docs). */
export function isApiRoute(pathname: string): boolean {
  return pathname === apiRoutePrefix || pathname.startsWith(`${apiRoutePrefix}/`);
}

export { requestIdFor } from './requestId.mts';

/** Internal path of the error page for a status the proxy decides (see src/pages/_status/[code].tsx). */
export const statusPagePrefix = '/_status/';

/** Methods a page answers; API routes choose their own. */
export const pageMethods = ['GET', 'HEAD'] as const;

export type ProxyDecision =
  | { kind: 'pass' }
  | { kind: 'status'; status: 400 | 404 | 405 }
  /** An OPTIONS request to a page: 204 with the Allow header. */
  | { kind: 'options' }
  /**
   * Page data of a page that cannot exist: 404 with Next's own `{"notFound":true}`, so the router shows the 404 page.
   */
  | { kind: 'data-not-found' };

/** The page a page-data request is for (`/_next/data/<build id>/examples/x.json` is `/examples/x`), if it is one. */
export function pageOfData(pathname: string): string | undefined {
  return /^\/_next\/data\/[^/]+(\/.+)\.json$/.exec(pathname)?.[1];
}

/** The rule a fallback route's slugs follow: the product's own for that route, else the default. */
export function slugRuleOf(route: string, rules: SlugRules): RegExp {
  return Object.hasOwn(rules, route) ? rules[route]! : defaultSlugRule;
}

/** Whether a fallback route's parameter (a string, or a catch-all's segments) follows its route's rule. */
export function acceptsSlug(route: string, value: unknown, rules: SlugRules): boolean {
  const rule = slugRuleOf(route, rules);
  const segments = Array.isArray(value) ? value : [value];
  return segments.length > 0 && segments.every((segment) => typeof segment === 'string' && rule.test(segment));
}

/**
 * Whether the path is a fallback route's with a slug its rule refuses. Each such page is cached on its first visit, so
 * a made-up slug must cost nothing: the proxy answers 404 for its page and its page data before Next renders or stores
 * anything. Without the build's pages (`next dev`) nothing is refused.
 */
export function isUnknownSlugPage(pathname: string, pages: CachedPages | undefined, rules: SlugRules): boolean {
  if (!pages || pages.paths.has(pathname)) return false;
  for (const { route, pattern } of pages.routes) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    // A catch-all's value is its segments joined by '/': each must match.
    return match.slice(1).some((value) => value !== undefined && !acceptsSlug(route, value.split('/'), rules));
  }
  return false;
}

function isWellEncoded(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the proxy does with a request before Next routes it; `pages` are the ones the build caches, `rules` the app's
 * slug rules.
 */
export function proxyDecision(
  method: string,
  pathname: string,
  pages?: CachedPages,
  rules: SlugRules = {},
): ProxyDecision {
  if (!isWellEncoded(pathname)) return { kind: 'status', status: 400 };
  if (pathname.startsWith(statusPagePrefix)) return { kind: 'status', status: 404 };
  // Next keeps a little memory for every page whose data it renders, found or not: a made-up slug must not reach it.
  const dataOf = pageOfData(pathname);
  if (dataOf !== undefined && isUnknownSlugPage(dataOf, pages, rules)) return { kind: 'data-not-found' };
  if (isApiRoute(pathname) || pathname.startsWith('/_next/')) return { kind: 'pass' };
  if (method === 'OPTIONS') return { kind: 'options' };
  if (!(pageMethods as readonly string[]).includes(method)) return { kind: 'status', status: 405 };
  if (isUnknownSlugPage(pathname, pages, rules)) return { kind: 'status', status: 404 };
  return { kind: 'pass' };
}
