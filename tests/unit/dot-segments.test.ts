import { describe, expect, it } from 'vitest';
import { hasDotSegment } from '../../packages/foundation/src/server/dotSegments.mts';

describe('hasDotSegment (issue 36: the proxy sees these collapsed, Next routes them as they are)', () => {
  it.each([
    '/examples/on-demand/..',
    '/_next/data/build-1/examples/on-demand/...json',
    '/_next/data/build-1/examples/on-demand/%2e%2e.json',
    '/_next/data/build-1/examples/on-demand/.%2E.json',
    '/examples/on-demand/%2e%2e',
    '/examples/on-demand/%2E%2e',
    '/examples/on-demand/.%2e',
    '/examples/on-demand/%2E.',
    '/examples/./on-demand',
    '/examples/%2e/x',
    '/examples/on-demand/..?x=1',
    '/examples\\..\\x',
  ])('finds a dot segment in %s', (target) => {
    expect(hasDotSegment(target)).toBe(true);
  });

  it.each([
    '/',
    '/examples/on-demand/a-b',
    '/_next/data/build-1/examples/on-demand/a.json',
    '/examples/...json',
    '/examples/...',
    '/.well-known/security.txt',
    '/examples/a..b',
    '/examples/x?next=/../..',
    '/examples/%2e%2e%2e',
  ])('leaves %s alone', (target) => {
    expect(hasDotSegment(target)).toBe(false);
  });
});
