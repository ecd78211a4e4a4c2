// Your app's settings as its tests run it (`npm test`): a value for each variable src/product.ts requires,
// e.g. `BACKEND_URL: 'http://127.0.0.1:3102'`. Its end-to-end server gets them (playwright.config.ts); production takes
// them from the environment. apps/guide/tests/settings.ts is an example.
export const testSettings: Record<string, string> = {};
