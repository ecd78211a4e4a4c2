// @ts-check
// `npm test`: every check, stopping at the first step that fails, then one summary line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';
import { requireSupportedNode } from '../packages/foundation/scripts/node-version.mjs';

requireSupportedNode();
// Imported after the check: an older Node.js cannot load TypeScript.
const { appFolders } = await import('@web-foundation/testing/apps');
const { serverLogFile } = await import('@web-foundation/testing/env');

const reports = '.test-results';
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

/**
 * @typedef {{ name: string, cmd: [string, ...string[]], fix?: (output: string) => string | undefined }} Step A command,
 * run from the repository's root, and what to run when it fails, read from its output.
 */

/**
 * The static checks: each runs on one core, and none depends on another, so they run two at a time (CI's machine has
 * two cores), each one's output printed whole when it ends. About half of their minute.
 * @type {Step[]}
 */
const checks = [
  {
    name: 'format',
    cmd: ['prettier', '--check', '.'],
    // Prettier names each file it would change on a line of its own (`[warn] apps/web/README.md`) before its summary,
    // in colour when FORCE_COLOR says so.
    fix: (output) => {
      const files = [...stripVTControlCharacters(output).matchAll(/^\[warn\] (?!Code style issues)(.+)$/gm)].map(
        ([, file]) => file,
      );
      return files.length
        ? `Not formatted: ${files.join(', ')}. Run: npx prettier --write ${files.join(' ')}`
        : undefined;
    },
  },
  { name: 'lint', cmd: ['eslint', '--max-warnings=0', '.'] },
  // The foundation and the tests; the package alone, as no app compiles it (it imports none); each app with its own
  // tsconfig.json.
  { name: 'types', cmd: ['tsc', '--noEmit'] },
  { name: 'types (packages/foundation)', cmd: ['tsc', '--noEmit', '-p', 'packages/foundation'] },
  ...appFolders().map(
    /** @returns {Step} */ (app) => ({ name: `types (${app})`, cmd: ['tsc', '--noEmit', '-p', app] }),
  ),
];
const checksAtOnce = 2;

/** @type {Step[]} */
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

/** @typedef {{ passed: number, failed: number, skipped: number }} Counts */
/**
 * A report's counts, or none when the step that writes it did not run.
 * @template Report
 * @param {string} file
 * @param {(report: Report) => Counts} read
 * @returns {Counts}
 */
function counts(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0, skipped: 0 };
  return read(JSON.parse(readFileSync(file, 'utf8')));
}

/** @typedef {{ numPassedTests: number, numFailedTests: number, numPendingTests: number, numTodoTests: number }} VitestReport */
/** @typedef {{ stats: { expected: number, flaky: number, unexpected: number, skipped: number } }} PlaywrightReport */
const unitCounts = () =>
  counts(`${reports}/unit.json`, (/** @type {VitestReport} */ r) => ({
    passed: r.numPassedTests,
    failed: r.numFailedTests,
    skipped: r.numPendingTests + r.numTodoTests,
  }));
const playwrightCounts = (/** @type {string} */ file) =>
  counts(file, (/** @type {PlaywrightReport} */ r) => ({
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
  /** @type {Record<string, { passed: number, failed: number }>} */
  const byEngine = {};
  if (!existsSync(file)) return byEngine;
  /** @typedef {{ suites?: Suite[], specs?: { tests: { projectName: string, status: string }[] }[] }} Suite */
  const visit = (/** @type {Suite} */ suite) => {
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
/** @type {string[]} */
const done = [];
/** @type {string | undefined} */
let failedStep;
/** @type {string[]} What to run to fix a failed step, said again at the end. */
const fixes = [];
const header = (/** @type {Step} */ step) => `\n▶ ${step.name}: ${step.cmd.join(' ')}`;
/** @type {(step: Step) => Step['cmd']} */
const commandOf = (step) => (step.cmd[0] === 'node' ? step.cmd : ['npx', '--no-install', ...step.cmd]);
const env = () => ({ ...process.env, NEXT_TELEMETRY_DISABLED: '1' });
/**
 * @param {Step} step
 * @param {number} status its exit code
 * @param {number} t0 when it started
 * @param {string} [output] what it printed, when it was held
 */
const record = (step, status, t0, output = '') => {
  done.push(`${step.name} ${status === 0 ? 'ok' : 'FAILED'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  if (status !== 0) failedStep ??= step.name;
  const fix = status === 0 ? undefined : step.fix?.(output);
  if (fix) fixes.push(fix);
};

/**
 * Runs a check with its output held, then prints the output whole, so that two at once do not interleave.
 * @param {Step} step
 * @returns {Promise<void>}
 */
function runHeld(step) {
  const t0 = Date.now();
  const [program, ...args] = commandOf(step);
  const child = spawn(program, args, { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
  /** @type {Buffer[]} */
  const output = [];
  child.stdout.on('data', (chunk) => output.push(chunk));
  child.stderr.on('data', (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (code) => {
      console.log(header(step));
      process.stdout.write(Buffer.concat(output));
      record(step, code ?? 1, t0, Buffer.concat(output).toString());
      resolve();
    });
  });
}

const waiting = [...checks];
// A failed check stops the queue too: a format failure (the first check) ends the run before the type checks start.
const lane = async () => {
  for (let step = waiting.shift(); step && !failedStep; step = waiting.shift()) await runHeld(step);
};
await Promise.all(Array.from({ length: checksAtOnce }, lane));

for (const step of failedStep ? [] : steps) {
  const t0 = Date.now();
  console.log(header(step));
  const [program, ...args] = commandOf(step);
  const { status } = spawnSync(program, args, { stdio: 'inherit', env: env() });
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
for (const fix of fixes) console.log(fix);
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
