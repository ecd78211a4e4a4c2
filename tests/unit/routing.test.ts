import { describe, expect, it } from 'vitest';
import { isApiRoute, isProductSlug, proxyDecision, requestIdFor } from '../../src/server/routing';

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

describe('slugs the product can have', () => {
  it('are lowercase letters, digits and dashes, at most 64 characters', () => {
    for (const slug of ['first-visit', 'acc-1x2y3z', 'a', '42', 'x'.repeat(64)])
      expect(isProductSlug(slug), slug).toBe(true);
    for (const slug of ['', 'First', 'a_b', 'a b', 'a%20b', 'é', 'x'.repeat(65), 'a/b', undefined, ['a']]) {
      expect(isProductSlug(slug), String(slug)).toBe(false);
    }
  });
  it('pass to their page; any other gets the 404 page before Next renders or caches anything', () => {
    expect(proxyDecision('GET', '/examples/on-demand/first-visit')).toEqual({ kind: 'pass' });
    expect(proxyDecision('HEAD', '/examples/on-demand/acc-1x2y3z/')).toEqual({ kind: 'pass' });
    for (const path of [
      `/examples/on-demand/${'a'.repeat(2048)}`,
      '/examples/on-demand/Upper',
      '/examples/on-demand/',
      '/examples/on-demand/a/b',
      '/examples/on-demand/%61bc',
    ]) {
      expect(proxyDecision('GET', path), path).toEqual({ kind: 'status', status: 404 });
    }
    // Their page data: Next's own not-found answer, before Next renders anything.
    expect(proxyDecision('GET', '/_next/data/b/examples/on-demand/Upper.json')).toEqual({ kind: 'data-not-found' });
    expect(proxyDecision('GET', `/_next/data/b/examples/on-demand/${'a'.repeat(65)}.json`)).toEqual({
      kind: 'data-not-found',
    });
    expect(proxyDecision('GET', '/_next/data/b/examples/on-demand/first-visit.json')).toEqual({ kind: 'pass' });
    // Other pages are not the proxy's to judge.
    expect(proxyDecision('GET', '/examples/Upper')).toEqual({ kind: 'pass' });
    expect(proxyDecision('GET', '/_next/data/b/examples/Upper.json')).toEqual({ kind: 'pass' });
  });
});
