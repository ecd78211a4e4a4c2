import { describe, expect, it } from 'vitest';
import { cachedPages } from '../../packages/foundation/src/server/cachedPages';
import { bearerMatches, revalidationRequest } from '../../packages/foundation/src/server/revalidation';

const secret = 'x'.repeat(20) + 'correct-secret';

describe('POST /api/revalidate: who may call it', () => {
  it('takes exactly Authorization: Bearer <REVALIDATE_SECRET>', () => {
    expect(bearerMatches(`Bearer ${secret}`, secret)).toBe(true);
    expect(bearerMatches(`bearer ${secret}`, secret)).toBe(true);
  });
  it('refuses no header, another scheme, a wrong, shorter or longer secret', () => {
    for (const header of [undefined, '', secret, `Basic ${secret}`, `Bearer ${secret}x`, `Bearer ${secret.slice(1)}`]) {
      expect(bearerMatches(header, secret)).toBe(false);
    }
    expect(bearerMatches('Bearer ', secret)).toBe(false);
  });
});

/** What a build's prerender-manifest.json says, in the shape Next 16 writes it. */
const pages = cachedPages({
  routes: { '/': {}, '/examples/generated': {}, '/blog/first': {} },
  dynamicRoutes: {
    '/examples/on-demand/[slug]': { routeRegex: '^/examples/on\\-demand/([^/]+?)(?:/)?$', fallback: null },
    // Only the paths the build prerendered (listed in routes): any other answers 404.
    '/blog/[post]': { routeRegex: '^/blog/([^/]+?)(?:/)?$', fallback: false },
  },
});

describe('POST /api/revalidate: which paths it takes', () => {
  it('takes the path of a page the build caches: prerendered, or of a fallback route', () => {
    for (const path of ['/examples/generated', '/', '/examples/on-demand/x-1', '/blog/first']) {
      expect(revalidationRequest(JSON.stringify({ path }), pages, {})).toEqual({ path });
    }
  });
  it('refuses a slug the product cannot have, as the proxy does', () => {
    for (const path of ['/examples/on-demand/a%20b', '/examples/on-demand/Upper']) {
      expect(revalidationRequest(JSON.stringify({ path }), pages, {})).toEqual({
        problem: `No page of the app answers ${path}: it is not a slug the product can have.`,
      });
    }
  });
  it('refuses a page the build does not cache: there would be nothing to revalidate', () => {
    for (const path of ['/examples/42', '/examples/moved', '/examples/unavailable', '/a//b', '/blog/other', '/404']) {
      const result = revalidationRequest(JSON.stringify({ path }), pages, {});
      expect((result as { problem: string }).problem, path).toMatch(
        /is not a page the app caches.*\(\/, \/examples\/generated, \/blog\/first, \/examples\/on-demand\/\[slug\]\)/,
      );
    }
  });
  it('says what is wrong with anything else', () => {
    const problems = {
      '{"path":': /must be JSON/,
      '': /must be JSON/,
      '{}': /must name the page/,
      null: /must name the page/,
      '{"path":42}': /must name the page/,
      [JSON.stringify({ path: `/${'a'.repeat(1024)}` })]: /longer than 1024 characters/,
      '{"path":"examples/generated"}': /page path/,
      '{"path":"//other.example/x"}': /page path/,
      '{"path":"/examples/generated?x=1"}': /page path/,
      '{"path":"/examples/generated#top"}': /page path/,
      '{"path":"/a\\nb"}': /page path/,
      '{"path":"/%zz"}': /malformed percent-encoding/,
      '{"path":"/api/health"}': /must be a page/,
      '{"path":"/%61pi/health"}': /must be a page/,
      '{"path":"/api%2Fhealth"}': /must be a page/,
      '{"path":"/_next/static/x.js"}': /must be a page/,
    };
    for (const [body, problem] of Object.entries(problems)) {
      const result = revalidationRequest(body, pages, {});
      expect(result, body).toHaveProperty('problem');
      expect((result as { problem: string }).problem, body).toMatch(problem);
    }
  });
});
