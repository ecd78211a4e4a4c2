import { defineConfig, devices } from '@playwright/test';
import type { EngineOptions } from './tests/engines/fixtures';
import {
  appOrigin,
  chromiumFlags,
  chromiumPath,
  e2eServerEnv,
  ingestOrigin,
  ingestPort,
  productTestEnv,
} from './tests/support/e2e-env.mts';

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
    // development.spec.ts runs `next dev` with servers of its own: playwright.development.config.ts.
    { name: 'app', testIgnore: /ingest-faults|server-log|development\.spec/ },
    // The product's own tests (tests/product): a team's copies of the example spec, in Chromium.
    { name: 'product', testDir: './tests/product' },
    // The cross-engine suite: the same tests in Debian's Firefox ESR and WebKitGTK (tests/engines/fixtures.ts). A
    // worker runs a file's tests in order, so that each engine starts once per file, not once per test.
    ...(['firefox', 'webkit'] as const).map((engine) => ({
      name: engine,
      testDir: './tests/engines',
      fullyParallel: false,
      use: { engine },
    })),
    // Switches the shared ingest into failure modes, so it runs alone, after everything else.
    { name: 'ingest faults', testMatch: /ingest-faults/, dependencies: ['app', 'product', 'firefox', 'webkit'] },
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
    {
      // The services the product's pages call (a backend, a migrated Postgres), before the app that calls them.
      command: 'node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON tests/product/services.ts',
      url: `${productTestEnv.BACKEND_URL}/greeting`,
      reuseExistingServer: false,
      timeout: 30_000,
      // Stopped by a signal it passes on, so that Postgres stops and its data directory goes.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    },
    {
      // The production build made by `npm test` (or `npm run build`, with e2eBuildEnv); loopback only.
      command: 'node tests/support/logged-server.mjs',
      url: `${appOrigin}/api/health`,
      env: e2eServerEnv,
      reuseExistingServer: false,
      timeout: 60_000,
      // Its output goes to a file (tests/support/logged-server.mjs); stderr carries only a start-up failure.
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
