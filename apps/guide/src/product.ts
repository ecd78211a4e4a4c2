// The product: its own settings and the slugs its pages can have, declared once here and handed to the foundation at
// this app's entries (instrumentation.ts, proxy.ts, pages/api/revalidate.ts). The server checks every setting when it
// starts: a missing or wrong one stops it with one sentence naming the variable and what to set. Each setting is also
// in this app's README.md (Settings) and .env.example, and has its test value in tests/settings.ts.
import { secret, url } from '@web-foundation/foundation/env-checks';
import { defineProduct } from '@web-foundation/foundation/product';

export const product = defineProduct({
  settings: (source) => ({
    /** BACKEND_URL: the base URL of the product's backend. Required. */
    backendUrl: url('BACKEND_URL', source.BACKEND_URL, {
      protocols: ['http:', 'https:'],
      example: 'http://backend.internal:8080',
    }),
    /** DATABASE_URL: the product's Postgres; user and password may be in it. Required. */
    databaseUrl: url('DATABASE_URL', source.DATABASE_URL, {
      protocols: ['postgres:', 'postgresql:'],
      example: 'postgres://app@db.internal/app',
    }),
    /** SESSION_SECRET: the key that signs session cookies (section 4d). Required. */
    sessionSecret: secret('SESSION_SECRET', source.SESSION_SECRET, { minLength: 32 }),
  }),
  // A product's page is its row's id (pages/products/[id].tsx): the proxy answers 404 for any other slug.
  slugRules: { '/products/[id]': /^[1-9][0-9]{0,17}$/ },
});
