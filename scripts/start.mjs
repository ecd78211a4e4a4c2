// `npm start`: serve the production build, building it first when there is none (a fresh clone has none).
// Arguments go to `next start` (for example `-p 4000`).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const next = 'node_modules/next/dist/bin/next';

if (!existsSync(`${process.env.NEXT_DIST_DIR || '.next'}/BUILD_ID`)) {
  console.log('No production build yet: building it first (next build).');
  const { status } = spawnSync('node', [next, 'build'], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

// The preload answers methods Next cannot handle and drains on SIGTERM (scripts/server-lifecycle.mjs).
const server = spawn('node', ['--import', './scripts/server-lifecycle.mjs', next, 'start', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
// The server decides when to exit: pass the signal on and wait for it.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
