import { describe, expect, it } from 'vitest';
import { appSpanOp, pageCarriesRequestTrace } from '../../src/observability/server/nextSpans';
import { cachedPages } from '../../src/server/cachedPages';
import { matchedRoute, routeTransactionName } from '../../src/observability/server/transactionNames';

describe('transaction names on the server', () => {
  it("reads the route Next matched from the request's meta", () => {
    const request = {
      [Symbol.for('NextInternalRequestMeta')]: { match: { definition: { pathname: '/examples/[id]' } } },
    };
    expect(matchedRoute(request)).toBe('/examples/[id]');
    expect(matchedRoute({})).toBeUndefined();
    expect(matchedRoute({ [Symbol.for('NextInternalRequestMeta')]: { match: {} } })).toBeUndefined();
  });

  it('names a request after its route, and keeps the URL for status pages and unmatched requests', () => {
    expect(routeTransactionName('get', '/examples/[id]')).toBe('GET /examples/[id]');
    expect(routeTransactionName(undefined, '/api/health')).toBe('GET /api/health');
    for (const page of ['/_error', '/_status/[code]', '/404', '/500', undefined]) {
      expect(routeTransactionName('GET', page)).toBeUndefined();
    }
  });
});

describe("Next's spans", () => {
  const typed = (type: string) => ({ attributes: { 'next.span_type': type } });

  it("become Sentry spans only for the app's own time: data fetching, API handlers, rendering", () => {
    for (const type of [
      'Render.getServerSideProps',
      'Render.getStaticProps',
      'Node.runHandler',
      'Render.renderDocument',
    ]) {
      expect(appSpanOp(typed(type))).toBe('function.nextjs');
    }
    for (const type of [
      'BaseServer.handleRequest',
      'LoadComponents.loadRouteModule',
      'RouteModule.prepare',
      'Middleware.execute',
    ]) {
      expect(appSpanOp(typed(type))).toBeUndefined();
    }
    expect(appSpanOp(undefined)).toBeUndefined();
  });
});

describe('pageCarriesRequestTrace (issue 36: a cached page carries no one trace)', () => {
  const pages = cachedPages({
    routes: { '/examples/generated': {}, '/examples/on-demand/first': {} },
    dynamicRoutes: {
      '/examples/on-demand/[slug]': { routeRegex: '^/examples/on\\-demand/([^/]+?)(?:/)?$', fallback: null },
    },
  });

  it('a page the build caches (ISR, a fallback route, static) carries none', () => {
    for (const url of [
      'http://localhost:3000/examples/generated',
      'http://localhost:3000/examples/generated?x=1',
      'http://localhost:3000/examples/on-demand/first',
      'http://localhost:3000/examples/on-demand/made-up',
      // The first request for a fallback page's data generates its HTML as well.
      'http://localhost:3000/_next/data/build-1/examples/on-demand/made-up.json',
    ]) {
      expect(pageCarriesRequestTrace(url, pages), url).toBe(false);
    }
  });

  it("a server-rendered page carries its request's", () => {
    expect(pageCarriesRequestTrace('http://localhost:3000/examples/42', pages)).toBe(true);
    expect(pageCarriesRequestTrace('/diagnostics/ssr-error', pages)).toBe(true);
    // `next dev` keeps no manifest: every page is rendered per request there.
    expect(pageCarriesRequestTrace('/examples/generated', undefined)).toBe(true);
  });

  it('without the request (a regeneration Next runs on its own) nothing is written', () => {
    expect(pageCarriesRequestTrace(undefined, pages)).toBe(false);
  });
});
