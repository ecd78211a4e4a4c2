// The services the guide's pages call in the tests: a backend that answers the guide's calls, and a Postgres migrated
// by the app's own migrations (`node scripts/migrate.mjs`). The tests start this before the app's build, so that a
// page may read them at build time (scripts/e2e.mjs), and the app reaches them at the BACKEND_URL and DATABASE_URL of
// ./settings.ts. Your pages call other services? Answer their paths here.
// Node runs this file as it is; the services come from the foundation's test harness by name.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startBackend, startPostgres } from '@web-foundation/testing/services';
import { testedApp } from '@web-foundation/testing/apps';
import { backendPort, postgresPort } from '@web-foundation/testing/env';

/** This app, as the tests build and serve it. */
const guide = testedApp('guide');

/** What the backend answers, by path: the guide's calls (docs/build-your-product.md, step 4). */
const answers = { '/greeting': { greeting: 'Hello from the backend' }, '/stock': { apples: 3 } };

const postgres = await startPostgres(postgresPort);
const migrations = join(guide.dir, 'scripts', 'migrate.mjs');
if (existsSync(migrations)) {
  const run = spawnSync('node', ['scripts/migrate.mjs'], {
    cwd: guide.dir,
    env: { ...process.env, DATABASE_URL: postgres.url },
    stdio: 'inherit',
  });
  if (run.status !== 0) {
    await postgres.stop();
    throw new Error(`The product's migrations failed against the tests' Postgres (exit code ${run.status}).`);
  }
}
// One product, whose page (/products/1) the page sweep loads (./sample-paths.ts).
const client = new pg.Client(postgres.url);
await client.connect();
await client.query("INSERT INTO products (name) VALUES ('apples') ON CONFLICT DO NOTHING");
await client.end();
// Last: every service is up once the backend is.
const backend = await startBackend(answers, backendPort);
// This line tells the tests every service is ready (scripts/e2e.mjs, playwright.config.ts).
console.log(`services ready: backend ${backend.origin}, Postgres ${postgres.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void Promise.all([backend.stop(), postgres.stop()]).then(() => process.exit(0)));
}
