// @ts-check
// The end-to-end tests' server (packages/foundation/scripts/start.mjs), its output kept in a file rather than the
// terminal: the suite makes it print errors on purpose (the diagnostics pages), which would read as failures in the
// middle of the test output. apps/reference/tests/server-log.spec.ts reads the file over the whole suite; `npm test` names it when
// a test fails. Should the server stop on its own (a start-up failure), what it printed goes to stderr, where
// Playwright shows it.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { resolve } from 'node:path';
import { recordedFingerprint, inputsFingerprint } from '../../foundation/scripts/build-identity.mts';
import { testedApps } from './apps.mts';
import { builtDir, e2eDistDir, referenceApp, serverLogFileOf } from './e2e-env.mts';

// Which app: `node packages/testing/src/logged-server.mjs apps/guide`; the reference app by default.
const app = process.argv[2] ?? referenceApp;
const known = testedApps().map(({ dir }) => dir);
if (!known.includes(app)) throw new Error(`logged-server: no app under test ${app}; one of ${known.join(', ')}`);

// Only scripts/e2e.mjs builds what the tests serve, with the tests' settings (the browser's DSN among them). Run by
// Playwright alone after an edit, `npm start` would build it again with the server's settings instead, and the browser
// would report nothing: a stale build stops here, saying what to run.
const build = builtDir(e2eDistDir, app);
const sources = inputsFingerprint(app);
const builtFrom = recordedFingerprint(build);
if (sources && builtFrom !== sources) {
  process.stderr.write(
    `The tests' build of ${app} (${build}) ${builtFrom ? 'is older than its sources' : 'is missing'}: ` +
      "run the tests with `npm run test:e2e -- <Playwright's arguments>`, which builds it with the tests' settings " +
      '(`npx playwright test` alone does not).\n',
  );
  process.exit(1);
}
const serverLogFile = serverLogFileOf(app);
mkdirSync(dirname(serverLogFile), { recursive: true });
const log = createWriteStream(serverLogFile);
// Its own `npm start`, run in the app's folder as npm would.
const server = spawn('node', [resolve('packages/foundation/scripts/start.mjs')], {
  cwd: app,
  stdio: ['ignore', 'pipe', 'pipe'],
});
server.stdout.pipe(log, { end: false });
server.stderr.pipe(log, { end: false });
let stopping = false;
// The server decides when to exit (it drains on SIGTERM): pass the signal on and wait for it.
for (const signal of /** @type {const} */ (['SIGTERM', 'SIGINT'])) {
  process.on(signal, () => {
    stopping = true;
    server.kill(signal);
  });
}
server.on('exit', (code, signal) =>
  log.end(() => {
    if (!stopping)
      process.stderr.write(`The server stopped on its own (${serverLogFile}):\n${readFileSync(serverLogFile, 'utf8')}`);
    process.exit(code ?? (signal ? 1 : 0));
  }),
);
