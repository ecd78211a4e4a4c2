// @ts-check
// `npm run build`: Next's production build, then a standalone directory that runs on its own:
// <distDir>/standalone holds server.js, the traced node_modules, public/, the static assets, the server preload and
// the app's migrations with their runner.
import './app-folder.mjs';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { keepHintFirst } from './compile-hints.mjs';
import { requireSupportedNode } from './node-version.mjs';
import { precompress } from './precompress.mjs';
import { completeStandalone, preload, standaloneServerDir } from './standalone.mjs';

requireSupportedNode();
// Imported after the check: an older Node.js cannot load TypeScript, and would stop with a stack trace instead.
const { fingerprintFile, inputsFingerprint } = await import('./build-identity.mts');

const { EnvError, buildSettings } = await import('../src/config/settings.mts');
/** @type {import('../src/config/settings.mts').BuildSettings} */
let settings;
try {
  settings = buildSettings();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}
const { distDir, upload } = settings;
if (upload) {
  // Before the compile: a Sentry that cannot take the maps stops the build in seconds, not minutes later.
  const { stopBuild, uploadCheck } = await import('./source-map-upload.mts');
  const refusal = await uploadCheck(upload);
  if (refusal) stopBuild(refusal);
} else {
  console.log(
    'Source maps: none, as SENTRY_AUTH_TOKEN, SENTRY_ORG and SENTRY_PROJECT are not all set; Sentry shows this ' +
      "build's errors in its built code (docs/observability.md).",
  );
}
// Resolved like any import, so that a copy of the app inside a project (the tests' app) uses its node_modules.
const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
// Taken before the build, so that an edit made while it runs counts as a change for `npm start`.
const builtFrom = inputsFingerprint();
const { status } = spawnSync('node', [next, 'build', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (status !== 0) process.exit(status ?? 1);

// Before the static files are copied into the standalone directory.
keepHintFirst(distDir);
const compressed = precompress(distDir);
const kb = (/** @type {number} */ bytes) => `${Math.round(bytes / 1024)} KB`;
console.log(
  `Brotli: ${compressed.files} scripts and styles, ${kb(compressed.bytes)} → ${kb(compressed.brotliBytes)}, ` +
    'served to the browsers that take it.',
);
const standalone = standaloneServerDir(distDir);
await completeStandalone({
  distDir,
  serverDir: standalone,
  repository: fileURLToPath(new URL('../../..', import.meta.url)),
});
// Last: a build cut short says it was built from nothing, and is made again.
if (builtFrom) writeFileSync(fingerprintFile(distDir), `${builtFrom}\n`);
console.log(`Standalone server ready in ${standalone}: node --import ./${preload} server.js`);
