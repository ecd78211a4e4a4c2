// @ts-check
// Applies migrations/*.sql to DATABASE_URL in file-name order, each in its own transaction, and records each in the
// table schema_migrations, so that a second run applies only new ones. Run it before the server starts, in every
// stage: `DATABASE_URL=postgres://… node scripts/migrate.mjs`. Exit code 0, or 1 with one line that says why.
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const folder = new URL('../migrations/', import.meta.url);
/** Held while migrating: a second runner (another deploy step) waits for the first. Any number, fixed. */
const lockId = 350_001;

/**
 * One line, whatever failed: a connection refused by every address is an AggregateError with no message.
 * @param {unknown} thrown
 */
function why(thrown) {
  const error = /** @type {{ message?: string, errors?: { message?: string }[], code?: string }} */ (thrown);
  const message = error.message || error.errors?.[0]?.message || error.code || String(error);
  return message.replace(/\s+/g, ' ').trim();
}

const url = process.env.DATABASE_URL?.trim();
if (!url) {
  console.error('migrate: DATABASE_URL is not set: set it to the database to migrate, e.g. postgres://app@db/app.');
  process.exit(1);
}

const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [lockId]);
  await client.query(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const applied = new Set((await client.query('SELECT name FROM schema_migrations')).rows.map((row) => row.name));
  const files = readdirSync(folder)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  for (const file of files.filter((name) => !applied.has(name))) {
    await client.query('BEGIN');
    try {
      await client.query(readFileSync(new URL(file, folder), 'utf8'));
      await client.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`${file} failed, none of it applied: ${why(error)}`);
    }
    console.log(`migrate: applied ${file}`);
  }
  console.log(`migrate: up to date, ${files.length} migration(s).`);
  await client.end();
} catch (error) {
  console.error(`migrate: ${why(error)}`);
  await client.end().catch(() => undefined);
  process.exit(1);
}
