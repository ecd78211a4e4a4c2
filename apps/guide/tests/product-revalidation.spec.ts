import type { Event } from '@sentry/core';
import pg from 'pg';
import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import { testedApp } from '@web-foundation/testing/apps';
import { e2eDistDir, serverDir } from '@web-foundation/testing/env';
import { thrownException } from '@web-foundation/testing/ingest';
import { migrate, startPostgres, type Postgres } from '@web-foundation/testing/services';
import { expect, test } from '@web-foundation/testing';
import { testSettings as guideSettings } from './settings';

/** This app, as the tests build and serve it. */
const guide = testedApp('guide');

// Issue 54: a product's own API route changes a row and regenerates the page that shows it
// (docs/build-your-product.md, step 4f: src/pages/api/products/[id].ts with revalidatePages), served by an instance of
// its own against a Postgres of this test's. `next dev` is proven in ./development.spec.ts.

let postgres: Postgres | undefined;
let app: Instance | undefined;

test.afterEach(async () => {
  await app?.stop();
  await postgres?.stop();
  app = postgres = undefined;
});

test("the product's route renames a product and its cached page shows the new name at once", async ({
  page,
  ingest,
}) => {
  test.setTimeout(60_000);
  postgres = await startPostgres();
  migrate(postgres.url, guide.dir);
  const client = new pg.Client(postgres.url);
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>("INSERT INTO products (name) VALUES ('apples') RETURNING id");
    const path = `/products/${rows[0]!.id}`;
    app = await startInstance(e2eDistDir, serverDir(e2eDistDir, guide.dir), {
      ...guideSettings,
      DATABASE_URL: postgres.url,
    });
    const heading = async () => {
      expect((await page.goto(`${app!.origin}${path}`))?.status()).toBe(200);
      return page.getByRole('heading', { level: 1 }).textContent();
    };

    expect(await heading()).toBe('apples');
    // The page is served from the page cache: a change to the row alone does not reach it.
    await client.query("UPDATE products SET name = 'plums' WHERE id = $1", [rows[0]!.id]);
    expect(await heading()).toBe('apples');

    const form = { email: 'demo@example.com', password: 'correct horse battery staple' };
    expect((await page.request.post(`${app.origin}/api/sign-in`, { form, maxRedirects: 0 })).status()).toBe(303);
    const renamed = await page.request.put(`${app.origin}/api/products/${rows[0]!.id}`, { data: { name: 'pears' } });
    expect(await renamed.json()).toEqual({ id: rows[0]!.id, name: 'pears', revalidated: [path] });
    expect(renamed.status()).toBe(200);
    expect(await heading()).toBe('pears');

    const missing = await page.request.put(`${app.origin}/api/products/999999`, { data: { name: 'figs' } });
    expect(missing.status()).toBe(404);
    // Next's own failure (`Failed to revalidate /products/1: Invalid response 500`) would be reported.
    await ingest.expectNone<Event>('event', (event) => /revalidate/i.test(thrownException(event)), { withinMs: 1_000 });
  } finally {
    await client.end();
  }
});
