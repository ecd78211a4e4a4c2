// The end-to-end tests' server (packages/foundation/scripts/start.mjs), its output kept in a file rather than the
// terminal: the suite makes it print errors on purpose (the diagnostics pages), which would read as failures in the
// middle of the test output. tests/e2e/server-log.spec.ts reads the file over the whole suite; `npm test` names it when
// a test fails. Should the server stop on its own (a start-up failure), what it printed goes to stderr, where
// Playwright shows it.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { resolve } from 'node:path';
import { apps, serverLogFileOf } from './e2e-env.mts';

// Which app: `node tests/support/logged-server.mjs apps/guide`; the reference app by default.
const app = process.argv[2] ?? apps.reference;
if (!Object.values(apps).includes(app)) throw new Error(`logged-server: no app ${app}; one of ${Object.values(apps)}`);
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
for (const signal of ['SIGTERM', 'SIGINT']) {
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
