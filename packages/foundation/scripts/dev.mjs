// @ts-check
// `npm run dev`: Next's development server, Spotlight's sidecar beside it, and the server's log printed for a person
// (devConsole.mjs). Arguments go to `next dev` (`npm run dev -- -p 3001`). The sidecar listens at SENTRY_SPOTLIGHT's
// port when that is a URL, else at http://localhost:8969/stream; both runtimes send to it.
// Beside rather than `spotlight run next dev`: `run` prints the command's output again behind its own prefix, and
// stops printing it at all once the SDK's logs reach it (docs/decisions.md, "Development: Spotlight beside next dev").
import './app-folder.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { requireSupportedNode } from './node-version.mjs';

requireSupportedNode();
// Imported after the check: an older Node.js would stop with a stack trace instead.
const { devConsoleLines } = await import('./devConsole.mjs');

// SENTRY_SPOTLIGHT may also say `true` (the SDK's word for the default address).
const given = process.env.SENTRY_SPOTLIGHT ?? '';
const spotlight = URL.canParse(given) ? given : 'http://localhost:8969/stream';
// Without SENTRY_SPOTLIGHT: Spotlight reports on itself through a Sentry SDK, which would otherwise point at itself.
const sidecarEnv = { ...process.env };
delete sidecarEnv.SENTRY_SPOTLIGHT;
const devPreload = fileURLToPath(new URL('../src/server/devPreload.mts', import.meta.url));
const nextEnv = {
  ...process.env,
  // Requests wait for the server's reporting to start, so that the first one reaches Spotlight too.
  NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${JSON.stringify(devPreload)}`.trim(),
  SENTRY_SPOTLIGHT: spotlight,
  NEXT_PUBLIC_SENTRY_SPOTLIGHT: process.env.NEXT_PUBLIC_SENTRY_SPOTLIGHT || spotlight,
  SENTRY_ENVIRONMENT: process.env.SENTRY_ENVIRONMENT || 'development',
  NEXT_PUBLIC_SENTRY_ENVIRONMENT: process.env.NEXT_PUBLIC_SENTRY_ENVIRONMENT || 'development',
  // Next colours its own lines only on a terminal, and its output is a pipe here.
  ...(process.stdout.isTTY ? { FORCE_COLOR: '1' } : {}),
};
// The foundation's folder as the server names its files in stacks: relative to the app's folder, where Next runs.
const foundation = relative(process.cwd(), fileURLToPath(new URL('..', import.meta.url)));
// A wrong setting stops here with its sentence, before the sidecar and Next start (settings-check.mts).
const settingsCheck = fileURLToPath(new URL('settings-check.mts', import.meta.url));
const checked = spawnSync(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', settingsCheck], {
  stdio: ['ignore', 'pipe', 'inherit'],
  encoding: 'utf8',
  env: nextEnv,
});
if (checked.status !== 0) {
  const colors = Boolean(process.stderr.isTTY);
  for (const line of checked.stdout.split('\n').filter(Boolean))
    process.stderr.write(`${devConsoleLines(line, { colors, foundation })}\n`);
  process.exit(checked.status ?? 1);
}
const sidecar = spawn('spotlight', ['server', '-p', new URL(spotlight).port || '8969'], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: sidecarEnv,
});
const next = spawn('next', ['dev', ...process.argv.slice(2)], { stdio: ['inherit', 'pipe', 'pipe'], env: nextEnv });

for (const [from, to] of /** @type {const} */ ([
  [next.stdout, process.stdout],
  [next.stderr, process.stderr],
])) {
  const colors = Boolean(to.isTTY);
  createInterface({ input: from, crlfDelay: Infinity }).on('line', (line) =>
    to.write(`${devConsoleLines(line, { colors, foundation })}\n`),
  );
}

// Ctrl-C reaches all three processes (one process group); `kill` of this one alone stops Next, then the sidecar.
for (const signal of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(signal, () => next.kill(signal));
next.on('exit', (code, signal) => {
  sidecar.kill();
  process.exitCode = code ?? (signal ? 1 : 0);
});
