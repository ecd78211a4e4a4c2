// The decisions of POST /api/revalidate (src/pages/api/revalidate.ts): who may call it and which paths it takes.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isCachedPage, type CachedPages } from './cachedPages';
import type { SlugRules } from '../config/slugs';
import { isApiRoute, isUnknownSlugPage } from './routing';

/** Longest path the route takes; no page of the app comes near it. */
export const maxRevalidatePathLength = 1024;

/**
 * Whether `Authorization` is `Bearer <secret>`, compared in constant time: both sides are hashed first, so that
 * neither the time taken nor an early length mismatch says how much of a guess was right.
 */
export function bearerMatches(authorization: string | undefined, secret: string): boolean {
  const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(token), digest(secret));
}

export type RevalidationRequest = { path: string } | { problem: string };

/**
 * The page path of a request body `{"path": "/examples/generated"}`, or the sentence that says what is wrong. Only a
 * page the build caches is taken: revalidating anything else (a server-rendered page, a redirect, an error page, an
 * API route) would change nothing, so a 200 would lie. A fallback route's slug must follow the app's `rules`.
 */
export function revalidationRequest(body: string, pages: CachedPages, rules: SlugRules): RevalidationRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: 'The body must be JSON: {"path": "/a/page"}.' };
  }
  const path = (parsed as { path?: unknown } | null)?.path;
  if (typeof path !== 'string') return { problem: 'The body must name the page: {"path": "/a/page"}.' };
  if (path.length > maxRevalidatePathLength) {
    return { problem: `The path is longer than ${maxRevalidatePathLength} characters: no page has such a path.` };
  }
  // A path as the browser requests it: from the root, no query or fragment, no other host, no control characters.
  if (!path.startsWith('/') || path.startsWith('//') || /[?#\\\s\u0000-\u001f\u007f]/.test(path)) {
    return { problem: 'The path must be a page path such as /examples/generated, without a query or fragment.' };
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return { problem: 'The path has a malformed percent-encoding.' };
  }
  // Decoded too: /%61pi/health is the API route /api/health.
  if ([path, decoded].some((p) => isApiRoute(p) || p.startsWith('/_next/'))) {
    return { problem: 'The path must be a page; API routes and Next assets are not cached pages.' };
  }
  if (!isCachedPage(path, pages)) {
    const cached = [...pages.paths, ...pages.routes.map(({ route }) => route)].join(', ');
    return {
      problem: `${path} is not a page the app caches, so there is nothing to revalidate: only pages with getStaticProps are cached (${cached || 'none in this build'}).`,
    };
  }
  // The proxy refuses these, but revalidation renders the page without it.
  if (isUnknownSlugPage(path, pages, rules))
    return { problem: `No page of the app answers ${path}: it is not a slug the product can have.` };
  return { path };
}
