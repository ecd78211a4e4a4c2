// The product team's table for the page sweep (tests/e2e/sweep.spec.ts, tests/engines/sweep.spec.ts): the sweep loads
// every page of the build, and a dynamic route it can only load with a path to fill it in. List one or two paths for
// each dynamic route whose `getStaticPaths` prerenders none, and say here which pages show a status other than 200.

import type { SamplePaths } from '@web-foundation/testing/sweep';

/**
 * Route (as Next names it: `/products/[id]`) → the paths the sweep loads for it, e.g.
 * `'/products/[id]': ['/products/42']`, or `'/maintenance': [{ path: '/maintenance', status: 503 }]`.
 */
export const samplePaths: SamplePaths = {
  // The product ./services.ts adds to the tests' Postgres.
  '/products/[id]': ['/products/1'],
};
