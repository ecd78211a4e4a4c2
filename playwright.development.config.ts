import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags, chromiumPath } from './tests/support/e2e-env.mts';

// `next dev`, checked on its own (tests/e2e/development.spec.ts): the spec starts the dev server itself and needs none
// of the production suite's servers, and a dev server compiling beside that suite would slow both.
export default defineConfig({
  testDir: './tests/e2e',
  testMatch: /development\.spec\.ts/,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  reporter: [['list'], ['json', { outputFile: '.test-results/e2e-development.json' }]],
  use: {
    trace: 'retain-on-failure',
    ...devices['Desktop Chrome'],
    launchOptions: { executablePath: chromiumPath, args: chromiumFlags },
  },
});
