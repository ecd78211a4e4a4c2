// @ts-check
// `npm run test:e2e [-- <Playwright's arguments>]`: the end-to-end tests, with what they need made first and only when
// it is missing or stale, for the apps the selected specs use (packages/testing/src/selection.mts). Each app's services
// (<app>/tests/services.ts) start before anything is built, so that a page may read them at build time (a
// getStaticProps page reading the team's table); each build the tests serve is made
// when what it reads changed since (packages/foundation/scripts/build-identity.mts) or its settings did, uploading its
// source maps to a local Sentry web API that runs only while a build does (into <build>/sentry-uploads, which the
// tests read back); then Playwright runs with the arguments given, e.g. one spec:
//
//   npm run test:e2e -- apps/web/tests/catalog.spec.ts
//
// and the services stop. `npm test` runs this after the unit tests.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { requireSupportedNode } from '../packages/foundation/scripts/node-version.mjs';

/** @typedef {import('node:child_process').ChildProcess} ChildProcess */

requireSupportedNode();
// Imported after the check: an older Node.js cannot load TypeScript.
const { e2eBuilds, testedApps, testSettingsOf } = await import('@web-foundation/testing/apps');
const { e2eSelection } = await import('@web-foundation/testing/selection');
const { recordedFingerprint, inputsFingerprint } = await import('../packages/foundation/scripts/build-identity.mts');
const { sentryApiPort, sentryUploadsDir } = await import('@web-foundation/testing/env');
const { startSentryApi } = await import('@web-foundation/testing/sentry-api');

const build = resolve('packages/foundation/scripts/build.mjs');
/** Beside each build: the settings it was made with (its fingerprint is beside it already). */
const settingsFile = (/** @type {string} */ app, /** @type {string} */ distDir) =>
  join(app, distDir, 'e2e-build-settings.json');

/**
 * Starts `<app>/tests/services.ts` and resolves once it prints `services ready`; rejects if it exits first.
 * @param {string} servicesFile
 * @returns {Promise<ChildProcess>}
 */
function startServices(servicesFile) {
  const child = spawn('node', ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', servicesFile], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((ready, failed) => {
    let printed = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      printed += chunk;
      if (/^services ready/m.test(printed)) ready(child);
    });
    child.on('exit', (code) => failed(new Error(`${servicesFile} stopped before it was ready (exit code ${code}).`)));
  });
}

/**
 * Runs `npm run build`'s script in an app's folder and resolves with its exit code; without blocking, so that the
 * Sentry API in this process answers its upload.
 * @param {string} app
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<number | null>}
 */
const runBuild = (app, env) =>
  new Promise((done) => spawn('node', [build], { cwd: app, stdio: 'inherit', env }).once('exit', done));

/**
 * Builds an app; a build that uploads its source maps (SENTRY_URL set) gets the local Sentry API for as long as it runs,
 * storing into the build's own directory, and a Sentry CLI state of its own: the CLI keeps each organization's address
 * there (~/.config/sentry by default), and would send this build's upload to where another clone's API listened.
 * @param {string} app
 * @param {Record<string, string> & { NEXT_DIST_DIR: string }} settings the build's settings, and its BUILD_ID if given
 */
async function buildWithUploads(app, settings) {
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', ...settings };
  if (!settings.SENTRY_URL || !settings.SENTRY_AUTH_TOKEN) return runBuild(app, env);
  const storeDir = sentryUploadsDir(settings.NEXT_DIST_DIR, app);
  rmSync(storeDir, { recursive: true, force: true });
  const cliState = mkdtempSync(join(tmpdir(), 'sentry-cli-'));
  const api = await startSentryApi({ port: sentryApiPort, storeDir, token: settings.SENTRY_AUTH_TOKEN });
  try {
    return await runBuild(app, { ...env, SENTRY_CONFIG_DIR: cliState });
  } finally {
    await api.close();
    rmSync(cliState, { recursive: true, force: true });
  }
}

/** Stops a services process by the signal it passes on to what it started, and waits for it. */
const stop = (/** @type {ChildProcess} */ child) =>
  child.exitCode === null ? new Promise((done) => child.once('exit', done).kill('SIGTERM')) : Promise.resolve();

// Which ports this run took, for reading its log beside another clone's.
console.log(
  `ports: block ${process.env.E2E_PORT_BLOCK} (E2E_PORT_BLOCK); ` +
    testedApps()
      .map(({ name, port }) => `${name} ${port}`)
      .join(', '),
);
// Only what the selected specs use is built and started: one spec of a team's app needs that app alone.
const selection = e2eSelection(process.argv.slice(2));
const selected = new Set(selection.apps.map(({ name }) => name));
/** @type {ChildProcess[]} */
const services = [];
let status = 1;
try {
  for (const { name, servicesFile } of testedApps()) {
    if (servicesFile && selected.has(name)) services.push(await startServices(servicesFile));
  }
  /**
   * The id each app's builds named by the tree carry (the first's). A build stays current across a commit that changes
   * nothing it reads, named after the commit it was made at; another build of the same inputs takes that name too, as
   * the deployment tests compare the two byte for byte.
   * @type {Map<string, string>}
   */
  const treeIds = new Map();
  const idOf = (/** @type {string} */ app, /** @type {string} */ distDir) =>
    readFileSync(join(app, distDir, 'BUILD_ID'), 'utf8').trim();
  for (const { app: tested, env, deployment } of e2eBuilds()) {
    const app = tested.dir;
    const label = `${app} (${env.NEXT_DIST_DIR})`;
    if (!selected.has(tested.name) || (deployment && !selection.deploymentBuilds)) {
      console.log(`build ${label}: skipped, no selected test uses it`);
      continue;
    }
    const treeId = 'BUILD_ID' in env ? undefined : treeIds.get(app);
    // What the app's build may read of its settings: its test settings (a database at build time), then the build's.
    const settings = { ...testSettingsOf(tested), ...env };
    const recorded = (/** @type {string} */ file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined);
    const stale =
      recordedFingerprint(join(app, env.NEXT_DIST_DIR)) !== inputsFingerprint(app) ||
      recorded(settingsFile(app, env.NEXT_DIST_DIR)) !== JSON.stringify(settings) ||
      (treeId !== undefined && idOf(app, env.NEXT_DIST_DIR) !== treeId);
    if (!stale) {
      if (!('BUILD_ID' in env)) treeIds.set(app, treeId ?? idOf(app, env.NEXT_DIST_DIR));
      console.log(`build ${label}: up to date`);
      continue;
    }
    console.log(`build ${label}: building`);
    const started = Date.now();
    const built = await buildWithUploads(app, { ...settings, ...(treeId && { BUILD_ID: treeId }) });
    if (built !== 0) throw new Error(`The build of ${label} failed (exit code ${built}).`);
    if (!('BUILD_ID' in env)) treeIds.set(app, treeId ?? idOf(app, env.NEXT_DIST_DIR));
    writeFileSync(settingsFile(app, env.NEXT_DIST_DIR), `${JSON.stringify(settings)}\n`);
    console.log(`build ${label}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  // Playwright finds the services running and leaves them to this script (playwright.config.ts).
  const projects = (selection.projects ?? []).map((project) => `--project=${project}`);
  const noDeps = selection.partial && !process.argv.includes('--no-deps') ? ['--no-deps'] : [];
  const run = spawnSync(
    'npx',
    ['--no-install', 'playwright', 'test', ...process.argv.slice(2), ...projects, ...noDeps],
    {
      stdio: 'inherit',
      env: { ...process.env, E2E_SERVICES_STARTED: '1', E2E_APPS: [...selected].join(',') },
    },
  );
  status = run.status ?? 1;
} catch (error) {
  console.error(/** @type {Error} */ (error).message);
} finally {
  await Promise.all(services.map(stop));
}
process.exit(status);
