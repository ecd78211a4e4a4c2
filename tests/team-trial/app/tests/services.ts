// The catalog's Postgres for the tests: migrated by the app's own runner, then seeded with the spec's rows.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startPostgres } from '@web-foundation/testing/services';
import { catalogDatabasePort, seedBooks } from './settings.ts';

const postgres = await startPostgres(catalogDatabasePort);
const migrated = spawnSync('node', ['scripts/migrate.mjs'], {
  cwd: fileURLToPath(new URL('..', import.meta.url)),
  env: { ...process.env, DATABASE_URL: postgres.url },
  stdio: 'inherit',
});
if (migrated.status !== 0) {
  await postgres.stop();
  throw new Error(`The migrations failed (exit code ${migrated.status}).`);
}
const client = new pg.Client({ connectionString: postgres.url });
await client.connect();
for (const book of seedBooks)
  await client.query('INSERT INTO books (id, title) VALUES ($1, $2)', [book.id, book.title]);
await client.end();
console.log(`services ready: Postgres ${postgres.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => void postgres.stop().then(() => process.exit(0)));
}
