import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // An app's own settings, as tsconfig.json's `paths` names them for the foundation: apps/web's.
  resolve: {
    alias: {
      '@web-foundation/product-env': fileURLToPath(new URL('apps/web/src/config/productEnv.ts', import.meta.url)),
    },
  },
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
});
