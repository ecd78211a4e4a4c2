// The services the guide's pages call, as the end-to-end server gets them: a backend that answers the guide's calls,
// and a Postgres migrated by the app's own migrations (`node scripts/migrate.mjs`). Playwright starts this before the
// app (playwright.config.ts), and the app reaches them at BACKEND_URL and DATABASE_URL (productTestEnv in
// tests/support/e2e-env.mts). Your pages call other services? Answer their paths here.
// Node runs this file as it is, so its imports name their .ts files.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startBackend } from '../../../tests/support/backend.ts';
import { apps, backendPort, postgresPort } from '../../../tests/support/e2e-env.mts';
import { startPostgres } from '../../../tests/support/postgres.ts';

/** What the backend answers, by path: the guide's calls (docs/build-your-product.md, step 4). */
const answers = { '/greeting': { greeting: 'Hello from the backend' }, '/stock': { apples: 3 } };

const postgres = await startPostgres(postgresPort);
const migrations = join(apps.guide, 'scripts', 'migrate.mjs');
if (existsSync(migrations)) {
  const run = spawnSync('node', ['scripts/migrate.mjs'], {
    cwd: apps.guide,
    env: { ...process.env, DATABASE_URL: postgres.url },
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    await postgres.stop();
    throw new Error(`The product's migrations failed against the tests' Postgres (exit code ${run.status}).`);
  }
}
// Last: Playwright takes the backend's answer as the sign that every service is ready.
const backend = await startBackend(answers, backendPort);
console.log(`product services: backend ${backend.origin}, Postgres ${postgres.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void Promise.all([backend.stop(), postgres.stop()]).then(() => process.exit(0)));
}
