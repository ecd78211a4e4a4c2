// The product's own settings: the variables your pages and API routes read (a backend's URL, a database's), each
// declared once here with its default and its check. packages/foundation/src/config/env.ts validates them with the
// foundation's own when the server starts, so a missing or wrong value stops start-up with one sentence naming the
// variable and what to set. Read them through serverEnv().product, never process.env. Add each to this app's README.md
// (Settings) and .env.example, and give it a test value in tests/settings.ts. The app declares none yet, so a fresh
// clone starts with no settings; docs/build-your-product.md adds three (apps/guide).

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- the product adds its fields here.
export interface ProductEnv {}

/** Parses the product's variables with the checks of ./envChecks (url, integer, flag). */
export function parseProductEnv(source: Record<string, string | undefined>): ProductEnv {
  void source;
  return {};
}
