import { expect, test as base } from '@playwright/test';
import type { Event } from '@sentry/core';
import type { NextRouterEvents } from './fixtures';
import { appOrigin } from './e2e-env.mts';
import { launchEngine, type EngineBrowser, type EngineName, type EngineTab } from './engines';
import { IngestClient, type IngestItem } from './ingest';
import { startSiteProxy, type SiteProxy } from './site-proxy';

export type { EngineTab } from './engines';

// The cross-engine suite: one test body per behaviour, run by the `firefox` and `webkit` projects of
// playwright.config.ts, each with its engine (packages/testing/src/engines.ts) in place of Playwright's browser. Every test
// reaches the app through a proxy of its own (packages/testing/src/site-proxy.ts): its own origin, and the requests it can
// fail, hold or count the same way in both engines.

export interface EngineOptions {
  engine: EngineName;
}

/** The annotation of a test that causes CSP violations on purpose. */
export const provokesCspViolations = 'provokes CSP violations';

export const test = base.extend<
  { tab: EngineTab; site: SiteProxy; ingest: IngestClient; upstream: string },
  EngineOptions & { browserOfEngine: EngineBrowser }
>({
  // The app the site's proxy forwards to: the reference app, unless a test names another (the sweep of every app).
  upstream: [appOrigin, { option: true }],
  engine: ['firefox', { option: true, scope: 'worker' }],
  // Launched once per worker: a browser start costs 1–3 s.
  browserOfEngine: [
    async ({ engine }, use) => {
      const browser = await launchEngine(engine);
      await use(browser);
      await browser.close();
    },
    { scope: 'worker', timeout: 60_000 },
  ],
  // Every page of every test, error pages and deploys included, shows with no CSP violation (a test that provokes
  // them on purpose says so with the annotation below).
  site: async ({ upstream }, use, testInfo) => {
    const site = await startSiteProxy(upstream);
    await use(site);
    await site.close();
    if (!testInfo.annotations.some((a) => a.type === provokesCspViolations)) {
      expect(site.cspViolations, 'CSP violations on the pages of this test').toEqual([]);
    }
    if (testInfo.status !== testInfo.expectedStatus) {
      const requests = site.requests.map(
        (r) => `${r.at} ${r.outcome} ${r.destination} ${r.method} ${r.path} from ${r.referrer || '-'}`,
      );
      await testInfo.attach('requests through the proxy', { body: requests.join('\n'), contentType: 'text/plain' });
    }
  },
  tab: async ({ browserOfEngine, site }, use, testInfo) => {
    const tab = await browserOfEngine.newTab();
    await use(tab);
    if (testInfo.status !== testInfo.expectedStatus) {
      const state = await tab
        .evaluate(() => ({ now: Date.now(), url: location.href, readyState: document.readyState, ...sessionStorage }))
        .catch((error: Error) => ({ error: error.message }));
      await testInfo.attach('the page at the end', {
        body: JSON.stringify(state, null, 1),
        contentType: 'application/json',
      });
    }
    // The page leaves before the site's proxy closes (it is torn down after this fixture, which uses it): a page
    // whose server went away would fail, and report, what it still loads.
    await tab.close();
    site.releaseHeld();
  },
  // A client for each test: its waits are created before the action they wait for.
  ingest: async ({}, use) => use(new IngestClient()),
});
export { expect };

/** Items the browser at `origin` sent: each test's own origin tells its envelopes apart from every other test's. */
export const fromSite =
  (site: SiteProxy) =>
  <P>(_payload: P, item: IngestItem<P>) =>
    item.from.origin === site.origin;

/** A transaction of this site's browser, of one kind, named `name`. */
export const browserTransaction = (site: SiteProxy, op: 'pageload' | 'navigation', name: string) => {
  const ours = fromSite(site);
  return (t: Event, item: IngestItem<Event>) => ours(t, item) && t.contexts?.trace?.op === op && t.transaction === name;
};

/** Next's router is up: links navigate client-side from here on. */
export const hydrated = () => Boolean((window as unknown as { next?: { router?: object } }).next?.router);

/** A CSS selector for the `tag` element whose text is `text` (CSS cannot match text: the element is marked). */
export async function byText(tab: EngineTab, tag: string, text: string): Promise<string> {
  const found = await tab.evaluate(
    (t, x) => {
      const element = [...document.querySelectorAll(t)].find((e) => e.textContent?.trim() === x);
      element?.setAttribute('data-engine-test', x);
      return Boolean(element);
    },
    tag,
    text,
  );
  if (!found) throw new Error(`no <${tag}> reads "${text}"`);
  return `${tag}[data-engine-test="${text}"]`;
}

/** The page's title, main heading and announcer text. */
export const pageTexts = (tab: EngineTab) =>
  tab.evaluate(() => ({
    title: document.title,
    heading: document.querySelector('h1')?.textContent ?? null,
    announcer: document.querySelector('#__next-route-announcer__')?.textContent ?? null,
  }));

type SentryCarrier = Record<
  string,
  { defaultCurrentScope?: { getClient(): { getIntegrationByName(n: string): unknown } | undefined } }
>;

/** The browser SDK has started (it loads after the page). */
export const reportingStarted = () =>
  Object.values((globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__ ?? {}).some((v) =>
    v?.defaultCurrentScope?.getClient(),
  );

/** The SDK measures web vitals (its WebVitals integration, which BrowserTracing adds after the SDK starts). */
export const webVitalsMeasured = () =>
  Object.values((globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__ ?? {}).some((v) =>
    v?.defaultCurrentScope?.getClient()?.getIntegrationByName('WebVitals'),
  );

/** Session replay records: its integration is set up and its session stored (as packages/testing/src/fixtures.ts waits for). */
export const replayRecording = () =>
  Object.values((globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__ ?? {}).some((v) =>
    v?.defaultCurrentScope?.getClient()?.getIntegrationByName('Replay'),
  ) && sessionStorage.getItem('sentryReplaySession') !== null;

/**
 * Records, in the page's own clock, when the pointer next enters a link (Next's Link starts loading its route then),
 * when the click comes, when the navigation starts and when the page starts to leave (as packages/testing/src/fixtures.ts does
 * for Chromium).
 */
export const markClickAndLeave = (tab: EngineTab) =>
  tab.evaluate(() => {
    const mark = (name: string) => sessionStorage.getItem(name) ?? sessionStorage.setItem(name, String(Date.now()));
    for (const name of ['hoveredAt', 'clickedAt', 'startedAt', 'leftAt']) sessionStorage.removeItem(name);
    addEventListener('pointerover', (e) => (e.target as Element).closest('a') && mark('hoveredAt'), true);
    addEventListener('click', () => mark('clickedAt'), true);
    (window as unknown as { next: { router: NextRouterEvents } }).next.router.events.on('routeChangeStart', () =>
      mark('startedAt'),
    );
    addEventListener('beforeunload', () => mark('leftAt'));
  });

/**
 * Milliseconds from the hover, the click and the navigation's start to the start of the full navigation, read in the
 * page it reached.
 */
export const clickToLeave = (tab: EngineTab) =>
  tab.evaluate(() => {
    const at = (name: string) => Number(sessionStorage.getItem(name));
    const since = (name: string) =>
      sessionStorage.getItem(name) === null || sessionStorage.getItem('leftAt') === null
        ? null
        : at('leftAt') - at(name);
    return { fromHover: since('hoveredAt'), fromClick: since('clickedAt'), fromStart: since('startedAt') };
  });
