// The app the end-to-end tests run: a copy of this repository's app with the tests' own pages (tests/app, laid over
// src/) and the guide's new files (every code block of docs/build-your-product.md that names a file) added, built by
// `npm run build`'s own script. The product's pages are the team's to replace; the pages that prove the foundation's
// behaviours belong to the tests, so replacing the product's pages leaves every proof standing.
//
//   node tests/support/test-app.mjs           compose the copy, then build it with the environment given (NEXT_DIST_DIR)
//
// The build lands where a build of the repository itself would: <NEXT_DIST_DIR>/standalone/server.js in the project.
// The copy has no node_modules of its own: it uses the project's, so Next takes the project as the build's root.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { testAppCopy } from './e2e-env.mjs';

const guide = 'docs/build-your-product.md';
/** What `npm run build` needs of the repository: the app, its configuration and its build scripts. */
const appFiles = [
  'src',
  'public',
  'scripts',
  'next.config.ts',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  '.nvmrc',
];

/** The guide's new files: every code block whose info string names a file (```tsx src/pages/hello.tsx, ```sql db/1.sql). */
function guideFiles() {
  const files = [...readFileSync(guide, 'utf8').matchAll(/^```\w+ ([\w.-]+\/\S+)\n([\s\S]*?)^```$/gm)];
  if (files.length === 0) throw new Error(`${guide} has no code block naming a file.`);
  return files.map(([, path, code]) => ({ path, code }));
}

function compose() {
  rmSync(testAppCopy, { recursive: true, force: true });
  mkdirSync(testAppCopy, { recursive: true });
  for (const file of appFiles) cpSync(file, join(testAppCopy, file), { recursive: true });
  for (const entry of readdirSync('tests/app', { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const from = join(entry.parentPath, entry.name);
    const to = join(testAppCopy, 'src', relative('tests/app', from));
    if (existsSync(to)) throw new Error(`${from} would replace the app's ${relative(testAppCopy, to)}: rename one.`);
    mkdirSync(dirname(to), { recursive: true });
    cpSync(from, to);
  }
  for (const { path, code } of guideFiles()) {
    const to = join(testAppCopy, path);
    // The guide also fills in files the app has (src/config/productEnv.ts): the guide's are what its tests prove.
    if (existsSync(to) && readFileSync(to, 'utf8') !== code) console.log(`test app: ${path} is the guide's version`);
    mkdirSync(dirname(to), { recursive: true });
    writeFileSync(to, code);
  }
}

/** Builds the copy, then moves the build to the project as if the project had been built: tests find it there. */
function build() {
  const distDir = process.env.NEXT_DIST_DIR || '.next';
  const { status } = spawnSync('node', ['scripts/build.mjs'], { cwd: testAppCopy, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
  rmSync(distDir, { recursive: true, force: true });
  renameSync(join(testAppCopy, distDir), distDir);
  // The standalone server sits at the copy's path inside the standalone directory: lift it to the top.
  const standalone = join(distDir, 'standalone');
  const nested = join(standalone, testAppCopy);
  for (const entry of readdirSync(nested)) renameSync(join(nested, entry), join(standalone, entry));
  rmSync(join(standalone, testAppCopy.split('/')[0]), { recursive: true });
  console.log(`test app: standalone server ready in ${standalone}`);
}

compose();
build();
