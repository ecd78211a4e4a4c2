// The app's settings as its tests run it, and what its spec and its services share.
import { servicePort } from '@web-foundation/testing/env';

/** The port the catalog's Postgres listens on in the tests: the first of the run's ports for our services. */
export const catalogDatabasePort = servicePort(0);
export const catalogTitle = 'Northwind Books';
/** The rows tests/services.ts puts in the table, and the spec expects on the page. */
export const seedBooks = [
  { id: 1, title: 'The Left Hand of Darkness' },
  { id: 2, title: 'A Wizard of Earthsea' },
];

export const testSettings: Record<string, string> = {
  CATALOG_TITLE: catalogTitle,
  DATABASE_URL: `postgres://app@127.0.0.1:${catalogDatabasePort}/postgres`,
};
