// @ts-check
// What a standalone directory needs beside Next's output to run on its own. Next leaves the public files and static
// assets out on purpose (a CDN may serve them); this app serves them itself, through the server preload.
import {
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  symlinkSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * The server's preload, run beside server.js as it is: `node --import ./packages/foundation/src/server/preload.mts
 * server.js`. Node runs it with its types stripped, which it refuses below node_modules: it is copied, not traced.
 */
export const preload = 'packages/foundation/src/server/preload.mts';

/**
 * The preload and every file it imports, named by their paths in the repository, and copied at those paths so that its
 * imports hold there as here.
 */
export const preloadFiles = [
  preload,
  'packages/foundation/src/server/preload',
  'packages/foundation/src/server/dotSegments.mts',
  'packages/foundation/src/server/requestId.mts',
  'packages/foundation/src/server/shutdown.mts',
  'packages/foundation/src/observability/server/log.mts',
  'packages/foundation/src/observability/server/sourceMappedStack.mts',
  'packages/foundation/src/observability/privacy/logs.mts',
  'packages/foundation/src/observability/privacy/urls.mts',
  'packages/foundation/src/processGlobals.mts',
  'packages/foundation/src/config/browserSettings.mts',
  'packages/foundation/src/config/settings.mts',
  'packages/foundation/src/config/envChecks.mts',
  'packages/foundation/src/config/redis.mts',
  'packages/foundation/src/config/specification.mts',
  'packages/foundation/src/config/trustedProxies.mts',
];

/**
 * An app's migration runner and its migrations, run from the app's folder before the server serves:
 * `node scripts/migrate.mjs` (docs/deployment.md, "Migrations").
 */
export const migrationRunner = 'scripts/migrate.mjs';
const migrationsFolder = 'migrations';

/**
 * Completes the standalone server in `serverDir` from the app in `appDir`, built into `distDir`, and the repository
 * in `repository` (the tests build a copy of the app, without the package).
 * @param {{ appDir?: string, distDir: string, serverDir: string, repository: string }} folders
 */
export async function completeStandalone({ appDir = '.', distDir, serverDir, repository }) {
  cpSync(join(appDir, 'public'), join(serverDir, 'public'), { recursive: true });
  cpSync(join(appDir, distDir, 'static'), join(serverDir, distDir, 'static'), { recursive: true });
  for (const file of preloadFiles) cpSync(join(repository, file), join(serverDir, file), { recursive: true });
  await addMigrations(appDir, distDir, serverDir);
}

/**
 * The app's migration runner, every file it loads and its migrations, at their paths in the standalone directory, so
 * that the runner runs there, and in the image, as in the repository: Next traced only what the server loads, and a
 * database client only the runner imports would be missing. Nothing for an app without a runner.
 * @param {string} appDir
 * @param {string} distDir
 * @param {string} serverDir
 */
async function addMigrations(appDir, distDir, serverDir) {
  if (!existsSync(join(appDir, migrationRunner))) return;
  const build = join(appDir, distDir);
  const { root } = traced(build);
  // Next's own copy of the tracer it made the standalone directory with: the same rules, and no second version. It
  // ships no types, so its name is a value and the type below says what is used of it.
  const tracer = 'next/dist/compiled/@vercel/nft/index.js';
  /** @type {{ nodeFileTrace(files: string[], options: { base: string }): Promise<{ fileList: Set<string> }> }} */
  const nft = (await import(tracer)).default;
  const { fileList } = await nft.nodeFileTrace([resolve(appDir, migrationRunner)], { base: root });
  for (const file of fileList) {
    const [from, to] = [join(root, file), join(build, 'standalone', file)];
    // What Next's trace put there stays as it is.
    if (lstatSync(to, { throwIfNoEntry: false })) continue;
    mkdirSync(dirname(to), { recursive: true });
    // A workspace package's link, as it reads: it points at the package's folder, which the trace lists too.
    if (lstatSync(from).isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else copyFileSync(from, to);
  }
  // However the runner finds them: the tracer sees a folder only when the runner names it plainly.
  const migrations = join(appDir, migrationsFolder);
  if (existsSync(migrations)) cpSync(migrations, join(serverDir, migrationsFolder), { recursive: true });
}

/**
 * What Next recorded of the build in `distDir`: the app's folder, and the root it traced files from (the repository's,
 * where the lockfile is), whose layout the standalone directory keeps.
 * @param {string} distDir
 * @returns {{ app: string, root: string }}
 */
function traced(distDir) {
  /** @type {{ appDir: string, config: { outputFileTracingRoot: string } }} */
  const { appDir, config } = JSON.parse(readFileSync(join(distDir, 'required-server-files.json'), 'utf8'));
  return { app: appDir, root: config.outputFileTracingRoot };
}

/**
 * Where server.js lands in the standalone directory of the build in `distDir`: at the app's path below the root Next
 * traced files from: `apps/web` for apps/web's build.
 * @param {string} distDir
 * @returns {string}
 */
export function standaloneServerDir(distDir) {
  const { app, root } = traced(distDir);
  return join(distDir, 'standalone', relative(root, app));
}
