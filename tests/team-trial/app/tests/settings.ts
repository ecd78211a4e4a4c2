// The app's settings as its tests run it, and what its spec and its services share.

/** The port the catalog's Postgres listens on in the tests: ours, chosen below Linux's client port range. */
export const catalogDatabasePort = 5544;
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
