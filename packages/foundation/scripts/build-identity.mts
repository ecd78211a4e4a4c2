// What a build was made from: its id (next.config.ts), which names the commit, and the fingerprint of what it read,
// which `npm start` and the tests compare with the tree's to tell a current build from a stale one. A commit that
// touches nothing a build reads (a doc, a test) leaves the build current; a deploy still names its build by its commit.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';

/** The commit checked out, and everything in the tree that differs from it ('' when nothing does). */
export interface SourceState {
  commit: string;
  changes: string;
}

/** Next's deploymentId takes 1-64 characters of A-Z a-z 0-9 _ -, the narrower of its and the build id's alphabets. */
export const buildIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The id of a build of `state`: the commit when the tree is the commit, else the commit (its first 40 characters),
 * `-dirty-` and a hash of the changes, so that every edited tree gets an id of its own.
 */
export function buildIdOf({ commit, changes }: SourceState): string {
  if (changes === '') return commit;
  const hash = createHash('sha256').update(changes).digest('base64url');
  const prefix = `${commit.slice(0, 40)}-dirty-`;
  return prefix + hash.slice(0, 64 - prefix.length);
}

/**
 * What a build of the app in `app` (a folder of the repository) reads, as git pathspecs: the app's own files but its
 * tests and the files written for people (README.md, .env.example); the packages it is built with but the tests'
 * helpers (packages/testing) and the changelogs; the root's package.json and lockfile (what node_modules holds), the
 * shared tsconfig and the Node version. A change anywhere else (a test, a doc, another app) leaves its build as it was:
 * its id, and `npm start`'s and the tests' judgement that it is current.
 */
export function buildInputs(app: string): string[] {
  const own =
    app === ''
      ? ['.', ':(exclude)tests', ':(exclude)docs', ':(exclude)bench']
      : [app, `:(exclude)${app}/tests`, `:(exclude)${app}/README.md`, `:(exclude)${app}/.env.example`];
  return [
    ...own,
    'packages',
    ':(exclude)packages/testing',
    ':(exclude,glob)packages/*/CHANGELOG.md',
    'package.json',
    'package-lock.json',
    'tsconfig.base.json',
    '.nvmrc',
  ];
}

/** The environment files `next build` loads from the app's folder, which git ignores (.gitignore) but a build reads. */
const nextEnvFiles = ['.env', '.env.local', '.env.production', '.env.production.local'];

/**
 * The state of what the app in `from` is built from, from git: the diff against HEAD (binary-safe) and each untracked,
 * not ignored file with its content, of buildInputs() only. Asked from any folder of the app, it is the app's (git
 * runs at the repository's top, where `git ls-files --others` sees every untracked file). Undefined outside a git
 * checkout.
 */
export function sourceState(from = process.cwd()): SourceState | undefined {
  const repository = repositoryOf(from);
  if (!repository) return undefined;
  const { git, app } = repository;
  let commit: string;
  try {
    commit = git('rev-parse', 'HEAD').toString().trim();
  } catch {
    return undefined;
  }
  const inputs = buildInputs(app);
  const diff = git('diff', 'HEAD', '--binary', '--', ...inputs);
  const untracked = nulSeparated(git('ls-files', '--others', '--exclude-standard', '-z', '--', ...inputs));
  if (diff.length === 0 && untracked.length === 0) return { commit, changes: '' };
  const changes = createHash('sha256').update(diff);
  for (const file of untracked) changes.update(`\0${file}\0`).update(readFileSync(`${repository.top}/${file}`));
  return { commit, changes: changes.digest('hex') };
}

/**
 * The fingerprint of what the app in `from` reads when it is built (buildInputs() and Next's .env files), as they are
 * on disk: each file's path and git blob id, whether committed, staged, edited or untracked. It depends on no commit:
 * a commit that changes none of them leaves it as it was. Undefined outside a git checkout.
 */
export function inputsFingerprint(from = process.cwd()): string | undefined {
  const repository = repositoryOf(from);
  if (!repository) return undefined;
  const { git, app, top } = repository;
  const inputs = buildInputs(app);
  // The index's blob ids (`<mode> <blob> <stage>\t<path>`), then every file whose copy on disk may differ from them.
  const blobs = new Map<string, string>();
  for (const entry of nulSeparated(git('ls-files', '--stage', '-z', '--', ...inputs))) {
    const tab = entry.indexOf('\t');
    blobs.set(entry.slice(tab + 1), entry.split(' ')[1]!);
  }
  const onDisk = [
    ...nulSeparated(git('diff-files', '--name-only', '-z', '--', ...inputs)),
    ...nulSeparated(git('ls-files', '--others', '--exclude-standard', '-z', '--', ...inputs)),
    ...nextEnvFiles.map((file) => (app === '' ? file : `${app}/${file}`)),
  ].filter((file) => {
    if (existsSync(`${top}/${file}`)) return true;
    blobs.delete(file);
    return false;
  });
  // Hashed as git would store them, so that a file touched but not changed keeps the id it has in the index.
  const ids =
    onDisk.length === 0
      ? []
      : git('hash-object', '--', ...onDisk)
          .toString()
          .trim()
          .split('\n');
  onDisk.forEach((file, i) => blobs.set(file, ids[i]!));
  const fingerprint = createHash('sha256');
  for (const [file, id] of [...blobs].sort(([a], [b]) => (a < b ? -1 : 1))) fingerprint.update(`${file}\0${id}\0`);
  return fingerprint.digest('hex');
}

/** The repository around `from` (its top folder, git run there) and the app `from` is in; undefined outside git. */
function repositoryOf(from: string) {
  let top: string;
  try {
    top = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: from, stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
  // At the top, where `git ls-files --others` sees every untracked file.
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: top, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  return { top, git, app: appFolderOf(relative(top, from)) };
}

const nulSeparated = (output: Buffer) => output.toString().split('\0').filter(Boolean);

/** The app a folder belongs to: `apps/<name>` for any folder below it, else the repository's top (''). */
const appFolderOf = (folder: string) => /^apps\/[^/]+/.exec(folder.split(sep).join('/'))?.[0] ?? '';

/** The id a build of the app in `cwd` gets without BUILD_ID: the commit, and a hash of the changes to its inputs. */
export function sourceFingerprint(cwd = process.cwd()): string | undefined {
  const state = sourceState(cwd);
  return state && buildIdOf(state);
}

/** The file beside a build that records the fingerprint of the inputs it was built from (inputsFingerprint). */
export const fingerprintFile = (distDir: string) => `${distDir}/source-fingerprint`;

/** The fingerprint recorded beside a build (packages/foundation/scripts/build.mjs), or undefined if it has none. */
export function recordedFingerprint(distDir: string): string | undefined {
  try {
    return readFileSync(fingerprintFile(distDir), 'utf8').trim();
  } catch {
    return undefined;
  }
}

export type StartDecision = { action: 'serve' } | { action: 'build'; reason: string };

/**
 * Whether `npm start` may serve the build it finds or must build first. It builds when there is no build, and when
 * the tree's sources differ from the build's (or the build does not say what it was built from). A build of another
 * directory (the end-to-end tests' app, a build copied from elsewhere) is not this tree's to replace, and outside a git
 * checkout there is nothing to compare: both are served.
 */
export function startDecision({
  built,
  builtElsewhere,
  builtFrom,
  tree,
}: {
  built: boolean;
  builtElsewhere: boolean;
  builtFrom: string | undefined;
  tree: string | undefined;
}): StartDecision {
  if (!built) return { action: 'build', reason: 'No production build yet: building it first (npm run build).' };
  if (builtElsewhere || tree === undefined || builtFrom === tree) return { action: 'serve' };
  return {
    action: 'build',
    reason:
      builtFrom === undefined
        ? 'The production build does not say what sources it was built from: building it again (npm run build).'
        : 'The sources changed since the production build: building it again (npm run build).',
  };
}
