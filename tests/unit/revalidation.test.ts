import { describe, expect, it } from 'vitest';
import { bearerMatches, revalidationRequest } from '../../src/server/revalidation';

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

describe('POST /api/revalidate: which paths it takes', () => {
  it('takes a page path', () => {
    expect(revalidationRequest('{"path":"/examples/generated"}')).toEqual({ path: '/examples/generated' });
    expect(revalidationRequest('{"path":"/examples/on-demand/a%20b"}')).toEqual({ path: '/examples/on-demand/a%20b' });
    expect(revalidationRequest('{"path":"/"}')).toEqual({ path: '/' });
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
      '{"path":"/_next/static/x.js"}': /must be a page/,
    };
    for (const [body, problem] of Object.entries(problems)) {
      const result = revalidationRequest(body);
      expect(result, body).toHaveProperty('problem');
      expect((result as { problem: string }).problem, body).toMatch(problem);
    }
  });
});
