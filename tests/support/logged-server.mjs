// The end-to-end tests' server (packages/foundation/scripts/start.mjs), its output kept in a file rather than the
// terminal: the suite makes it print errors on purpose (the diagnostics pages), which would read as failures in the
// middle of the test output. tests/e2e/server-log.spec.ts reads the file over the whole suite; `npm test` names it when
// a test fails. Should the server stop on its own (a start-up failure), what it printed goes to stderr, where
// Playwright shows it.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { serverLogFile } from './e2e-env.mts';

mkdirSync(dirname(serverLogFile), { recursive: true });
const log = createWriteStream(serverLogFile);
const server = spawn('node', ['packages/foundation/scripts/start.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
