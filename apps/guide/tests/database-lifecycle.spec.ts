import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { startBackend, type Backend, migrate, startPostgres, type Postgres } from '@web-foundation/testing/services';
import { copyOfBuild, startExpectingExit, startInstance, type Instance } from '@web-foundation/testing/cluster';
import { freePort } from '@web-foundation/testing/processes';
import { testedApp } from '@web-foundation/testing/apps';
import { e2eDistDir, serverDir } from '@web-foundation/testing/env';
import { expect, test } from '@web-foundation/testing';
import { testSettings as guideSettings } from './settings';

/** This app, as the tests build and serve it. */
const guide = testedApp('guide');

// Issue 35: sections 4a and 4b of docs/build-your-product.md, in the guide's app (apps/guide) as the tests build it.
// The product's settings stop a bad start with one sentence; its migration runner
// applies each migration once; its database pool closes after the last request on SIGTERM (onShutdown).

let postgres: Postgres | undefined;
let backend: Backend | undefined;
let app: Instance | undefined;

test.afterEach(async () => {
  await app?.stop();
  await backend?.stop();
  await postgres?.stop();
  app = backend = postgres = undefined;
});

/** The messages of the JSON lines a server printed, in order. */
function messages(output: string): string[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      const { msg, url } = JSON.parse(line) as { msg?: string; url?: string };
      return url ? `${msg} ${url}` : String(msg);
    });
}

test('the product’s settings: a missing or wrong one stops start-up with one sentence naming it and what to set', async () => {
  test.setTimeout(60_000);
  const missing = await startExpectingExit(
    { ...guideSettings, BACKEND_URL: undefined, DATABASE_URL: 'postgres://app@127.0.0.1:9/none' },
    serverDir(e2eDistDir, guide.dir),
  );
  expect(missing.code).toBe(1);
  expect(missing.fatal).toContain(
    'Configuration error: BACKEND_URL is not set: set it to a URL (http:// or https://), e.g. http://backend.internal:8080.',
  );
  const wrong = await startExpectingExit(
    {
      ...guideSettings,
      BACKEND_URL: 'http://127.0.0.1:9',
      DATABASE_URL: 'mysql://app:hunter2@db.internal/app',
    },
    serverDir(e2eDistDir, guide.dir),
  );
  expect(wrong.code).toBe(1);
  expect(wrong.fatal).toContain(
    'Configuration error: DATABASE_URL must be a URL (postgres:// or postgresql://) with a host, e.g. postgres://app@db.internal/app; the value set is not.',
  );
  expect(wrong.output).not.toContain('hunter2');
});

test('scripts/migrate.mjs applies each migration once, in a transaction, and fails with one line', async () => {
  test.setTimeout(60_000);
  postgres = await startPostgres();
  expect(migrate(postgres.url, guide.dir)).toBe(
    'migrate: applied 0001-products.sql\nmigrate: up to date, 1 migration(s).\n',
  );
  // Again: nothing new to apply, and the table is left as it was.
  expect(migrate(postgres.url, guide.dir)).toBe('migrate: up to date, 1 migration(s).\n');
  const client = new pg.Client(postgres.url);
  await client.connect();
  try {
    expect((await client.query('SELECT name FROM schema_migrations')).rows).toEqual([{ name: '0001-products.sql' }]);
    await client.query("INSERT INTO products (name) VALUES ('apples')");
    expect((await client.query('SELECT name FROM products')).rows).toEqual([{ name: 'apples' }]);
  } finally {
    await client.end();
  }

  const run = (env: Record<string, string>) =>
    spawnSync('node', ['scripts/migrate.mjs'], {
      cwd: guide.dir,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
      encoding: 'utf8',
    });
  const unset = run({});
  expect(unset.status).not.toBe(0);
  expect(unset.stderr).toBe(
    'migrate: DATABASE_URL is not set: set it to the database to migrate, e.g. postgres://app@db/app.\n',
  );
  const refused = run({ DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${await freePort()}/app` });
  expect(refused.status).not.toBe(0);
  expect(refused.stderr).toMatch(/^migrate: connect ECONNREFUSED 127\.0\.0\.1:\d+\n$/);
  expect(refused.stderr).not.toContain('hunter2');
});

test('the standalone build carries the migrations and their runner: a copy of it migrates, then serves; a failing one stops there', async () => {
  test.setTimeout(60_000);
  [postgres, backend] = await Promise.all([
    startPostgres(),
    startBackend({ '/greeting': { greeting: 'Hello from the backend' } }),
  ]);
  // As a machine or an image holds it: no repository, no node_modules of the repository's, beside it.
  const copy = copyOfBuild(e2eDistDir, guide.dir);
  try {
    expect(migrate(postgres.url, copy.dir)).toBe(
      'migrate: applied 0001-products.sql\nmigrate: up to date, 1 migration(s).\n',
    );
    app = await startInstance(e2eDistDir, copy.dir, {
      ...guideSettings,
      BACKEND_URL: backend.origin,
      DATABASE_URL: postgres.url,
    });
    const page = await fetch(`${app.origin}/hello-backend`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Hello from the backend');

    // The next deploy's migration fails: one line naming it, exit 1, none of it applied, and the build still serves.
    writeFileSync(join(copy.dir, 'migrations', '0002-broken.sql'), 'CREATE TABLE half (id int);\nSELECT nope;\n');
    const broken = spawnSync('node', ['scripts/migrate.mjs'], {
      cwd: copy.dir,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', DATABASE_URL: postgres.url },
      encoding: 'utf8',
    });
    expect(broken.status).toBe(1);
    expect(broken.stderr).toBe('migrate: 0002-broken.sql failed, none of it applied: column "nope" does not exist\n');
    const client = new pg.Client(postgres.url);
    await client.connect();
    try {
      expect((await client.query("SELECT to_regclass('half') AS half")).rows).toEqual([{ half: null }]);
      expect((await client.query('SELECT name FROM schema_migrations')).rows).toEqual([{ name: '0001-products.sql' }]);
    } finally {
      await client.end();
    }
    expect((await fetch(`${app.origin}/hello-backend`)).status).toBe(200);
  } finally {
    await app?.stop();
    copy.remove();
  }
});

test('SIGTERM: the request in flight finishes, then the database pool closes (onShutdown), then the server exits 0', async () => {
  test.setTimeout(60_000);
  [postgres, backend] = await Promise.all([
    startPostgres(),
    startBackend({ '/greeting': { greeting: 'Hello from the backend' } }),
  ]);
  migrate(postgres.url, guide.dir);
  app = await startInstance(e2eDistDir, serverDir(e2eDistDir, guide.dir), {
    ...guideSettings,
    BACKEND_URL: backend.origin,
    DATABASE_URL: postgres.url,
    LOG_REQUESTS: '1',
  });
  // The page opens the pool (the hook is registered then), and a slow request is still running when SIGTERM comes.
  expect((await fetch(`${app.origin}/hello-backend`)).status).toBe(200);
  const slow = fetch(`${app.origin}/api/diagnostics/slow?ms=2000`);
  await new Promise((done) => setTimeout(done, 300));
  const exited = app.stop('SIGTERM');

  // The pool stays open while the request runs: the app's connection is still there.
  const client = new pg.Client(postgres.url);
  await client.connect();
  const appConnections = async () =>
    Number(
      (
        await client.query(
          "SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()",
        )
      ).rows[0].count,
    );
  try {
    expect(await appConnections()).toBe(1);
    const answer = await slow;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ waitedMs: 2000 });
    expect(await exited).toBe(0);
    await expect.poll(appConnections).toBe(0);
  } finally {
    await client.end();
  }

  const lines = messages(app.output());
  // The access log's line (its query value redacted) is written when the response has been sent.
  const answered = lines.findIndex((m) => m.startsWith('request answered /api/diagnostics/slow'));
  const hook = lines.findIndex((m) => /^Shutdown hook "database pool" done in \d+ ms\.$/.test(m));
  const exiting = lines.indexOf('SIGTERM: drained, exiting.');
  expect(answered, lines.join('\n')).toBeGreaterThan(-1);
  expect(hook, lines.join('\n')).toBeGreaterThan(answered);
  expect(exiting, lines.join('\n')).toBeGreaterThan(hook);
});
