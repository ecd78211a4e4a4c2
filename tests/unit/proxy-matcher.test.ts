import { readFileSync } from 'node:fs';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { describe, expect, it } from 'vitest';
import { config } from '../../apps/web/src/proxy';

// Next's own matcher logic, fed our proxy's config (spec §2: every path but the listed exclusions).
const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `http://localhost${path}` });

describe('proxy matcher', () => {
  it.each([
    '/',
    '/examples/42',
    '/examples/docs/a/b',
    '/api',
    '/api/health',
    '/api/nope',
    '/nope',
    '/_next/data/abc/examples/42.json',
    '/favicon.ico.html',
    '/robots.txt/x',
    '/docs/sitemap.xml',
    '/sitemap',
    '/_next/imagery',
    '/static/x.js',
  ])('covers %s', (path) => {
    expect(matches(path)).toBe(true);
  });

  it.each([
    '/_next/static/chunks/main.js',
    '/_next/static/css/app.css',
    '/_next/image',
    '/_next/image?url=%2Fhero.png&w=640&q=75',
    '/favicon.ico',
    '/sitemap.xml',
    '/sitemap-0.xml',
    '/sitemap_index.xml',
    '/robots.txt',
  ])('excludes %s', (path) => {
    expect(matches(path)).toBe(false);
  });
});

describe('the bench baseline (bench/baseline/proxy.js)', () => {
  it('has the same matcher, so that its proxy pass costs what the spec asks of every app', () => {
    const source = readFileSync('bench/baseline/proxy.js', 'utf8');
    const literal = (pattern: string) => `'${pattern.replaceAll('\\', '\\\\')}'`;
    expect(source).toContain(`matcher: [${config.matcher.map(literal).join(', ')}]`);
  });
});
