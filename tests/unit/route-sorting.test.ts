import { getSortedRoutes } from 'next/dist/shared/lib/router/utils/sorted-routes';
import { describe, expect, it } from 'vitest';

// The sorter Next runs on every build (spec §2 ordering, §5 validation).
describe('route ordering and validation', () => {
  it('orders our routes by specificity, segment by segment: static before dynamic', () => {
    const sorted = getSortedRoutes(['/examples/docs/[...path]', '/examples/[id]', '/examples/new', '/']);
    // "docs" and "new" are static segments, so both beat [id]; the catch-all sits under "docs".
    expect(sorted).toEqual(['/', '/examples/docs/[...path]', '/examples/new', '/examples/[id]']);
  });

  it('puts a dynamic segment before a catch-all at the same level', () => {
    expect(getSortedRoutes(['/x/[...rest]', '/x/[id]', '/x/new'])).toEqual(['/x/new', '/x/[id]', '/x/[...rest]']);
  });

  it('rejects a catch-all that is not the last segment', () => {
    expect(() => getSortedRoutes(['/docs/[...path]/edit'])).toThrow('Catch-all must be the last part of the URL');
  });

  it('rejects a slug name repeated in one path', () => {
    expect(() => getSortedRoutes(['/[id]/items/[id]'])).toThrow('You cannot have the same slug name "id" repeat');
  });
});
