// The steps of docs/build-your-product.md that add code, done as a newcomer would: a throwaway copy of the app, the
// guide's new files written into it from the guide's own code blocks, and `npm run build`'s production build of it.
// tests/e2e/first-page.spec.ts serves the build and checks that step 1's pages are served, traced and reported, and
// tests/e2e/product-tracing.spec.ts that step 4's calls to a backend and to Postgres are traced, so the guide cannot go
// stale. Run by `npm test` before the end-to-end tests. The copy uses the project's node_modules (`pg` is a
// devDependency for step 4).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { completeStandalone } from '../../scripts/standalone.mjs';
import { e2eBuildEnv, e2eDistDir, firstPageCopy } from './e2e-env.mjs';

const guide = 'docs/build-your-product.md';
/** What `npm run build` needs of the repository: the app, its configuration and its build scripts. */
const appFiles = ['src', 'public', 'scripts', 'next.config.ts', 'tsconfig.json', 'tsconfig.build.json', 'package.json'];

/** The guide's new files: every code block whose info string names a file (```tsx src/pages/hello.tsx, ```sql db/1.sql). */
const files = [...readFileSync(guide, 'utf8').matchAll(/^```\w+ ([\w.-]+\/\S+)\n([\s\S]*?)^```$/gm)].map(
  ([, path, code]) => ({ path, code }),
);
if (files.length === 0) throw new Error(`${guide} has no code block naming a file.`);

rmSync(firstPageCopy, { recursive: true, force: true });
mkdirSync(firstPageCopy, { recursive: true });
for (const file of appFiles) cpSync(file, join(firstPageCopy, file), { recursive: true });
for (const { path, code } of files) {
  mkdirSync(dirname(join(firstPageCopy, path)), { recursive: true });
  writeFileSync(join(firstPageCopy, path), code);
  console.log(`first page: wrote ${path} from ${guide}`);
}

// The copy has no node_modules of its own: it uses the project's, so Next takes the project as the build's root, and
// the standalone server lands at the copy's path inside the standalone directory.
const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
const { status } = spawnSync('node', [next, 'build'], {
  cwd: firstPageCopy,
  stdio: 'inherit',
  env: { ...process.env, ...e2eBuildEnv, BUILD_ID: 'first-page' },
});
if (status !== 0) process.exit(status ?? 1);
const server = join(firstPageCopy, e2eDistDir, 'standalone', relative(process.cwd(), firstPageCopy));
completeStandalone({ appDir: firstPageCopy, distDir: e2eDistDir, serverDir: server });
console.log(`first page: standalone server ready in ${server}`);
