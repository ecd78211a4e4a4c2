import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The foundation is one package (packages/foundation) and the apps use it only through what its `exports` name: a
// private file may move without a word in its CHANGELOG.md, so an app that reached into one would break on an update.

const foundation = 'packages/foundation';
const manifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
const { name, exports, peerDependencies } = manifest(foundation) as {
  name: string;
  exports: Record<string, string>;
  peerDependencies: Record<string, string>;
};

/** The code of every app (apps/*): its sources, scripts and tests, and its next.config.ts. */
function appFiles(app: string): string[] {
  const code = ['src', 'scripts', 'tests'].map((dir) => join(app, dir)).filter((dir) => existsSync(dir));
  return [
    ...code.flatMap((dir) =>
      readdirSync(dir, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|mjs)$/.test(entry.name))
        .map((entry) => join(entry.parentPath, entry.name)),
    ),
    join(app, 'next.config.ts'),
  ];
}
const apps = readdirSync('apps').flatMap((app) => appFiles(join('apps', app)));

/** Every module an app's file imports or re-exports. */
const specifiers = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^'"]*?['"]([^'"]+)['"]/gm)].map(([, s]) => s!);

describe('the foundation package', () => {
  it('names an existing file for each of its exports', () => {
    const missing = Object.values(exports).filter((target) => !existsSync(join(foundation, target)));
    expect(Object.keys(exports).length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it('is used by the apps only through its exports, never by a path into its files', () => {
    const imports = apps.flatMap((file) => specifiers(file).map((specifier) => ({ file, specifier })));
    expect(imports.some(({ specifier }) => specifier.startsWith(`${name}/`))).toBe(true);
    const deep = imports.filter(
      ({ specifier }) =>
        specifier.includes(`${foundation}/`) ||
        (specifier.startsWith(`${name}/`) && !(`.${specifier.slice(name.length)}` in exports)),
    );
    expect(deep.map(({ file, specifier }) => `${file}: ${specifier}`)).toEqual([]);
  });

  it("runs in the apps' scripts through its bin, never by a path into its files", () => {
    const { bin } = manifest(foundation) as { bin: Record<string, string> };
    const cli = join(foundation, bin['web-foundation']!);
    // npm links the file as it is: it must say which interpreter runs it, and be executable (git keeps the mode).
    expect(readFileSync(cli, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(statSync(cli).mode & 0o111).not.toBe(0);
    const scripts = ['.', ...readdirSync('apps').map((app) => join('apps', app))].flatMap((dir) =>
      Object.entries((manifest(dir).scripts ?? {}) as Record<string, string>).map(
        ([script, command]) => `${dir} ${script}: ${command}`,
      ),
    );
    expect(scripts.some((line) => line.includes('exec web-foundation start'))).toBe(true);
    expect(scripts.filter((line) => line.includes(foundation))).toEqual([]);
  });

  it('takes next, React and the Sentry SDK at the versions the app pins, so that npm installs one copy of each', () => {
    const { dependencies } = manifest('.') as { dependencies: Record<string, string> };
    expect(Object.keys(peerDependencies)).toEqual(expect.arrayContaining(['next', 'react', '@sentry/nextjs']));
    for (const [peer, version] of Object.entries(peerDependencies)) expect(dependencies[peer], peer).toBe(version);
  });
});
