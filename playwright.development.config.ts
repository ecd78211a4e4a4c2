import { defineConfig, devices } from '@playwright/test';
import { chromiumFlags, chromiumPath } from '@web-foundation/testing/env';

// `next dev`, checked on its own (an app's tests/development.spec.ts: apps/guide's): the spec starts the dev server
// itself and needs none of the production suite's servers, and a dev server compiling beside that suite would slow both.
export default defineConfig({
  testDir: './apps',
  testMatch: '*/tests/development.spec.ts',
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
