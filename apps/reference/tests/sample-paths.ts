// The sample paths of the reference pages (src/pages/examples), for the page sweep: the same kind of
// table as every app's tests/sample-paths.ts.
import type { SamplePaths } from '@web-foundation/testing/sweep';

export const samplePaths: SamplePaths = {
  '/examples/[id]': ['/examples/42'],
  '/examples/docs/[...path]': ['/examples/docs/guides/routing/intro'],
  '/examples/on-demand/[slug]': ['/examples/on-demand/first-visit'],
  '/examples/unavailable': [{ path: '/examples/unavailable', status: 503 }],
  '/examples/moved': [{ path: '/examples/moved', status: 307 }],
  '/examples/announcer/heading': [
    {
      path: '/examples/announcer/heading',
      axeRulesSkipped: { 'document-title': "it has no title, to show the announcer's fallback to the first heading" },
    },
  ],
  '/examples/announcer/bare': [
    {
      path: '/examples/announcer/bare',
      axeRulesSkipped: {
        'document-title': "it has no title, to show the announcer's fallback to the path",
        'page-has-heading-one': "it has no heading, to show the announcer's fallback to the path",
      },
    },
  ],
};
