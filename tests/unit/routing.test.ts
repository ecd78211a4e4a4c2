import { describe, expect, it } from 'vitest';
import { defaultSlugRule } from '../../packages/foundation/src/config/slugs';
import { defineProduct } from '../../packages/foundation/src/product';
import { cachedPages } from '../../packages/foundation/src/server/cachedPages';
import {
  acceptsSlug,
  isApiRoute,
  proxyDecision,
  requestIdFor,
  slugRuleOf,
} from '../../packages/foundation/src/server/routing';

describe('isApiRoute (spec §2)', () => {
  it.each(['/api', '/api/', '/api/health', '/api/a/b/c'])('%s is an API route', (path) => {
    expect(isApiRoute(path)).toBe(true);
  });
  it.each(['/apiary', '/api-docs', '/', '/x/api', '/API'])('%s is not', (path) => {
    expect(isApiRoute(path)).toBe(false);
  });
});

describe('requestIdFor', () => {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('keeps a safe inbound token', () => {
    expect(requestIdFor('abc.DEF_123-x')).toBe('abc.DEF_123-x');
    expect(requestIdFor('a'.repeat(128))).toBe('a'.repeat(128));
  });
  it.each([null, undefined, '', 'a'.repeat(129), 'has space', 'line\nbreak', 'semi;colon', 'ü'])(
    'replaces %j with a fresh UUID',
    (inbound) => {
      expect(requestIdFor(inbound)).toMatch(uuid);
    },
  );
  it('gives each request its own id', () => {
    expect(requestIdFor(null)).not.toBe(requestIdFor(null));
  });
});

describe('proxyDecision', () => {
  it('passes pages on GET and HEAD', () => {
    expect(proxyDecision('GET', '/examples/42')).toEqual({ kind: 'pass' });
    expect(proxyDecision('HEAD', '/')).toEqual({ kind: 'pass' });
  });
  it('answers other methods on pages with 405, OPTIONS with the allowed methods', () => {
    expect(proxyDecision('POST', '/')).toEqual({ kind: 'status', status: 405 });
    expect(proxyDecision('DELETE', '/examples/42')).toEqual({ kind: 'status', status: 405 });
    expect(proxyDecision('OPTIONS', '/')).toEqual({ kind: 'options' });
  });
  it('leaves API routes to choose their own methods', () => {
    expect(proxyDecision('POST', '/api/health')).toEqual({ kind: 'pass' });
    expect(proxyDecision('OPTIONS', '/api')).toEqual({ kind: 'pass' });
  });
  it('answers malformed percent-encoding with 400', () => {
    expect(proxyDecision('GET', '/%')).toEqual({ kind: 'status', status: 400 });
    expect(proxyDecision('GET', '/examples/%zz')).toEqual({ kind: 'status', status: 400 });
    expect(proxyDecision('GET', '/api/%E0%A4%A')).toEqual({ kind: 'status', status: 400 });
    expect(proxyDecision('GET', '/caf%C3%A9')).toEqual({ kind: 'pass' });
  });
  it('hides the internal status page', () => {
    expect(proxyDecision('GET', '/_status/405')).toEqual({ kind: 'status', status: 404 });
  });
});

/**
 * A build's cached pages: a fallback route, a catch-all one, one the product gave its own rule, and a prerendered path.
 */
const pages = cachedPages({
  routes: { '/shop/on-sale': {} },
  dynamicRoutes: {
    '/shop/[slug]': { routeRegex: '^/shop/([^/]+?)(?:/)?$', fallback: null },
    '/docs/[...path]': { routeRegex: '^/docs/(.+?)(?:/)?$', fallback: 'blocking' },
    '/sku/[code]': { routeRegex: '^/sku/([^/]+?)(?:/)?$', fallback: null },
    // fallback: false answers 404 itself for any path the build did not prerender.
    '/fixed/[id]': { routeRegex: '^/fixed/([^/]+?)(?:/)?$', fallback: false },
  },
});

describe("a fallback route's slugs", () => {
  it('by default are lowercase letters, digits and dashes, at most 64 characters', () => {
    for (const slug of ['first-visit', 'acc-1x2y3z', 'a', '42', 'x'.repeat(64), ['a', 'b-2']])
      expect(acceptsSlug('/shop/[slug]', slug, {}), String(slug)).toBe(true);
    for (const slug of ['', 'First', 'a_b', 'a b', 'a%20b', 'é', 'x'.repeat(65), 'a/b', undefined, [], ['a', 'B']]) {
      expect(acceptsSlug('/shop/[slug]', slug, {}), String(slug)).toBe(false);
    }
  });
  it("follow the app's own rule where its src/product.ts gives one, handed to the proxy and the app's pages", () => {
    const product = defineProduct({ settings: () => ({}), slugRules: { '/sku/[code]': /^[A-Z0-9]{8}$/ } });
    expect(slugRuleOf('/shop/[slug]', product.slugRules)).toBe(defaultSlugRule);
    expect(slugRuleOf('/sku/[code]', product.slugRules)).toBe(product.slugRules['/sku/[code]']);
    // Only the app's own routes: not a name every object has.
    expect(slugRuleOf('constructor', product.slugRules)).toBe(defaultSlugRule);
    expect(product.acceptsSlug('/sku/[code]', 'AB12CD34')).toBe(true);
    expect(product.acceptsSlug('/sku/[code]', 'ab12cd34')).toBe(false);
    expect(proxyDecision('GET', '/sku/AB12CD34', pages, product.slugRules)).toEqual({ kind: 'pass' });
    expect(proxyDecision('GET', '/sku/ab12cd34', pages, product.slugRules)).toEqual({ kind: 'status', status: 404 });
    // Without the app's rule, the default refuses the app's slugs: each entry must hand it on.
    expect(proxyDecision('GET', '/sku/AB12CD34', pages)).toEqual({ kind: 'status', status: 404 });
  });
  it('pass to their page; any other gets the 404 page before Next renders or caches anything', () => {
    expect(proxyDecision('GET', '/shop/first-visit', pages)).toEqual({ kind: 'pass' });
    expect(proxyDecision('HEAD', '/shop/acc-1x2y3z/', pages)).toEqual({ kind: 'pass' });
    expect(proxyDecision('GET', '/docs/guides/intro', pages)).toEqual({ kind: 'pass' });
    for (const path of [`/shop/${'a'.repeat(2048)}`, '/shop/Upper', '/shop/%61bc', '/docs/guides/Intro']) {
      expect(proxyDecision('GET', path, pages), path).toEqual({ kind: 'status', status: 404 });
    }
    // Their page data: Next's own not-found answer, before Next renders anything.
    expect(proxyDecision('GET', '/_next/data/b/shop/Upper.json', pages)).toEqual({ kind: 'data-not-found' });
    expect(proxyDecision('GET', `/_next/data/b/shop/${'a'.repeat(65)}.json`, pages)).toEqual({
      kind: 'data-not-found',
    });
    expect(proxyDecision('GET', '/_next/data/b/shop/first-visit.json', pages)).toEqual({ kind: 'pass' });
  });
  it('leave alone what is not a fallback page: prerendered paths, fallback: false, other routes, next dev', () => {
    for (const path of ['/shop/on-sale', '/fixed/Upper', '/Upper', '/shop/a/b', '/_next/data/b/Upper.json']) {
      expect(proxyDecision('GET', path, pages), path).toEqual({ kind: 'pass' });
    }
    expect(proxyDecision('GET', '/shop/Upper')).toEqual({ kind: 'pass' });
  });
});
