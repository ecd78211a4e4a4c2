// The end-to-end tests' server (scripts/start.mjs) with its output passed through and also kept in a file, so that
// a test can read everything the runtime printed over the whole suite (tests/e2e/server-log.spec.ts).
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { serverLogFile } from './e2e-env.mjs';

mkdirSync(dirname(serverLogFile), { recursive: true });
const log = createWriteStream(serverLogFile);
const server = spawn('node', ['scripts/start.mjs'], { stdio: ['ignore', 'pipe', 'pipe'] });
for (const [from, to] of [
  [server.stdout, process.stdout],
  [server.stderr, process.stderr],
]) {
  from.on('data', (chunk) => {
    to.write(chunk);
    log.write(chunk);
  });
}
// The server decides when to exit (it drains on SIGTERM): pass the signal on and wait for it.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => log.end(() => process.exit(code ?? (signal ? 1 : 0))));
