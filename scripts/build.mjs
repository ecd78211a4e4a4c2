// `npm run build`: Next's production build, then a standalone directory that runs on its own:
// <distDir>/standalone holds server.js, the traced node_modules, public/, the static assets and the server preload.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fingerprintFile, sourceFingerprint } from './build-identity.mts';
import { requireSupportedNode } from './node-version.mjs';
import { completeStandalone } from './standalone.mjs';

requireSupportedNode();

const distDir = process.env.NEXT_DIST_DIR || '.next';
// Resolved like any import, so that a copy of the app inside a project (the first-page test's) uses its node_modules.
const next = createRequire(import.meta.url).resolve('next/dist/bin/next');
// Taken before the build, so that an edit made while it runs counts as a change for `npm start`.
const builtFrom = sourceFingerprint();
const { status } = spawnSync('node', [next, 'build', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (status !== 0) process.exit(status ?? 1);
if (builtFrom) writeFileSync(fingerprintFile(distDir), `${builtFrom}\n`);

// server.js sits at the app's path below the root Next traced files from: the top, unless the app is a copy inside a
// project (the end-to-end tests' app, tests/support/test-app.mjs).
const { appDir, config } = JSON.parse(readFileSync(join(distDir, 'required-server-files.json'), 'utf8'));
const standalone = join(distDir, 'standalone', relative(config.outputFileTracingRoot, appDir));
completeStandalone({ distDir, serverDir: standalone });
console.log(`Standalone server ready in ${standalone}: node --import ./server-lifecycle.mjs server.js`);
