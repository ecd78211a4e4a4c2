import { existsSync } from 'node:fs';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { servedApps, testedApps, testSettingsOf } from '@web-foundation/testing/apps';
import type { EngineOptions } from '@web-foundation/testing/engines';
import {
  appOrigin,
  chromiumFlags,
  chromiumPath,
  e2eServerEnv,
  ingestOrigin,
  ingestPort,
  referenceApp,
} from '@web-foundation/testing/env';

// Every app with a tests/ folder is found (packages/testing/src/apps.mts), built, served on its own port and given
// its projects, so that a team adding apps/shop with its tests/ edits nothing here. Root tests/ holds the foundation's
// own specs, which apply to every app: the page sweep and `npm start` at the root.
const apps = testedApps();
/** The apps whose services and servers start: those the selected specs use (scripts/e2e.mjs), else all. */
const served = servedApps();
/** The engines' fixture options: the engine, and the app its proxy forwards to (the sweep names each app itself). */
type Options = EngineOptions & { upstream: string };
type SuiteProject = NonNullable<PlaywrightTestConfig<Options>['projects']>[number];
const reference = apps.find(({ dir }) => dir === referenceApp);

/**
 * The reference app's specs that run after everything else, in this order: `ingest faults` switches the shared ingest
 * into failure modes, so it runs alone; `server log` reads what the server printed over the whole suite.
 */
const lastOfReference = { 'ingest faults': /ingest-faults\.spec\.ts/, 'server log': /server-log\.spec\.ts/ };

/** An app's specs under tests/engines/ run in Firefox and WebKit, not Chromium; `next dev`'s under the other config. */
const notInChromium = ['**/engines/**', '**/development.spec.ts'];

// The cross-engine suites: the same tests in Debian's Firefox ESR and WebKitGTK (packages/testing/src/engines.ts),
// the foundation's (tests/engines) and each app's (<app>/tests/engines), each project named after its engine:
// `firefox`, `reference firefox` (scripts/test.mjs counts by it). A worker runs a file's tests in order, so that each
// engine starts once per file, not once per test. First: Playwright hands out work in the order of this list, and
// these files are the longest pieces of it (up to a minute each); last, one of them ran alone on one worker while the
// other idled, for about 50 s of every run.
const engineSuites = [
  { prefix: '', testDir: './tests/engines', upstream: appOrigin },
  ...apps
    .filter(({ testsDir }) => existsSync(`${testsDir}/engines`))
    .map(({ name, testsDir, origin }) => ({ prefix: `${name} `, testDir: `${testsDir}/engines`, upstream: origin })),
];
const engineProjects: SuiteProject[] = engineSuites.flatMap(({ prefix, testDir, upstream }) =>
  (['firefox', 'webkit'] as const).map((engine) => ({
    name: `${prefix}${engine}`,
    testDir,
    fullyParallel: false,
    use: { engine, upstream },
  })),
);

const chromiumProjects: SuiteProject[] = [
  // The foundation's own: every app's pages swept, `npm start` at the root (the reference app by default).
  { name: 'foundation', testDir: './tests/e2e' },
  // Each app's own specs, against its own server.
  ...apps.map(({ name, dir, testsDir, origin }) => ({
    name,
    testDir: testsDir,
    testIgnore: [...notInChromium, ...(dir === referenceApp ? Object.values(lastOfReference) : [])],
    use: { baseURL: origin },
  })),
];

const lastProjects: SuiteProject[] = reference
  ? [
      {
        name: 'ingest faults',
        testDir: reference.testsDir,
        testMatch: lastOfReference['ingest faults'],
        use: { baseURL: reference.origin },
        dependencies: [...engineProjects, ...chromiumProjects].map(({ name }) => name!),
      },
      {
        name: 'server log',
        testDir: reference.testsDir,
        testMatch: lastOfReference['server log'],
        use: { baseURL: reference.origin },
        dependencies: ['ingest faults'],
      },
    ]
  : [];

export default defineConfig<Options>({
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 30_000,
  reporter: [['list'], ['json', { outputFile: '.test-results/e2e.json' }]],
  use: {
    baseURL: appOrigin,
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: chromiumPath,
      args: chromiumFlags,
    },
  },
  projects: [...engineProjects, ...chromiumProjects, ...lastProjects],
  webServer: [
    {
      // The local Sentry-protocol ingest both runtimes of every app report to.
      command: 'node packages/testing/src/sentry-ingest.mjs',
      url: `${ingestOrigin}/__ingest/health`,
      env: { INGEST_PORT: String(ingestPort) },
      reuseExistingServer: false,
      timeout: 10_000,
    },
    // Each app's services (<app>/tests/services.ts), before the app that calls them; started already when
    // scripts/e2e.mjs runs this (it starts them before the builds, which may read them).
    ...(process.env.E2E_SERVICES_STARTED ? [] : served).flatMap(({ servicesFile }) =>
      servicesFile
        ? [
            {
              command: `node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON ${servicesFile}`,
              wait: { stdout: /^services ready/m },
              stdout: 'pipe' as const,
              reuseExistingServer: false,
              timeout: 30_000,
              // Stopped by a signal it passes on, so that Postgres stops and its data directory goes.
              gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
            },
          ]
        : [],
    ),
    // The production build of each app made by `npm test` (with e2eBuildEnv), each on its own port; loopback only.
    ...served.map((app) => ({
      command: `node packages/testing/src/logged-server.mjs ${app.dir}`,
      url: `${app.origin}/api/health`,
      // The app's own test settings (<app>/tests/settings.ts) beside the foundation's.
      env: { ...e2eServerEnv, ...testSettingsOf(app), PORT: String(app.port) },
      reuseExistingServer: false,
      timeout: 60_000,
      // Its output goes to a file (packages/testing/src/logged-server.mjs); stderr carries only a start-up failure.
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
  ],
});
