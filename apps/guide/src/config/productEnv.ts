// The product's own settings, each declared once with its default and its check; packages/foundation/src/config/env.ts
// validates them with the foundation's when the server starts. Each is in this app's README.md (Settings) and
// .env.example too, and has its test value in tests/settings.ts.
import { secret, url } from '@web-foundation/foundation/env-checks';

export interface ProductEnv {
  /** BACKEND_URL: the base URL of the product's backend. Required. */
  backendUrl: string;
  /** DATABASE_URL: the product's Postgres; user and password may be in it. Required. */
  databaseUrl: string;
  /** SESSION_SECRET: the key that signs session cookies (section 4d). Required. */
  sessionSecret: string;
}

export function parseProductEnv(source: Record<string, string | undefined>): ProductEnv {
  return {
    backendUrl: url('BACKEND_URL', source.BACKEND_URL, {
      protocols: ['http:', 'https:'],
      example: 'http://backend.internal:8080',
    }),
    databaseUrl: url('DATABASE_URL', source.DATABASE_URL, {
      protocols: ['postgres:', 'postgresql:'],
      example: 'postgres://app@db.internal/app',
    }),
    sessionSecret: secret('SESSION_SECRET', source.SESSION_SECRET, { minLength: 32 }),
  };
}
