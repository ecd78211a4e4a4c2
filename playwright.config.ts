import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { testSettings as guideSettings } from './apps/guide/tests/settings';
import { testSettings as webSettings } from './apps/web/tests/settings';
import type { EngineOptions } from './tests/engines/fixtures';
import {
  appOrigin,
  appPort,
  apps,
  chromiumFlags,
  chromiumPath,
  e2eServerEnv,
  guideOrigin,
  guidePort,
  ingestOrigin,
  ingestPort,
  webOrigin,
  servicesFile,
  webPort,
} from './tests/support/e2e-env.mts';

/** The specs of tests/e2e that prove the guide's app (apps/guide): its pages, sign-in, database and shutdown. */
const guideSpecs = /first-page|sessions|database-lifecycle|product-tracing/;

export default defineConfig<EngineOptions>({
  testDir: './tests/e2e',
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
  projects: [
    // The cross-engine suite: the same tests in Debian's Firefox ESR and WebKitGTK (tests/engines/fixtures.ts). A
    // worker runs a file's tests in order, so that each engine starts once per file, not once per test. First: Playwright
    // hands out work in the order of this list, and these files are the longest pieces of it (up to a minute each);
    // last, one of them ran alone on one worker while the other idled, for about 50 s of every run.
    ...(['firefox', 'webkit'] as const).map((engine) => ({
      name: engine,
      testDir: './tests/engines',
      fullyParallel: false,
      use: { engine },
    })),
    // development.spec.ts runs `next dev` with servers of its own: playwright.development.config.ts.
    // The reference app (apps/reference), which proves the specification.
    { name: 'app', testIgnore: [/ingest-faults|server-log|development\.spec/, guideSpecs] },
    // The guide's app (apps/guide): the foundation's tests of it, and its own tests as a team writes them.
    { name: 'guide', testMatch: guideSpecs, use: { baseURL: guideOrigin } },
    { name: 'guide tests', testDir: './apps/guide/tests', use: { baseURL: guideOrigin } },
    // The team's app (apps/web): its own tests. Every page of it is swept by tests/e2e/sweep.spec.ts, with no test.
    { name: 'web tests', testDir: './apps/web/tests', use: { baseURL: webOrigin } },
    // Switches the shared ingest into failure modes, so it runs alone, after everything else.
    {
      name: 'ingest faults',
      testMatch: /ingest-faults/,
      dependencies: ['app', 'guide', 'guide tests', 'web tests', 'firefox', 'webkit'],
    },
    // Reads what the server printed over the whole suite, so it runs last.
    { name: 'server log', testMatch: /server-log/, dependencies: ['ingest faults'] },
  ],
  webServer: [
    {
      // The local Sentry-protocol ingest both runtimes of the app report to.
      command: 'node tests/support/sentry-ingest.mjs',
      url: `${ingestOrigin}/__ingest/health`,
      env: { INGEST_PORT: String(ingestPort) },
      reuseExistingServer: false,
      timeout: 10_000,
    },
    // Each app's services (<app>/tests/services.ts), before the app that calls them; started already when
    // scripts/e2e.mjs runs this (it starts them before the builds, which may read them).
    ...(process.env.E2E_SERVICES_STARTED ? [] : Object.values(apps))
      .filter((app) => existsSync(servicesFile(app)))
      .map((app) => ({
        command: `node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON ${servicesFile(app)}`,
        wait: { stdout: /^services ready/m },
        stdout: 'pipe' as const,
        reuseExistingServer: false,
        timeout: 30_000,
        // Stopped by a signal it passes on, so that Postgres stops and its data directory goes.
        gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 10_000 },
      })),
    // The production build of each app made by `npm test` (with e2eBuildEnv), each on its own port; loopback only.
    ...(
      [
        [apps.reference, appOrigin, appPort, {}],
        [apps.guide, guideOrigin, guidePort, guideSettings],
        [apps.web, webOrigin, webPort, webSettings],
      ] as const
    ).map(([app, origin, port, settings]) => ({
      command: `node tests/support/logged-server.mjs ${app}`,
      url: `${origin}/api/health`,
      // The app's own test settings (<app>/tests/settings.ts) beside the foundation's.
      env: { ...e2eServerEnv, ...settings, PORT: String(port) },
      reuseExistingServer: false,
      timeout: 60_000,
      // Its output goes to a file (tests/support/logged-server.mjs); stderr carries only a start-up failure.
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
  ],
});
