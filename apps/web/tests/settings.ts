// Your app's settings as its tests run it (`npm test`): a value for each variable src/product.ts requires, e.g.
// `BACKEND_URL: `http://127.0.0.1:${servicePort(0)}`` for a service your tests/services.ts starts on that port
// (servicePort: @web-foundation/testing/env). Its test build and server get them, and any test that starts it;
// production takes them from the environment. apps/guide/tests/settings.ts is an example.
export const testSettings: Record<string, string> = {};
