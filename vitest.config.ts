import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // An app's own settings, as tsconfig.json's `paths` names them for the foundation: the reference app's, which declares
  // none, so that the foundation's tests never depend on a team's required settings.
  resolve: {
    alias: {
      '@web-foundation/product-env': fileURLToPath(new URL('apps/reference/src/config/productEnv.ts', import.meta.url)),
      '@web-foundation/product-slugs': fileURLToPath(new URL('apps/reference/src/config/slugs.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
});
