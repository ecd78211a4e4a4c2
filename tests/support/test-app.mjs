// The app the end-to-end tests run: a copy of this repository's app with the tests' own pages (tests/app, laid over
// src/) and the guide's files (examples/build-your-product, laid over the app's root) added, built by `npm run build`'s
// own script. The foundation's package is not copied: the copy imports it by name, through the project's node_modules.
// The product's pages are the team's to replace; the pages that prove the foundation's behaviours belong to the tests,
// so replacing the product's pages leaves every proof standing.
//
//   node tests/support/test-app.mjs           compose the copy, then build it with the environment given
// (NEXT_DIST_DIR)   node tests/support/test-app.mjs --compose <copy>   compose a copy only, for `next dev`
// (tests/e2e/development.spec.ts)
//
// The benchmarks build the same app with buildTestApp(). The build lands where a build of the repository itself would:
// <NEXT_DIST_DIR>/standalone/server.js in the project.
// The copy has no node_modules of its own: it uses the project's, so Next takes the project as the build's root.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { standaloneServerDir } from '../../packages/foundation/scripts/standalone.mjs';
import { testAppCopy } from './e2e-env.mts';

/** `npm run build`'s script, from this file. */
const build = '../../packages/foundation/scripts/build.mjs';
/** The files docs/build-your-product.md adds to the app, each at the path it takes there. */
export const guideFolder = 'examples/build-your-product';
/** What `npm run build` needs of the repository's app: its files and its configuration. */
const appFiles = ['src', 'public', 'next.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json', '.nvmrc'];

/** Copies the app into `copy` (a path below the project), with the tests' pages and the guide's files. */
export function composeTestApp(copy) {
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const file of appFiles) cpSync(file, join(copy, file), { recursive: true });
  for (const path of filesUnder('tests/app')) {
    const to = join(copy, 'src', path);
    if (existsSync(to)) throw new Error(`tests/app/${path} would replace the app's src/${path}: rename one.`);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(join('tests/app', path), to);
  }
  if (!existsSync(guideFolder)) {
    throw new Error(
      `${guideFolder} is missing: the tests build the guide's files into their app, and its tests prove them (docs/build-your-product.md). Restore it with git.`,
    );
  }
  for (const path of guideFiles()) {
    const to = join(copy, path);
    // The guide also fills in files the app has (src/config/productEnv.ts): the guide's are what its tests prove.
    if (existsSync(to) && readFileSync(to, 'utf8') !== readFileSync(join(guideFolder, path), 'utf8')) {
      console.log(`test app: ${path} is the guide's version`);
    }
  }
  cpSync(guideFolder, copy, { recursive: true });
}

/**
 * Composes the test app in `copy`, builds it with `env` added to this process's environment, and moves the build to
 * the project as if the project had been built (`distDir`, NEXT_DIST_DIR's default): tests and benchmarks find it
 * there.
 */
export function buildTestApp({ env = {}, copy = testAppCopy } = {}) {
  composeTestApp(copy);
  const distDir = env.NEXT_DIST_DIR || process.env.NEXT_DIST_DIR || '.next';
  const { status } = spawnSync('node', [fileURLToPath(new URL(build, import.meta.url))], {
    cwd: copy,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  if (status !== 0) throw new Error(`The build of the test app in ${copy} failed (exit code ${status}).`);
  const built = resolve(copy, distDir);
  const standalone = resolve(distDir, 'standalone');
  // The standalone server sits at the copy's path inside the standalone directory: it is lifted to the top.
  const nested = resolve(standaloneServerDir(join(copy, distDir)));
  const moved = (path) =>
    path.startsWith(`${nested}/`)
      ? join(standalone, relative(nested, path))
      : path.startsWith(`${built}/`)
        ? join(resolve(distDir), relative(built, path))
        : path;
  // Turbopack links the packages a server bundle loads (<distDir>/node_modules) by relative paths: read them before
  // the move, and point each again from where it lands to where its target lands.
  const links = symlinksUnder(built).map((link) => ({ link, target: resolve(dirname(link), readlinkSync(link)) }));
  rmSync(distDir, { recursive: true, force: true });
  renameSync(built, distDir);
  for (const entry of readdirSync(moved(nested))) renameSync(join(moved(nested), entry), join(standalone, entry));
  rmSync(join(standalone, relative(join(built, 'standalone'), nested).split(sep)[0]), { recursive: true });
  for (const { link, target } of links) {
    rmSync(moved(link));
    symlinkSync(relative(dirname(moved(link)), moved(target)), moved(link));
  }
  console.log(`test app: standalone server ready in ${relative('.', standalone)}`);
  return relative('.', standalone);
}

/** The guide's files, each as the path it takes in the app (src/pages/hello.tsx). */
export const guideFiles = () => filesUnder(guideFolder);

/** Every file below `dir`, as a path relative to it. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)));
}

/** Every symbolic link below `dir`. */
function symlinksUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isSymbolicLink())
    .map((entry) => join(entry.parentPath, entry.name));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const [option, copy] = process.argv.slice(2);
    if (option === '--compose' && copy) composeTestApp(copy);
    else buildTestApp();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
