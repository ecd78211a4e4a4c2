// What a standalone directory needs beside Next's output to run on its own. Next leaves the public files and static
// assets out on purpose (a CDN may serve them); this app serves them itself, through the server preload.
import { cpSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Completes the standalone server in `serverDir` from the app in `appDir`, built into `distDir`. */
export function completeStandalone({ appDir = '.', distDir, serverDir }) {
  cpSync(join(appDir, 'public'), join(serverDir, 'public'), { recursive: true });
  cpSync(join(appDir, distDir, 'static'), join(serverDir, distDir, 'static'), { recursive: true });
  cpSync(join(appDir, 'scripts/server-lifecycle.mjs'), join(serverDir, 'server-lifecycle.mjs'));
  cpSync(join(appDir, 'src/observability/serverLog.mjs'), join(serverDir, 'server-log.mjs'));
  // serverLog.mjs imports it from beside itself; the preload too.
  cpSync(join(appDir, 'src/observability/redaction.mjs'), join(serverDir, 'redaction.mjs'));
  // The preload's request ids follow the proxy's rule.
  cpSync(join(appDir, 'src/server/requestId.mjs'), join(serverDir, 'request-id.mjs'));
  // The preload refuses dot segments, which the proxy never sees.
  cpSync(join(appDir, 'src/server/dotSegments.mjs'), join(serverDir, 'dot-segments.mjs'));
  // The preload runs the hooks the app registers with onShutdown().
  cpSync(join(appDir, 'src/server/shutdown.mjs'), join(serverDir, 'shutdown.mjs'));
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
