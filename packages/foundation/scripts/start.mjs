// @ts-check
// `npm start`: serve the production build (the standalone server), building it first when there is none or when the
// sources changed since it was built.
// PORT (default 3000) and HOSTNAME (default: every interface) choose where it listens.
import './app-folder.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';
import { preload, standaloneServerDir } from './standalone.mjs';

requireSupportedNode();
// Imported after the check: an older Node.js cannot load TypeScript, and would stop with a stack trace instead.
const { recordedFingerprint, inputsFingerprint, startDecision } = await import('./build-identity.mts');

// A wrong setting stops here with its sentence, before a build or the server starts (settings-check.mts).
const settingsCheck = fileURLToPath(new URL('settings-check.mts', import.meta.url));
const checked = spawnSync(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', settingsCheck], {
  stdio: 'inherit',
});
if (checked.status !== 0) process.exit(checked.status ?? 1);

const { distDirOf } = await import('../src/config/settings.mts');
const distDir = distDirOf();
/** Where the build's server.js is: below the standalone directory, at the app's path in the repository (apps/web). */
function serverDir() {
  try {
    return standaloneServerDir(distDir);
  } catch {
    return undefined;
  }
}

/** The directory the build was made from (a build copied from elsewhere names another). */
function builtAppDir() {
  try {
    return JSON.parse(readFileSync(`${distDir}/required-server-files.json`, 'utf8')).appDir;
  } catch {
    return undefined;
  }
}

// A build of other inputs is never served: after an edit to what a build reads, `npm start` builds again
// (packages/foundation/scripts/build-identity.mts).
const decision = startDecision({
  built: existsSync(`${serverDir()}/server.js`),
  builtElsewhere: builtAppDir() !== undefined && resolve(builtAppDir()) !== process.cwd(),
  builtFrom: recordedFingerprint(distDir),
  tree: inputsFingerprint(),
});
if (decision.action === 'build') {
  console.log(decision.reason);
  const { status } = spawnSync('node', [fileURLToPath(new URL('build.mjs', import.meta.url))], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

// The preload refuses requests Next mishandles and drains on SIGTERM (packages/foundation/src/server/preload.mts).
const server = spawn('node', ['--import', `./${preload}`, 'server.js'], {
  cwd: serverDir(),
  stdio: 'inherit',
});
// The server decides when to exit: pass the signal on and wait for it.
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT'])) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
