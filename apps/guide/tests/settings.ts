// The app's settings as its tests run it (`npm test`): where the services of ./services.ts listen, and a session key
// for tests only. Its end-to-end server gets them (playwright.config.ts); production takes them from the environment.
import { backendPort, postgresPort } from '@web-foundation/testing/env';

export const testSettings: Record<string, string> = {
  BACKEND_URL: `http://127.0.0.1:${backendPort}`,
  DATABASE_URL: `postgres://app@127.0.0.1:${postgresPort}/postgres`,
  SESSION_SECRET: 'e2e-session-secret-0123456789abcdef0123456789abcdef',
};
