// `npm test`: every check, stopping at the first step that fails, then one summary line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { requireSupportedNode } from '../packages/foundation/scripts/node-version.mjs';

requireSupportedNode();
// Imported after the check: an older Node.js cannot load TypeScript.
const { appFolders } = await import('@web-foundation/testing/apps');
const { serverLogFile } = await import('@web-foundation/testing/env');

const reports = '.test-results';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/**
 * The static checks: each runs on one core, and none depends on another, so they run two at a time (CI's machine has
 * two cores), each one's output printed whole when it ends. About half of their minute.
 */
const checks = [
  { name: 'format', cmd: ['prettier', '--check', '.'] },
  { name: 'lint', cmd: ['eslint', '--max-warnings=0', '.'] },
  // The foundation and the tests, then each app with its own tsconfig.json (its own settings' module).
  { name: 'types', cmd: ['tsc', '--noEmit'] },
  ...appFolders().map((app) => ({ name: `types (${app})`, cmd: ['tsc', '--noEmit', '-p', app] })),
];
const checksAtOnce = 2;

const steps = [
  {
    name: 'unit',
    cmd: ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${reports}/unit.json`],
  },
  // Each app's services, then each app built as it is in its own folder (only what is stale), then Playwright.
  { name: 'e2e', cmd: ['node', '--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', 'scripts/e2e.mjs'] },
  // `next dev` with the settings `npm run dev` uses, started once, alone (apps/guide/tests/development.spec.ts).
  { name: 'e2e (development)', cmd: ['playwright', 'test', '-c', 'playwright.development.config.ts'] },
];

function counts(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
  return read(JSON.parse(readFileSync(file, 'utf8')));
}

const unitCounts = () =>
  counts(`${reports}/unit.json`, (r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  }));
const playwrightCounts = (file) =>
  counts(file, (r) => ({
    passed: r.stats.expected + r.stats.flaky,
    failed: r.stats.unexpected,
    skipped: r.stats.skipped,
  }));
/** The production suite's and the development one's (playwright.development.config.ts), together. */
const e2eCounts = () => {
  const [built, dev] = [playwrightCounts(`${reports}/e2e.json`), playwrightCounts(`${reports}/e2e-development.json`)];
  return { passed: built.passed + dev.passed, failed: built.failed + dev.failed, skipped: built.skipped + dev.skipped };
};

/** Passed and failed end-to-end tests per browser engine: the Chromium suite's projects, and the cross-engine ones. */
function engineCounts() {
  const file = `${reports}/e2e.json`;
  const byEngine = {};
  if (!existsSync(file)) return byEngine;
  const visit = (suite) => {
    suite.suites?.forEach(visit);
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        // The cross-engine projects are named after their engine: `firefox`, `reference webkit` (playwright.config.ts).
        const engine = /\b(firefox|webkit)$/.exec(t.projectName)?.[1] ?? 'chromium';
        const tally = (byEngine[engine] ??= { passed: 0, failed: 0 });
        if (t.status === 'expected' || t.status === 'flaky') tally.passed++;
        else if (t.status === 'unexpected') tally.failed++;
      }
    }
  };
  JSON.parse(readFileSync(file, 'utf8')).suites.forEach(visit);
  return byEngine;
}

const started = Date.now();
const done = [];
let failedStep;
const header = (step) => `\n▶ ${step.name}: ${step.cmd.join(' ')}`;
const commandOf = (step) => (step.cmd[0] === 'node' ? step.cmd : ['npx', '--no-install', ...step.cmd]);
const env = (step) => ({ ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...step.env });
const record = (step, status, t0) => {
  done.push(`${step.name} ${status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (status !== 0) failedStep ??= step.name;
};

/** Runs a check with its output held, then prints the output whole, so that two at once do not interleave. */
function runHeld(step) {
  const t0 = Date.now();
  const [program, ...args] = commandOf(step);
  const child = spawn(program, args, { env: env(step), stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      console.log(header(step));
      process.stdout.write(Buffer.concat(output));
      record(step, code ?? 1, t0);
      resolve();
    });
  });
}

const waiting = [...checks];
const lane = async () => {
  for (let step = waiting.shift(); step; step = waiting.shift()) await runHeld(step);
};
await Promise.all(Array.from({ length: checksAtOnce }, lane));

for (const step of failedStep ? [] : steps) {
  const t0 = Date.now();
  console.log(header(step));
  const [program, ...args] = commandOf(step);
  const { status } = spawnSync(program, args, { stdio: 'inherit', env: env(step) });
  record(step, status ?? 1, t0);
  if (status !== 0) break;
}

const unit = unitCounts();
const e2e = e2eCounts();
const passed = unit.passed + e2e.passed;
const failed = unit.failed + e2e.failed + (failedStep && !unit.failed && !e2e.failed ? 1 : 0);
const skipped = unit.skipped + e2e.skipped;
if (failedStep === 'e2e') console.log(`\nWhat the end-to-end server printed: ${serverLogFile}`);
console.log(`\nSteps: ${done.join(', ')}${failedStep ? `; stopped at ${failedStep}` : ''}`);
const engines = Object.entries(engineCounts())
  .map(([engine, { passed: p, failed: f }]) => `${engine} ${p} passed${f ? `, ${f} failed` : ''}`)
  .join('; ');
console.log(
  `Unit: ${unit.passed} passed, ${unit.failed} failed. End-to-end: ${e2e.passed} passed, ${e2e.failed} failed` +
    `${engines ? ` (${engines})` : ''}.`,
);
console.log(`Total time: ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedStep ? 1 : 0);
