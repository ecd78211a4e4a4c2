// `npm start`: serve the production build, building it first when there is none (a fresh clone has none).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const run = (args) => {
  const { status } = spawnSync('npx', ['next', ...args], { stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
};

if (!existsSync('.next/BUILD_ID')) {
  console.log('No production build yet: building it first (next build).');
  run(['build']);
}
run(['start', ...process.argv.slice(2)]);
