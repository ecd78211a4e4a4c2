import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every variable the server reads is in a settings table and an .env.example: the foundation's in the repository's
// README (Configuration) and .env.example, each app's own (its src/product.ts) in the app's README.md
// (Settings) and .env.example, so that a team's settings never go into the foundation's files. A variable added to
// the code without them fails here.

/** The names in the README's table, with its short forms spelled out (`SENTRY_AUTH_TOKEN`, `_ORG`; `NEXT_PUBLIC_…`). */
function readmeVariables(file = 'README.md', heading = '## Configuration'): string[] {
  const readme = readFileSync(file, 'utf8');
  const start = readme.indexOf(heading);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((line) => {
      const names = [...line.split('|')[1]!.matchAll(/`([^`]+)`/g)].map(([, name]) => name!);
      const first = names[0]!;
      return names.map((name) => {
        if (name.startsWith('_')) return `${first.slice(0, first.indexOf('_'))}${name}`;
        if (name === 'NEXT_PUBLIC_…') return `NEXT_PUBLIC_${first}`;
        return name;
      });
    });
}

function envExampleVariables(file = '.env.example'): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name!);
}

/**
 * Set by Next (NODE_ENV, by `next dev`, `next build` and the server) or by the build for the app's own code
 * (next.config.ts `env`), never by an operator; or Node's own, which `npm run dev` extends and passes on (NODE_OPTIONS).
 */
const internal = new Set([
  'APP_BUILD_ID',
  'APP_DIST_DIR',
  'APP_RELEASE',
  'NEXT_DEPLOYMENT_ID',
  'NEXT_MANUAL_SIG_HANDLE',
  'NEXT_PHASE',
  'NEXT_RUNTIME',
  'NODE_ENV',
  'NODE_OPTIONS',
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|mts)$/.test(entry.name) && !entry.name.endsWith('.d.mts') ? [path] : [];
  });
}

/**
 * The variables `code` reads (the foundation's and the repository's scripts by default): `process.env.X`, `env.X`,
 * `source.X`, or a check given the name.
 */
function variablesRead(
  code = ['scripts', 'packages/foundation/src', 'packages/foundation/scripts'].flatMap(sourceFiles),
): Map<string, string> {
  const read = new Map<string, string>();
  const pattern =
    /(?:\benv|\bsource)\.([A-Z][A-Z0-9_]*[A-Z0-9])\b|\b(?:secondsAsMs|flag|logLevel|sentryDsn|sampleRate|url|integer)\('([A-Z][A-Z0-9_]*)'/g;
  for (const file of code) {
    for (const [, a, b] of readFileSync(file, 'utf8').matchAll(pattern)) {
      const name = (a ?? b)!;
      if (!internal.has(name) && !read.has(name)) read.set(name, file);
    }
  }
  return read;
}

describe('configuration docs', () => {
  it('the README’s table and .env.example list the same variables', () => {
    expect([...new Set(readmeVariables())].sort()).toEqual([...new Set(envExampleVariables())].sort());
  });
  it('every variable the foundation reads is in both', () => {
    const documented = new Set(readmeVariables());
    const read = variablesRead();
    expect(read.size).toBeGreaterThan(20);
    const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing, 'add each to README.md (Configuration) and .env.example').toEqual([]);
  });
});

describe.each(readdirSync('apps').map((app) => `apps/${app}`))('%s’s own settings', (app) => {
  const table = () => readmeVariables(join(app, 'README.md'), '## Settings');
  it('its README’s Settings table and its .env.example list the same variables', () => {
    expect([...new Set(table())].sort()).toEqual([...new Set(envExampleVariables(join(app, '.env.example')))].sort());
  });
  it('every variable it reads that the foundation does not declare is in both', () => {
    const foundation = new Set(readmeVariables());
    const code = ['src', 'scripts'].map((dir) => join(app, dir)).filter((dir) => existsSync(dir));
    const read = variablesRead([...code.flatMap(sourceFiles), join(app, 'next.config.ts')]);
    const documented = new Set(table());
    const missing = [...read]
      .filter(([name]) => !foundation.has(name) && !documented.has(name))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing, `add each to ${app}/README.md (Settings) and ${app}/.env.example`).toEqual([]);
  });
});
