// The spec's middleware (§2), doing the least the spec asks of it: every matched request gets a request id. Its cost
// is the specification's, not observability's, so the baseline pays it too. The matcher is the app's, to the letter
// (tests/unit/proxy-matcher.test.ts); Next reads it statically, so it cannot be imported.
import { NextResponse } from 'next/server';

export function proxy(request) {
  const requestId = crypto.randomUUID();
  const headers = new Headers(request.headers);
  headers.set('x-request-id', requestId);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('x-request-id', requestId);
  return response;
}

export const config = {
  matcher: ['/((?!_next/static/|_next/image(?:$|[/?])|favicon\\.ico$|sitemap[^/]*\\.xml$|robots\\.txt$).*)'],
};
