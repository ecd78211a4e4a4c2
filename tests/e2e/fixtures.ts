import { test as base, type Page } from '@playwright/test';
import { IngestClient } from '../support/ingest';

/** Tests that see what the app reports: `ingest` is the local Sentry ingest, `since` its mark at test start. */
export const test = base.extend<{ ingest: IngestClient; since: number; token: string }>({
  ingest: async ({}, use) => use(new IngestClient()),
  since: async ({ ingest }, use) => use(await ingest.mark()),
  // A marker unique to the test, so that parallel tests never match each other's events.
  token: async ({}, use, info) =>
    use(`t${info.workerIndex}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`),
});
export { expect } from '@playwright/test';

/** Throws in the page outside React, as an uncaught error the global handler reports. */
export async function throwInPage(page: Page, message: string) {
  await page.evaluate(
    (m) =>
      setTimeout(() => {
        throw new Error(m);
      }),
    message,
  );
}

type SentryCarrier = Record<
  string,
  { defaultCurrentScope?: { getClient(): { getOptions(): Record<string, unknown> } | undefined } }
>;

/** Waits until the browser SDK, which loads after the page, has started. */
export async function waitForReporting(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const carrier = (globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__;
    return Object.values(carrier ?? {}).some((v) => v?.defaultCurrentScope?.getClient());
  });
}

/** The browser SDK's effective options, read from the client the built bundle created. */
export async function browserClientOptions(page: Page): Promise<Record<string, unknown>> {
  await waitForReporting(page);
  return page.evaluate(() => {
    const carrier = (globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__;
    const client = Object.values(carrier ?? {})
      .map((v) => v?.defaultCurrentScope?.getClient())
      .find(Boolean);
    const options = client?.getOptions() ?? {};
    return JSON.parse(JSON.stringify(options, (_key, value) => (value instanceof RegExp ? String(value) : value)));
  });
}
