// What a standalone directory needs beside Next's output to run on its own. Next leaves the public files and static
// assets out on purpose (a CDN may serve them); this app serves them itself, through the server preload.
import { cpSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The server's preload, run beside server.js as it is: `node --import ./src/server/preload.mts server.js`. */
export const preload = 'src/server/preload.mts';

/** The preload and every file it imports, copied at their own paths so that its imports hold there as here. */
export const preloadFiles = [
  preload,
  'src/server/preload',
  'src/server/dotSegments.mts',
  'src/server/requestId.mts',
  'src/server/shutdown.mts',
  'src/observability/server/log.mts',
  'src/observability/privacy/logs.mts',
  'src/observability/privacy/urls.mts',
  'src/processGlobals.mts',
  'src/config/settings.mts',
  'src/config/envChecks.mts',
  'src/config/specification.mts',
];

/** Completes the standalone server in `serverDir` from the app in `appDir`, built into `distDir`. */
export function completeStandalone({ appDir = '.', distDir, serverDir }) {
  cpSync(join(appDir, 'public'), join(serverDir, 'public'), { recursive: true });
  cpSync(join(appDir, distDir, 'static'), join(serverDir, distDir, 'static'), { recursive: true });
  for (const file of preloadFiles) cpSync(join(appDir, file), join(serverDir, file), { recursive: true });
}

/**
 * Where server.js lands in the standalone directory of the build in `distDir`: at the app's path below the root Next
 * traced files from, which is the top unless the app is a copy inside a project (the tests' app,
 * tests/support/test-app.mjs).
 */
export function standaloneServerDir(distDir) {
  const { appDir, config } = JSON.parse(readFileSync(join(distDir, 'required-server-files.json'), 'utf8'));
  return join(distDir, 'standalone', relative(config.outputFileTracingRoot, appDir));
}
