// The product: its own settings and the slugs its pages can have, declared once here and handed to the foundation at
// this app's entries (instrumentation.ts, proxy.ts, pages/api/revalidate.ts). The server checks every setting when it
// starts: a missing or wrong one stops it with one sentence naming the variable and what to set. Pages and API routes
// read them as `product.settings()`, never process.env. Each setting is also in this app's README.md (Settings) and
// .env.example, and has its test value in tests/settings.ts. docs/build-your-product.md adds three (apps/guide).
import { defineProduct } from '@web-foundation/foundation/product';

export const product = defineProduct({
  // Each variable read with a check of @web-foundation/foundation/env-checks (url, secret, integer, flag). None yet.
  settings: () => ({}),
  // Fallback routes (getStaticPaths with `fallback`) whose slugs are not lowercase letters, digits and dashes (at most
  // 64), e.g. `'/products/[sku]': /^[A-Z0-9]{8}$/`. The proxy answers 404 for any other slug before Next renders or
  // stores anything; a rule runs on request data, so it must run in linear time (tests/unit/linear-regexes.test.ts).
  slugRules: {},
});
