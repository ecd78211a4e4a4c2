// What a build was made from: its id (next.config.ts) and the fingerprint `npm start` compares with the tree's, so that
// two different trees never share a build id and `npm start` never serves a build of other sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
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
 * What a build of the app in `app` (a folder of the repository) reads: the app's own files but its tests, the
 * foundation's package, and the repository's files every app shares. A change anywhere else (a test, a doc, another
 * app) leaves its build as it was: its id, and `npm start`'s and the tests' judgement that it is current.
 */
export function buildInputs(app: string): string[] {
  const own =
    app === '' ? ['.', ':(exclude)tests', ':(exclude)docs', ':(exclude)bench'] : [app, `:(exclude)${app}/tests`];
  return [...own, 'packages', 'package.json', 'package-lock.json', 'tsconfig.base.json', '.nvmrc'];
}

/**
 * The state of what the app in `from` is built from, from git: the diff against HEAD (binary-safe) and each untracked,
 * not ignored file with its content, of buildInputs() only. Asked from any folder of the app, it is the app's (git
 * runs at the repository's top, where `git ls-files --others` sees every untracked file). Undefined outside a git
 * checkout.
 */
export function sourceState(from = process.cwd()): SourceState | undefined {
  let cwd = from;
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd, stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 30 });
  let commit: string;
  let app: string;
  try {
    commit = git('rev-parse', 'HEAD').toString().trim();
    cwd = git('rev-parse', '--show-toplevel').toString().trim();
    app = appFolderOf(relative(cwd, from));
  } catch {
    return undefined;
  }
  const inputs = buildInputs(app);
  const diff = git('diff', 'HEAD', '--binary', '--', ...inputs);
  const untracked = git('ls-files', '--others', '--exclude-standard', '-z', '--', ...inputs)
    .toString()
    .split('\0')
    .filter(Boolean);
  if (diff.length === 0 && untracked.length === 0) return { commit, changes: '' };
  const changes = createHash('sha256').update(diff);
  for (const file of untracked) changes.update(`\0${file}\0`).update(readFileSync(`${cwd}/${file}`));
  return { commit, changes: changes.digest('hex') };
}

/** The app a folder belongs to: `apps/<name>` for any folder below it, else the repository's top (''). */
const appFolderOf = (folder: string) => /^apps\/[^/]+/.exec(folder.split(sep).join('/'))?.[0] ?? '';

/** The fingerprint of the app's sources (the app of `cwd`): the build id it would get without BUILD_ID. */
export function sourceFingerprint(cwd = process.cwd()): string | undefined {
  const state = sourceState(cwd);
  return state && buildIdOf(state);
}

/** The file beside a build that records the fingerprint of the sources it was built from. */
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
