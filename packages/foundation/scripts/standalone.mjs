// @ts-check
// What a standalone directory needs beside Next's output to run on its own. Next leaves the public files and static
// assets out on purpose (a CDN may serve them); this app serves them itself, through the server preload.
import { cpSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

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
  'packages/foundation/src/config/settings.mts',
  'packages/foundation/src/config/envChecks.mts',
  'packages/foundation/src/config/redis.mts',
  'packages/foundation/src/config/specification.mts',
];

/**
 * Completes the standalone server in `serverDir` from the app in `appDir`, built into `distDir`, and the repository
 * in `repository` (the tests build a copy of the app, without the package).
 * @param {{ appDir?: string, distDir: string, serverDir: string, repository: string }} folders
 */
export function completeStandalone({ appDir = '.', distDir, serverDir, repository }) {
  cpSync(join(appDir, 'public'), join(serverDir, 'public'), { recursive: true });
  cpSync(join(appDir, distDir, 'static'), join(serverDir, distDir, 'static'), { recursive: true });
  for (const file of preloadFiles) cpSync(join(repository, file), join(serverDir, file), { recursive: true });
}

/**
 * Where server.js lands in the standalone directory of the build in `distDir`: at the app's path below the root Next
 * traced files from (the repository's, where the lockfile is): `apps/web` for apps/web's build.
 * @param {string} distDir
 * @returns {string}
 */
export function standaloneServerDir(distDir) {
  /** @type {{ appDir: string, config: { outputFileTracingRoot: string } }} */
  const { appDir, config } = JSON.parse(readFileSync(join(distDir, 'required-server-files.json'), 'utf8'));
  return join(distDir, 'standalone', relative(config.outputFileTracingRoot, appDir));
}
