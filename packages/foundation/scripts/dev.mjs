// `npm run dev`: Next's development server for the app in the current folder, under Spotlight (its UI at
// http://localhost:8969, which every envelope of both runtimes reaches), with the environment `development` and the
// server log printed by pino-pretty, one line per record. The command lives here, not in the app's package.json, so
// that a change to it reaches every app with the foundation.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';

/** The shell command Spotlight runs: Next's development server, its output through pino-pretty (the tests run it). */
export const devShellCommand =
  'next dev 2>&1 | pino-pretty --singleLine --ignore pid,hostname,service,release,environment';
/** What `npm run dev` sets: the environment its events name. */
export const devEnv = { SENTRY_ENVIRONMENT: 'development', NEXT_PUBLIC_SENTRY_ENVIRONMENT: 'development' };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  requireSupportedNode();
  const child = spawn('spotlight', ['run', '-p', '8969', 'sh', '-c', devShellCommand], {
    stdio: 'inherit',
    env: { ...process.env, ...devEnv },
  });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
