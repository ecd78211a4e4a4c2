// @ts-check
// Runs a command on a loaded machine: one CPU-bound process per core for as long as the command runs, stopped by
// pid when it ends (and each stops itself after an hour in any case). For proving that a test does not flake when
// the machine is busy (docs/navigation-reliability.md):
//   node packages/testing/src/with-cpu-load.mjs npx playwright test apps/reference/tests/navigation.spec.ts --repeat-each 25
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('Usage: node packages/testing/src/with-cpu-load.mjs <command> [args...]');
  process.exit(2);
}

const burn = 'const end = Date.now() + 3_600_000; while (Date.now() < end) Math.sqrt(Math.random());';
const burners = Array.from({ length: availableParallelism() }, () =>
  spawn(process.execPath, ['-e', burn], { stdio: 'ignore' }),
);
const stopBurners = () => burners.forEach((burner) => burner.kill());
console.log(`with-cpu-load: ${burners.length} CPU-bound processes (pids ${burners.map((b) => b.pid).join(', ')})`);

const run = spawn(command, args, { stdio: 'inherit' });
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => run.kill(signal));
run.on('exit', (code, signal) => {
  stopBurners();
  process.exit(code ?? (signal ? 1 : 0));
});
