import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  buildIdOf,
  buildIdPattern,
  inputsFingerprint,
  sourceFingerprint,
  startDecision,
} from '../../packages/foundation/scripts/build-identity.mts';

// Issue 37: a build's id names the tree it was built from, and `npm start` serves only a build of the tree as it is.

const commit = 'a'.repeat(40);

describe('buildIdOf', () => {
  it('is the commit for a tree without changes', () => {
    expect(buildIdOf({ commit, changes: '' })).toBe(commit);
  });

  it('gives a tree with changes an id of its own, in the deployment id alphabet', () => {
    const one = buildIdOf({ commit, changes: 'diff one' });
    const two = buildIdOf({ commit, changes: 'diff two' });
    expect(one).toMatch(new RegExp(`^${commit}-dirty-[A-Za-z0-9_-]+$`));
    expect(one).toMatch(buildIdPattern);
    expect(one).toHaveLength(64);
    expect(two).not.toBe(one);
    expect(buildIdOf({ commit, changes: 'diff one' })).toBe(one);
  });

  it('stays within 64 characters for a SHA-256 repository', () => {
    expect(buildIdOf({ commit: 'b'.repeat(64), changes: 'x' })).toMatch(buildIdPattern);
  });
});

describe('sourceFingerprint of a git tree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-identity-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir }).toString().trim();

  it('is the commit when clean, and changes with an edit or a new file', () => {
    expect(sourceFingerprint(dir)).toBeUndefined();
    git('init', '-q');
    writeFileSync(join(dir, 'page.ts'), 'one');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
    const head = git('rev-parse', 'HEAD');
    expect(sourceFingerprint(dir)).toBe(head);
    writeFileSync(join(dir, 'page.ts'), 'two');
    const edited = sourceFingerprint(dir);
    expect(edited).toMatch(new RegExp(`^${head}-dirty-`));
    writeFileSync(join(dir, 'new.ts'), 'new');
    const added = sourceFingerprint(dir);
    expect(added).toMatch(new RegExp(`^${head}-dirty-`));
    expect(added).not.toBe(edited);
    writeFileSync(join(dir, 'new.ts'), 'newer');
    expect(sourceFingerprint(dir)).not.toBe(added);
  });

  it('is the same from a folder below the root, untracked files anywhere in the tree included (issue 45)', () => {
    const below = join(dir, 'build', 'app');
    mkdirSync(below, { recursive: true });
    writeFileSync(join(below, 'copy.ts'), 'ignored by the tree');
    writeFileSync(join(dir, '.gitignore'), 'build/\n');
    writeFileSync(join(dir, 'uncommitted-page.ts'), 'a page not yet committed');
    const fromRoot = sourceFingerprint(dir);
    expect(fromRoot).toMatch(/-dirty-/);
    expect(sourceFingerprint(below)).toBe(fromRoot);
    writeFileSync(join(dir, 'uncommitted-page.ts'), 'edited');
    expect(sourceFingerprint(below)).not.toBe(fromRoot);
  });
});

describe('sourceFingerprint of an app of the repository (apps/<name>)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-identity-apps-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir }).toString().trim();
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('changes with what its build reads, never with its tests, another app or a doc', () => {
    git('init', '-q');
    for (const path of ['apps/web/src/page.ts', 'apps/web/tests/a.spec.ts', 'apps/guide/src/page.ts'])
      write(path, 'one');
    write('packages/foundation/index.ts', 'one');
    write('notes/a.txt', 'one');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'one');
    const web = join(dir, 'apps/web');
    const head = git('rev-parse', 'HEAD');
    expect(sourceFingerprint(web)).toBe(head);
    // A test, an untracked spec, another app, a doc: the build would be the same.
    write('apps/web/tests/a.spec.ts', 'two');
    write('apps/web/tests/b.spec.ts', 'new');
    write('apps/guide/src/page.ts', 'two');
    write('notes/a.txt', 'two');
    expect(sourceFingerprint(web)).toBe(head);
    expect(sourceFingerprint(join(dir, 'apps/guide'))).toMatch(/-dirty-/);
    // Its own page, untracked, and from a folder below the app: the same fingerprint, another than the clean one.
    write('apps/web/src/new-page.ts', 'a page not yet committed');
    const added = sourceFingerprint(web);
    expect(added).toMatch(new RegExp(`^${head}-dirty-`));
    expect(sourceFingerprint(join(web, 'src'))).toBe(added);
    // The foundation's package is read by every build.
    write('packages/foundation/index.ts', 'two');
    expect(sourceFingerprint(web)).not.toBe(added);
  });
});

describe('inputsFingerprint: whether a build is current (issue 54)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'build-inputs-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir }).toString().trim();
  const commit = (message: string) => {
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', message);
  };
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const web = join(dir, 'apps/web');

  it('depends on what the build reads as it is on disk, never on the commit', () => {
    expect(inputsFingerprint(dir)).toBeUndefined();
    git('init', '-q');
    write('.gitignore', '.env.local\n');
    for (const path of ['apps/web/src/page.ts', 'apps/web/README.md', 'apps/web/tests/a.spec.ts']) write(path, 'one');
    for (const path of ['packages/foundation/index.ts', 'packages/testing/index.ts', 'docs/a.txt', 'package.json'])
      write(path, 'one');
    commit('one');
    const built = inputsFingerprint(web);
    expect(built).toMatch(/^[0-9a-f]{64}$/);

    // A docs-only commit, and one of the app's tests, its README and the tests' helpers: the build is still current,
    // though a new build would be named after the new commit.
    const id = sourceFingerprint(web);
    for (const path of ['docs/a.txt', 'apps/web/README.md', 'apps/web/tests/a.spec.ts', 'packages/testing/index.ts'])
      write(path, 'two');
    commit('docs and tests');
    expect(sourceFingerprint(web)).not.toBe(id);
    expect(inputsFingerprint(web)).toBe(built);
    // A file touched but not changed.
    utimesSync(join(dir, 'apps/web/src/page.ts'), new Date(), new Date(Date.now() + 5000));
    expect(inputsFingerprint(web)).toBe(built);

    // An input edited, then staged, then committed: stale from the edit on, and the same fingerprint throughout.
    write('apps/web/src/page.ts', 'two');
    const edited = inputsFingerprint(web);
    expect(edited).not.toBe(built);
    git('add', 'apps/web/src/page.ts');
    expect(inputsFingerprint(web)).toBe(edited);
    commit('page');
    expect(inputsFingerprint(web)).toBe(edited);
  });

  it('changes with a new untracked file of the app, a deleted one, a package, and the .env files Next loads', () => {
    const before = inputsFingerprint(web);
    write('apps/web/src/new-page.ts', 'a page not yet committed');
    const added = inputsFingerprint(web);
    expect(added).not.toBe(before);
    expect(inputsFingerprint(join(web, 'src'))).toBe(added);
    rmSync(join(dir, 'apps/web/src/new-page.ts'));
    expect(inputsFingerprint(web)).toBe(before);
    rmSync(join(dir, 'apps/web/src/page.ts'));
    expect(inputsFingerprint(web)).not.toBe(before);
    git('checkout', '--', 'apps/web/src/page.ts');
    expect(inputsFingerprint(web)).toBe(before);
    write('packages/foundation/index.ts', 'two');
    expect(inputsFingerprint(web)).not.toBe(before);
    git('checkout', '--', 'packages/foundation/index.ts');
    // Ignored by git, read by `next build`.
    write('apps/web/.env.local', 'NEXT_PUBLIC_SENTRY_DSN=http://public@127.0.0.1:9/1');
    expect(inputsFingerprint(web)).not.toBe(before);
  });
});

describe('startDecision (npm start)', () => {
  it('builds when there is no build', () => {
    expect(startDecision({ builtElsewhere: false, built: false, builtFrom: undefined, tree: commit })).toMatchObject({
      action: 'build',
    });
  });

  it('serves a build of the tree as it is', () => {
    expect(startDecision({ builtElsewhere: false, built: true, builtFrom: commit, tree: commit })).toEqual({
      action: 'serve',
    });
  });

  it('builds again when the sources changed since the build, saying so in one line', () => {
    const decision = startDecision({
      builtElsewhere: false,
      built: true,
      builtFrom: commit,
      tree: `${commit}-dirty-x`,
    });
    expect(decision).toEqual({
      action: 'build',
      reason: 'The sources changed since the production build: building it again (npm run build).',
    });
  });

  it('builds again when the build does not say what it was built from', () => {
    expect(startDecision({ builtElsewhere: false, built: true, builtFrom: undefined, tree: commit })).toMatchObject({
      action: 'build',
    });
  });

  it("serves a build of another directory, the tests' app or one copied from elsewhere, as it is", () => {
    const decision = startDecision({ built: true, builtElsewhere: true, builtFrom: commit, tree: `${commit}-dirty-x` });
    expect(decision).toEqual({ action: 'serve' });
  });

  it('serves outside a git checkout, where there is nothing to compare', () => {
    expect(startDecision({ builtElsewhere: false, built: true, builtFrom: undefined, tree: undefined })).toEqual({
      action: 'serve',
    });
  });
});
