import { url } from '@web-foundation/foundation/env-checks';
import { EnvError, defineProduct } from '@web-foundation/foundation/product';

export const product = defineProduct({
  settings: (source) => {
    const catalogTitle = source.CATALOG_TITLE?.trim();
    if (!catalogTitle) throw new EnvError('CATALOG_TITLE is not set: set it to a line of text, e.g. Northwind Books.');
    return {
      /** CATALOG_TITLE: the catalog's heading. Required. */
      catalogTitle,
      /** DATABASE_URL: the catalog's Postgres. Required. */
      databaseUrl: url('DATABASE_URL', source.DATABASE_URL, {
        protocols: ['postgres:', 'postgresql:'],
        example: 'postgres://app@db.internal/app',
      }),
    };
  },
});
