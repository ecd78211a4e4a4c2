// `npm start`: serve the production build (the standalone server), building it first when there is none.
// PORT (default 3000) and HOSTNAME (default: every interface) choose where it listens.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();

const standalone = `${process.env.NEXT_DIST_DIR || '.next'}/standalone`;

if (!existsSync(`${standalone}/server.js`)) {
  console.log('No production build yet: building it first (npm run build).');
  const { status } = spawnSync('node', ['scripts/build.mjs'], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}

// The preload refuses requests Next mishandles and drains on SIGTERM (scripts/server-lifecycle.mjs).
const server = spawn('node', ['--import', './server-lifecycle.mjs', 'server.js'], {
  cwd: standalone,
  stdio: 'inherit',
});
// The server decides when to exit: pass the signal on and wait for it.
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
