import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 45: a team takes the foundation's later changes by a merge (docs/forking.md). A fork of this repository that
// followed the guide in its app (apps/web: the guide's pages and settings, a page and a migration of its own, a
// setting of its own, the `pg` dependency) merges a foundation change that bumps a dependency, adds a foundation
// setting and edits a foundation source file: no conflict, nothing of the team's touched, and its app still
// type-checks with its settings documented.

const repository = resolve('.');
const place = mkdtempSync(join(tmpdir(), 'fork-update-'));
afterAll(() => rmSync(place, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.com', ...args], {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  }).trim();
const edit = (file: string, change: (text: string) => string) =>
  writeFileSync(file, change(readFileSync(file, 'utf8')));
const write = (file: string, text: string) => {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
};
const json = (file: string, change: (value: Record<string, Record<string, unknown>>) => void) =>
  edit(file, (text) => {
    const value = JSON.parse(text);
    change(value);
    return `${JSON.stringify(value, null, 2)}\n`;
  });

/**
 * What the team did in its fork, following docs/build-your-product.md and docs/forking.md: all of it in apps/web. It
 * starts from the upstream's own apps, never from what apps/web holds where this test runs: in a team's fork that is
 * the team's app, which the guide's files would not fit.
 */
function followTheGuide(fork: string) {
  const app = join(fork, 'apps/web');
  // apps/guide is the app the guide builds, every file at the path it takes in apps/web: the team's app as the guide
  // leaves it, under the team's package name.
  rmSync(app, { recursive: true, force: true });
  cpSync(join(fork, 'apps/guide'), app, { recursive: true });
  json(join(app, 'package.json'), (manifest) => Object.assign(manifest, { name: 'web' }));
  // A page and a migration of its own, and a setting of its own beside the guide's three.
  write(
    join(app, 'src/pages/catalog.tsx'),
    "import { PageHead } from '@web-foundation/foundation/components/PageHead';\n\n" +
      'export default function Catalog() {\n  return (\n    <main>\n' +
      '      <PageHead title="Catalog" description="What we sell." />\n      <h1>Catalog</h1>\n    </main>\n  );\n}\n',
  );
  write(join(app, 'migrations/0002-catalog.sql'), 'CREATE TABLE catalog (id serial PRIMARY KEY, name text);\n');
  edit(join(app, 'src/product.ts'), (text) =>
    text
      .replace(
        "import { secret, url } from '@web-foundation/foundation/env-checks';",
        "import { integer, secret, url } from '@web-foundation/foundation/env-checks';",
      )
      .replace(
        '    /** SESSION_SECRET',
        "    /** CATALOG_SIZE: items per page. */\n    catalogSize: integer('CATALOG_SIZE', source.CATALOG_SIZE, { min: 1, max: 100, fallback: 20 }),\n    /** SESSION_SECRET",
      ),
  );
  edit(join(app, '.env.example'), (text) => `${text}# Items per page of the catalog, 1 to 100.\nCATALOG_SIZE=20\n`);
  edit(
    join(app, 'README.md'),
    (text) => `${text.trimEnd()}\n| \`CATALOG_SIZE\` | \`20\` | Start. Items per page of the catalog. |\n`,
  );
  // The guide's dependency (`pg`, in the copied package.json), as `npm install pg -w apps/web` records it.
  json(join(fork, 'package-lock.json'), (lock) => {
    const entry = (lock.packages as Record<string, { dependencies: Record<string, string> }>)['apps/web']!;
    entry.dependencies = { ...entry.dependencies, pg: '8.23.1' };
  });
  git(fork, 'add', '-A');
  git(fork, 'commit', '-qm', 'Our product, as the guide builds it');
}

/** A later change of the foundation's: a dependency bumped, a setting added, a source file edited. */
function changeTheFoundation(upstream: string) {
  json(join(upstream, 'packages/foundation/package.json'), (manifest) => (manifest.dependencies!.pino = '10.4.1'));
  json(join(upstream, 'package-lock.json'), (lock) => {
    const packages = lock.packages as Record<string, { version?: string; dependencies?: Record<string, string> }>;
    packages['packages/foundation']!.dependencies!.pino = '10.4.1';
    packages['node_modules/pino']!.version = '10.4.1';
  });
  edit(join(upstream, 'packages/foundation/src/config/settings.mts'), (text) =>
    text.replace(
      "    logRequests: flag('LOG_REQUESTS', env.LOG_REQUESTS),",
      "    logRequests: flag('LOG_REQUESTS', env.LOG_REQUESTS),\n    // LOG_SAMPLE: a later foundation setting.\n    logSample: flag('LOG_SAMPLE', env.LOG_SAMPLE),",
    ),
  );
  edit(join(upstream, 'README.md'), (text) =>
    text.replace(/^(\| `LOG_REQUESTS` .*)$/m, '$1\n| `LOG_SAMPLE` | `0` | Start. A later foundation setting. |'),
  );
  edit(join(upstream, '.env.example'), (text) => `${text}# A later foundation setting.\nLOG_SAMPLE=0\n`);
  edit(join(upstream, 'packages/foundation/src/server/api.ts'), (text) => `${text}\n// A later foundation change.\n`);
  edit(join(upstream, 'packages/foundation/CHANGELOG.md'), (text) =>
    text.replace('\n## ', '\n## Later: LOG_SAMPLE\n\nNothing to do in your app.\n\n## '),
  );
  git(upstream, 'add', '-A');
  git(upstream, 'commit', '-qm', 'A foundation change');
}

// Two clones, a compiler and a test run: seconds on a quiet machine, a minute on a loaded one.
describe('a fork takes the foundation’s later change by a merge', { timeout: 180_000 }, () => {
  const upstream = join(place, 'foundation');
  const fork = join(place, 'product');

  it('merges with no conflict and touches none of the team’s files', () => {
    git(place, 'clone', '-q', repository, upstream);
    git(place, 'clone', '-q', upstream, fork);
    followTheGuide(fork);
    const teamCommit = git(fork, 'rev-parse', 'HEAD');
    changeTheFoundation(upstream);

    git(fork, 'fetch', '-q', 'origin');
    const merge = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'merge', '--no-edit', 'origin/HEAD'], {
      cwd: fork,
      encoding: 'utf8',
    });
    expect(merge.status, `git merge: ${merge.stdout}${merge.stderr}`).toBe(0);
    const touched = git(fork, 'diff', '--name-only', teamCommit, 'HEAD').split('\n');
    expect(touched.sort()).toEqual(
      [
        '.env.example',
        'README.md',
        'package-lock.json',
        'packages/foundation/CHANGELOG.md',
        'packages/foundation/package.json',
        'packages/foundation/src/config/settings.mts',
        'packages/foundation/src/server/api.ts',
      ].sort(),
    );
    expect(touched.filter((file) => file.startsWith('apps/'))).toEqual([]);
    // Both sides' changes are in the merged lockfile.
    const lock = JSON.parse(readFileSync(join(fork, 'package-lock.json'), 'utf8'));
    expect(lock.packages['apps/web'].dependencies.pg).toBe('8.23.1');
    expect(lock.packages['packages/foundation'].dependencies.pino).toBe('10.4.1');
  });

  it('still type-checks, and documents every setting it reads', () => {
    // The installed packages of this checkout stand in for `npm install` (the bump changes no type the app uses).
    symlinkSync(join(repository, 'node_modules'), join(fork, 'node_modules'));
    const types = spawnSync(join(repository, 'node_modules/.bin/tsc'), ['--noEmit', '-p', 'apps/web'], {
      cwd: fork,
      encoding: 'utf8',
    });
    expect(types.status, types.stdout).toBe(0);
    const docs = spawnSync(
      join(repository, 'node_modules/.bin/vitest'),
      ['run', 'tests/unit/configuration-docs.test.ts', '--root', fork],
      { cwd: fork, encoding: 'utf8' },
    );
    expect(docs.status, docs.stdout + docs.stderr).toBe(0);
  });
});
