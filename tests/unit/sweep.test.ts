import type { Event } from '@sentry/core';
import { describe, expect, it } from 'vitest';
import type { SamplePaths } from '@web-foundation/testing/sweep';
import {
  axeProblem,
  axeRulesSkippedOn,
  cspProblem,
  discoverPages,
  missingSampleMessage,
  pageLoadInEnvelope,
  readBuildManifests,
  routeMatches,
  statusProblem,
  sweepFailure,
  whyNotSwept,
  type BuildManifests,
} from '@web-foundation/testing/sweep';

// Issue 35: which pages the sweep loads, with which paths, and how it words a broken promise.

/** The manifests of a small build, as Next writes them: every route of pages-manifest, prerendered paths by route. */
const build: BuildManifests = {
  pages: Object.fromEntries(
    [
      '/',
      '/404',
      '/500',
      '/_app',
      '/_document',
      '/_error',
      '/_status/[code]',
      '/api',
      '/api/hello',
      '/api/[...path]',
      '/diagnostics',
      '/diagnostics/ssr-error',
      '/hello',
      '/posts/[slug]',
      '/examples/[id]',
      '/examples/unavailable',
      '/shop/[[...filters]]',
    ].map((route) => [route, `pages${route}.js`]),
  ),
  prerendered: {
    '/hello': { srcRoute: null },
    '/posts/first': { srcRoute: '/posts/[slug]' },
    '/posts/second': { srcRoute: '/posts/[slug]' },
    '/posts/third': { srcRoute: '/posts/[slug]' },
    '/posts/fourth': { srcRoute: '/posts/[slug]' },
  },
};

const samples: SamplePaths = {
  '/examples/[id]': ['/examples/42'],
  '/examples/unavailable': [{ path: '/examples/unavailable', status: 503 }],
};

describe('discovering the pages of a build', () => {
  const { pages, problems } = discoverPages(build, samples);
  const paths = pages.map((p) => p.path);

  it('loads each page a visitor opens, and nothing else', () => {
    expect(paths).toEqual([
      '/',
      '/examples/42',
      '/examples/unavailable',
      '/hello',
      '/posts/first',
      '/posts/second',
      '/posts/third',
    ]);
  });

  it('leaves out Next’s frame, the error and status pages, API routes and the diagnostics, saying why', () => {
    for (const route of ['/_app', '/_document', '/_error', '/404', '/500', '/_status/[code]']) {
      expect(whyNotSwept(route), route).toBeDefined();
    }
    for (const route of ['/api', '/api/hello', '/api/[...path]', '/diagnostics', '/diagnostics/ssr-error']) {
      expect(whyNotSwept(route), route).toBeDefined();
    }
    expect(whyNotSwept('/apiary')).toBeUndefined();
    expect(whyNotSwept('/diagnosticsx')).toBeUndefined();
  });

  it('fills a dynamic route from its prerendered paths (a few of them), else from the sample table', () => {
    expect(pages.filter((p) => p.route === '/posts/[slug]')).toHaveLength(3);
    expect(pages.find((p) => p.route === '/examples/[id]')).toMatchObject({ path: '/examples/42' });
  });

  it('carries the status the table says a page shows', () => {
    expect(pages.find((p) => p.path === '/examples/unavailable')?.status).toBe(503);
    expect(pages.find((p) => p.path === '/hello')?.status).toBeUndefined();
  });

  it('fails a dynamic route with neither, naming the route and the file to add a sample path to', () => {
    expect(problems).toEqual([
      { route: '/shop/[[...filters]]', message: missingSampleMessage('/shop/[[...filters]]') },
    ]);
    expect(missingSampleMessage('/shop/[[...filters]]')).toBe(
      '/shop/[[...filters]] (route /shop/[[...filters]]): the sweep has no path to load this dynamic route: the ' +
        "build prerenders none of its paths (getStaticPaths) and the app's tests/sample-paths.ts lists none. Add a " +
        "sample path for it to the app's tests/sample-paths.ts, e.g. '/shop/[[...filters]]': ['/shop/<a real filters>'].",
    );
  });

  it('fails a table entry for a route the build does not sweep, or a path that is not one of its route’s', () => {
    const stale = discoverPages(build, { ...samples, '/gone': ['/gone'], '/posts/[slug]': ['/blog/first'] });
    expect(stale.problems.map((p) => p.message)).toEqual(
      expect.arrayContaining([
        "the app's tests/sample-paths.ts lists /gone, which is not a page of the build the sweep loads: remove it, or correct the route's name.",
        expect.stringContaining("/blog/first (route /posts/[slug]): the app's tests/sample-paths.ts lists /blog/first"),
      ]),
    );
  });
});

describe('a missing build', () => {
  it('fails saying how to make it', () => {
    expect(() => readBuildManifests('.no-such-build')).toThrow(
      /^No build to sweep: \.no-such-build\/server\/pages-manifest\.json is missing\. Build it first with `E2E_PORT_BLOCK=\d+ npm run test:e2e -- --list`/,
    );
  });
});

describe('the axe rules a page breaks on purpose', () => {
  it('are the ones the table gives for that path, and none for any other', () => {
    const table: SamplePaths = {
      '/bare': [{ path: '/bare', axeRulesSkipped: { 'document-title': 'shows the announcer reading the path' } }],
      '/examples/[id]': ['/examples/42'],
    };
    expect(axeRulesSkippedOn('/bare', table)).toEqual(['document-title']);
    expect(axeRulesSkippedOn('/examples/42', table)).toEqual([]);
    expect(axeRulesSkippedOn('/elsewhere', table)).toEqual([]);
  });
});

describe('a route’s URLs', () => {
  it.each([
    ['/', '/', true],
    ['/examples/[id]', '/examples/42', true],
    ['/examples/[id]', '/examples/42/more', false],
    ['/docs/[...path]', '/docs/a/b', true],
    ['/docs/[...path]', '/docs', false],
    ['/shop/[[...filters]]', '/shop', true],
    ['/shop/[[...filters]]', '/shop/red/large', true],
    ['/a.b', '/aXb', false],
  ])('%s matches %s: %s', (route, path, matches) => expect(routeMatches(route, path)).toBe(matches));
});

describe('the failures, each naming the page and the promise', () => {
  const page = { route: '/examples/[id]', path: '/examples/42', axeRulesSkipped: {} };

  it('a status', () => {
    expect(statusProblem(page, 200)).toBeUndefined();
    expect(statusProblem(page, 500)).toBe(
      "answered 500, a server error (if showing this status is the page's purpose, say so in the app's tests/sample-paths.ts)",
    );
    expect(statusProblem(page, 404)).toMatch(/^answered 404, not a page/);
    // A page that sends the visitor on (a protected page to sign-in): the page it leads to is swept itself.
    expect(statusProblem(page, 307)).toBeUndefined();
    expect(statusProblem({ ...page, status: 503 }, 503)).toBeUndefined();
    expect(statusProblem({ ...page, status: 503 }, 200)).toBe(
      "answered 200, not the 503 the app's tests/sample-paths.ts gives",
    );
  });

  it('axe violations, saying in which colour scheme when not in every scheme that ran the rule', () => {
    const imageAlt = { id: 'image-alt', help: 'Images must have alternative text', nodes: [{ target: ['img'] }] };
    const contrast = { id: 'color-contrast', help: 'Elements must meet contrast', nodes: [{ target: ['main', 'a'] }] };
    expect(
      axeProblem([
        { scheme: 'light', violations: [imageAlt] },
        { scheme: 'dark', rules: ['color-contrast'], violations: [contrast] },
      ]),
    ).toBe(
      '2 axe violations: image-alt (Images must have alternative text) at img; ' +
        'color-contrast (Elements must meet contrast) at main a in the dark colour scheme',
    );
    expect(axeProblem([{ scheme: 'light', violations: [] }])).toBeUndefined();
  });

  it('one line per broken promise, each naming the page and its route', () => {
    expect(sweepFailure(page, [undefined, cspProblem(['script-src-elem inline on /x']), 'answered 500'])).toBe(
      '/examples/42 (route /examples/[id]): 1 Content-Security-Policy violation: script-src-elem inline on /x\n' +
        '/examples/42 (route /examples/[id]): answered 500',
    );
    expect(sweepFailure(page, [undefined])).toBeUndefined();
  });
});

describe('the page-load transaction in what a browser sent', () => {
  /** An envelope as the browser SDK sends one: its header, then the item's header and payload, a line each. */
  const transaction = (op: string) =>
    [
      {},
      { type: 'transaction' },
      { type: 'transaction', transaction: '/examples/[id]', contexts: { trace: { op, trace_id: 'a'.repeat(32) } } },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');

  it('finds its trace and name', () => {
    expect(pageLoadInEnvelope(transaction('pageload'))).toEqual({
      traceId: 'a'.repeat(32),
      name: '/examples/[id]',
    });
  });

  it('ignores navigations, other items and what is not an envelope', () => {
    expect(pageLoadInEnvelope(transaction('navigation'))).toBeUndefined();
    const error: Event = { message: 'x' };
    expect(pageLoadInEnvelope(`{}\n{"type":"event"}\n${JSON.stringify(error)}`)).toBeUndefined();
    expect(pageLoadInEnvelope('not an envelope')).toBeUndefined();
  });
});
