import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Every variable the server reads is in the README's configuration table and in .env.example, the foundation's and
// the product's own (src/config/productEnv.ts) alike: a variable added to the code without them fails here.

/** The names in the README's table, with its short forms spelled out (`SENTRY_AUTH_TOKEN`, `_ORG`; `NEXT_PUBLIC_…`). */
function readmeVariables(): string[] {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1),
  );
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

function envExampleVariables(): string[] {
  return [...readFileSync('.env.example', 'utf8').matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map(([, name]) => name!);
}

/**
 * Set by Next (NODE_ENV, by `next dev`, `next build` and the server) or by the build for the app's own code
 * (next.config.ts `env`), never by an operator.
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
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mjs|mts)$/.test(entry.name) && !entry.name.endsWith('.d.mts') ? [path] : [];
  });
}

/** The variables the app and its scripts read: `process.env.X`, `env.X`, `source.X`, or a check given the name. */
function variablesRead(): Map<string, string> {
  const read = new Map<string, string>();
  const pattern =
    /(?:\benv|\bsource)\.([A-Z][A-Z0-9_]*[A-Z0-9])\b|\b(?:secondsAsMs|flag|logLevel|sentryDsn|sampleRate|url|integer)\('([A-Z][A-Z0-9_]*)'/g;
  const code = ['src', 'scripts', 'packages/foundation/src', 'packages/foundation/scripts'].flatMap(sourceFiles);
  for (const file of [...code, 'next.config.ts']) {
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
  it('every variable the server reads is in both', () => {
    const documented = new Set(readmeVariables());
    const read = variablesRead();
    expect(read.size).toBeGreaterThan(20);
    const missing = [...read].filter(([name]) => !documented.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(missing, 'add each to README.md (Configuration) and .env.example').toEqual([]);
  });
});
