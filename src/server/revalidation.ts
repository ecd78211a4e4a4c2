// The decisions of POST /api/revalidate (src/pages/api/revalidate.ts): who may call it and which paths it takes.
import { createHash, timingSafeEqual } from 'node:crypto';
import { isApiRoute } from './routing';

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

/** The page path of a request body `{"path": "/examples/generated"}`, or the sentence that says what is wrong. */
export function revalidationRequest(body: string): RevalidationRequest {
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
  try {
    decodeURIComponent(path);
  } catch {
    return { problem: 'The path has a malformed percent-encoding.' };
  }
  if (isApiRoute(path) || path.startsWith('/_next/')) {
    return { problem: 'The path must be a page; API routes and Next assets are not cached pages.' };
  }
  return { path };
}
