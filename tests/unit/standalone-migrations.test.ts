import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

// Issue 54: a team's migrations travel with its build. A made-up build of apps/shop, whose runner imports a database
// client the server never loads (so Next's trace left it out) and a workspace package of the team's (a link in
// node_modules), and finds its migrations from the working directory.

const standaloneScript = 'packages/foundation/scripts/standalone.mjs';

describe("the standalone directory carries the app's migrations and everything their runner loads", () => {
  let root: string;
  const app = () => join(root, 'apps', 'shop');
  const serverDir = () => join(app(), '.next', 'standalone', 'apps', 'shop');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'standalone-migrations-'));
    write('node_modules/db-client/package.json', '{ "name": "db-client", "main": "index.js" }');
    write('node_modules/db-client/index.js', "module.exports = require('./lib/version.js');\n");
    write('node_modules/db-client/lib/version.js', "module.exports = { version: 'db-client 1' };\n");
    write('packages/shop-schema/package.json', '{ "name": "shop-schema", "main": "index.js" }');
    write('packages/shop-schema/index.js', "module.exports = 'shop-schema';\n");
    symlinkSync('../packages/shop-schema', join(root, 'node_modules', 'shop-schema'));
    write('apps/shop/public/robots.txt', '');
    write('apps/shop/.next/static/chunks/page.js', '');
    write(
      'apps/shop/.next/required-server-files.json',
      JSON.stringify({ appDir: app(), config: { outputFileTracingRoot: root } }),
    );
    mkdirSync(serverDir(), { recursive: true });
    write('apps/shop/migrations/0001-orders.sql', 'CREATE TABLE orders ();\n');
    write('apps/shop/migrations/0002-customers.sql', 'CREATE TABLE customers ();\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** The build's last step, as `npm run build` runs it: in Node itself, which resolves imports as Vitest does not. */
  const complete = () => {
    const folders = { appDir: app(), distDir: '.next', serverDir: serverDir(), repository: process.cwd() };
    const step = `import { completeStandalone } from ${JSON.stringify(resolve(standaloneScript))};
      await completeStandalone(${JSON.stringify(folders)});`;
    const run = spawnSync('node', ['--input-type=module', '-e', step], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  };

  test('a copy of it, with no repository beside it, runs the runner from the app’s folder', () => {
    write(
      'apps/shop/scripts/migrate.mjs',
      "import { readdirSync } from 'node:fs';\nimport client from 'db-client';\nimport schema from 'shop-schema';\n" +
        "console.log(client.version, schema, readdirSync('migrations').join(' '));\n",
    );
    complete();

    const elsewhere = mkdtempSync(join(tmpdir(), 'standalone-copy-'));
    try {
      cpSync(join(app(), '.next', 'standalone'), elsewhere, { recursive: true });
      const run = spawnSync('node', ['scripts/migrate.mjs'], {
        cwd: join(elsewhere, 'apps', 'shop'),
        encoding: 'utf8',
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe('db-client 1 shop-schema 0001-orders.sql 0002-customers.sql\n');
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  test('an app without a runner gets neither the runner nor its migrations', () => {
    complete();
    expect(existsSync(join(serverDir(), 'scripts'))).toBe(false);
    expect(existsSync(join(serverDir(), 'migrations'))).toBe(false);
    // The rest of the standalone server is completed as before.
    expect(existsSync(join(serverDir(), 'public', 'robots.txt'))).toBe(true);
  });
});
