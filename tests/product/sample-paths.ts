// The product team's table for the page sweep (tests/e2e/sweep.spec.ts, tests/engines/sweep.spec.ts): the sweep loads
// every page of the build, and a dynamic route it can only load with a path to fill it in. List one or two paths for
// each dynamic route whose `getStaticPaths` prerenders none, and say here which pages show a status other than 200.

/** A path the sweep loads, with what it shows when that is not a plain page. */
export interface SamplePath {
  path: string;
  /** The status the page answers on purpose: an error it shows (503), or a redirect (3xx) to a page swept itself. */
  status?: number;
  /** axe rules this page breaks on purpose, each with why; every other rule still runs on it. */
  axeRulesSkipped?: Record<string, string>;
}

/** Route (as Next names it: `/examples/[id]`) → the paths the sweep loads for it. A static route lists itself. */
export type SamplePaths = Record<string, readonly (string | SamplePath)[]>;

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
