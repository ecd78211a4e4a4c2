import { describe, expect, it } from 'vitest';
import { appSpanOp } from '../../src/observability/server/nextSpans';
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
