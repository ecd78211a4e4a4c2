import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { appFolders } from '@web-foundation/testing/apps';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import { describe, expect, it } from 'vitest';

// Next's own matcher logic, fed each app's proxy config (spec §2: every path but the listed exclusions). Every app
// writes its matcher literally, as Next requires, so each is checked: the apps are found, not named.
const proxyConfigs = await Promise.all(
  appFolders().map(async (app) => {
    const { config } = (await import(resolve(app, 'src/proxy.ts'))) as { config: { matcher: string[] } };
    return [app, config] as const;
  }),
);

describe.each(proxyConfigs)('proxy matcher of %s', (_app, config) => {
  const matches = (path: string) => unstable_doesMiddlewareMatch({ config, url: `http://localhost${path}` });

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
  it.each(proxyConfigs)(
    'has the same matcher as %s, so that its proxy pass costs what the spec asks of every app',
    (_app, config) => {
      const source = readFileSync('bench/baseline/proxy.js', 'utf8');
      const literal = (pattern: string) => `'${pattern.replaceAll('\\', '\\\\')}'`;
      expect(source).toContain(`matcher: [${config.matcher.map(literal).join(', ')}]`);
    },
  );
});
