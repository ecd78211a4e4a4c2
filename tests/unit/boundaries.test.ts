import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

// The arrows point one way (issue 52): an app composes the foundation's packages and its test harness, used by name;
// no package reaches into an app, no app reaches into the root tests/, and those, the foundation's own, name no app:
// they find the apps (@web-foundation/testing/apps).

/** The code files under a folder, builds and installs left out. */
function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name.startsWith('.') ? [] : codeFiles(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module a file's text imports, re-exports, loads dynamically or requires. */
const specifiers = (text: string) =>
  [...text.matchAll(/\b(?:from|import|require)\s*\(?\s*['"]([^'"]+)['"]/g)].map(([, specifier]) => specifier!);

/** What a specifier in this file reaches: a repository path for a relative one, else the name it imports. */
const target = (file: string, specifier: string) =>
  specifier.startsWith('.') ? relative('.', resolve(dirname(file), specifier)) : specifier;

/** The imports of these files that reach a place they must not, as `file: specifier`. */
function crossings(files: { file: string; text: string }[], forbidden: (reached: string) => boolean): string[] {
  return files.flatMap(({ file, text }) =>
    specifiers(text)
      .filter((specifier) => forbidden(target(file, specifier)))
      .map((specifier) => `${file}: ${specifier}`),
  );
}

const read = (files: string[]) => files.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
/** A package reaches an app by a path into apps/, or by a tsconfig alias that names an app's module. */
const intoApps = (reached: string) => reached.startsWith('apps/') || reached.startsWith('@web-foundation/product-');
const intoRootTests = (reached: string) => reached.startsWith('tests/');

describe('the boundaries between the foundation and the apps', () => {
  it('finds a crossing where there is one', () => {
    const app = [
      { file: 'apps/shop/tests/sample-paths.ts', text: "import type { X } from '../../../tests/support/sweep';" },
    ];
    const pkg = [
      { file: 'packages/testing/src/sweep.ts', text: "const t = await import('../../../apps/web/tests/x');" },
    ];
    expect(crossings(app, intoRootTests)).toEqual(['apps/shop/tests/sample-paths.ts: ../../../tests/support/sweep']);
    expect(crossings(pkg, intoApps)).toEqual(['packages/testing/src/sweep.ts: ../../../apps/web/tests/x']);
  });

  it('no package imports an app, by path or by an alias into it', () => {
    const files = codeFiles('packages');
    expect(files.length).toBeGreaterThan(50);
    expect(crossings(read(files), intoApps)).toEqual([]);
  });

  it('no root test imports an app by path: it finds them', () => {
    const files = codeFiles('tests');
    expect(files.length).toBeGreaterThan(40);
    expect(crossings(read(files), (reached) => reached.startsWith('apps/'))).toEqual([]);
  });

  it('no app imports the root tests/ by path: it uses @web-foundation/testing by name', () => {
    const files = codeFiles('apps');
    expect(files.some((file) => file.includes('/tests/'))).toBe(true);
    expect(crossings(read(files), intoRootTests)).toEqual([]);
  });
});
