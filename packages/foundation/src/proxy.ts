import { NextResponse, type NextRequest } from 'next/server';
import { serverSettings } from './config/settings.mts';
import type { Product } from './product';
import { pagesOfBuild } from './server/cachedPages';
import { pageMethods, proxyDecision, requestIdFor, statusPagePrefix, type ProxyDecision } from './server/routing';

function respond(request: NextRequest, decision: ProxyDecision, headers: Headers): NextResponse {
  switch (decision.kind) {
    case 'pass':
      return NextResponse.next({ request: { headers } });
    case 'options':
      return new NextResponse(null, { status: 204, headers: { Allow: pageMethods.join(', ') } });
    case 'data-not-found':
      return new NextResponse('{"notFound":true}', { status: 404, headers: { 'Content-Type': 'application/json' } });
    case 'status': {
      // nextUrl, not request.url: a rewrite stays internal only on the origin Next considers its own.
      const statusPage = request.nextUrl.clone();
      statusPage.pathname = `${statusPagePrefix}${decision.status}`;
      statusPage.search = '';
      const response = NextResponse.rewrite(statusPage, { request: { headers } });
      if (decision.status === 405) response.headers.set('Allow', pageMethods.join(', '));
      return response;
    }
  }
}

/** Operators check that an error in the proxy is reported (ENABLE_DIAGNOSTICS=1). */
const diagnosticsProxyErrorPath = '/diagnostics/proxy-error';

/**
 * The proxy of an app: before every matched request, it gives the request an id and answers what no page should. The
 * app's proxy.ts exports `proxyFor(product)` as `proxy`, beside its matcher, which Next reads only from the app's own
 * file.
 */
export function proxyFor(product: Pick<Product<unknown>, 'slugRules'>): (request: NextRequest) => NextResponse {
  return (request) => proxy(request, product);
}

function proxy(request: NextRequest, { slugRules }: Pick<Product<unknown>, 'slugRules'>): NextResponse {
  if (request.nextUrl.pathname === diagnosticsProxyErrorPath && serverSettings().enableDiagnostics) {
    throw new Error('Diagnostics: an exception thrown in the proxy');
  }
  const requestId = requestIdFor(request.headers.get('x-request-id'));
  const headers = new Headers(request.headers);
  headers.set('x-request-id', requestId);
  const response = respond(
    request,
    proxyDecision(request.method, request.nextUrl.pathname, pagesOfBuild(), slugRules),
    headers,
  );
  response.headers.set('x-request-id', requestId);
  return response;
}
