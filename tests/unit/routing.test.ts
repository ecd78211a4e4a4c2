import { describe, expect, it } from 'vitest';
import { isApiRoute, proxyDecision, requestIdFor } from '../../src/server/routing';

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
