import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as base, type Page } from '@playwright/test';
import { fullNavigationAfterMs } from '../../foundation/src/client/navigationGuard';
import { appOrigin, builtDir } from './e2e-env.mts';
import { IngestClient } from './ingest';

/**
 * Tests that see what the app reports: `ingest` is the local Sentry ingest's client, new for each test (its waits are
 * created before the action they wait for).
 */
export const test = base.extend<{ ingest: IngestClient; token: string }>({
  ingest: async ({}, use) => use(new IngestClient()),
  // A marker unique to the test, so that parallel tests never match each other's events.
  token: async ({}, use, info) =>
    use(`t${info.workerIndex}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`),
});
export { expect } from '@playwright/test';

/**
 * axe-core on the page, run where the page is (@axe-core/playwright's "legacy mode"): by default each analysis opens a
 * blank page of its own to merge the results of every frame, which cost about 0.6 s of each run's 1.0 s. The merged
 * results are the same (checked rule by rule on four pages); what the blank page adds is cross-origin frames, which the
 * Content-Security-Policy forbids (`default-src 'self'`, so no `frame-src` elsewhere).
 */
export const axeOn = (page: Page) => new AxeBuilder({ page }).setLegacyMode();

/**
 * Opens `url` in the page, its document requested with this X-Request-Id (the app keeps a safe one), so that a wait for
 * the request's transaction or error can be created before it. Only the document carries it.
 */
export async function gotoWithRequestId(page: Page, url: string, requestId: string) {
  // Playwright resolves a relative `url` against baseURL: the origin of the app the project serves.
  const href = new URL(url, test.info().project.use.baseURL ?? appOrigin).href;
  const document = (address: URL) => address.href === href;
  await page.route(document, (route) =>
    route.continue({ headers: { ...route.request().headers(), 'x-request-id': requestId } }),
  );
  try {
    return await page.goto(url);
  } finally {
    await page.unroute(document);
  }
}

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

/** The part of Next's router events (`window.next.router.events`) the tests listen to. */
export interface NextRouterEvents {
  events: { on(type: 'routeChangeStart', listener: () => void): void };
}

type SentryCarrier = Record<
  string,
  { defaultCurrentScope?: { getClient(): { getOptions(): Record<string, unknown> } | undefined } }
>;

/** The paths of the build's chunks whose text holds `marker`, read from the build the server serves (at least one). */
function chunksHolding(marker: string): Set<string> {
  const dir = join(builtDir(), 'static', 'chunks');
  const files = readdirSync(dir).filter(
    (f) => f.endsWith('.js') && readFileSync(join(dir, f), 'utf8').includes(marker),
  );
  expect(files.length).toBeGreaterThan(0);
  return new Set(files.map((f) => `/_next/static/chunks/${f}`));
}

/** The chunks that hold the browser SDK: only they name its transport's endpoint on the ingest. */
export const sdkChunks = () => chunksHolding('/envelope/');

/** The chunks that hold session replay: rrweb's recorder. */
export const replayChunks = () => chunksHolding('rrweb');

/**
 * The paths of a route's scripts (requests add the `?dpl=` token: compare paths), from the build manifest Next's router
 * loads, read from the build the server serves. Read from disk, not in a page: a page opened to read it goes on loading
 * (the SDK's chunks, after its load event) while the test moves on, and a request of it that the test then holds keeps
 * Firefox's next document from ever completing its load.
 */
export function routeScripts(route: string): Set<string> {
  const buildId = readFileSync(join(builtDir(), 'BUILD_ID'), 'utf8');
  const page: { __BUILD_MANIFEST?: Record<string, string[]> } = {};
  runInNewContext(readFileSync(join(builtDir(), 'static', buildId, '_buildManifest.js'), 'utf8'), { self: page });
  const files = page.__BUILD_MANIFEST?.[route] ?? [];
  const scripts = new Set(files.filter((f) => f.endsWith('.js')).map((f) => `/_next/${f}`));
  expect(scripts.size).toBeGreaterThan(0);
  return scripts;
}

/** Waits until the browser SDK, which loads after the page, has started. */
export async function waitForReporting(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const carrier = (globalThis as unknown as { __SENTRY__?: SentryCarrier }).__SENTRY__;
    return Object.values(carrier ?? {}).some((v) => v?.defaultCurrentScope?.getClient());
  });
}

/**
 * Which of these integrations the browser SDK has installed, waiting first until `waitFor` is (the SDK adds some in
 * tasks after init: packages/foundation/src/observability/browser/reporter.ts).
 */
export async function installedIntegrations(page: Page, names: string[], waitFor: string): Promise<string[]> {
  await waitForReporting(page);
  const installed = (name: string) => {
    type Client = { getIntegrationByName(n: string): unknown };
    const carrier = (
      globalThis as unknown as {
        __SENTRY__?: Record<string, { defaultCurrentScope?: { getClient(): Client | undefined } }>;
      }
    ).__SENTRY__;
    const client = Object.values(carrier ?? {})
      .map((v) => v?.defaultCurrentScope?.getClient())
      .find(Boolean);
    return Boolean(client?.getIntegrationByName(name));
  };
  await page.waitForFunction(`(${installed.toString()})(${JSON.stringify(waitFor)})`);
  return page.evaluate(`${JSON.stringify(names)}.filter(${installed.toString()})`);
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

/** Waits until session replay has started recording (its integration is set up and its session stored). */
export async function waitForReplay(page: Page): Promise<void> {
  await waitForReporting(page);
  await page.waitForFunction(() => {
    const carrier = (
      globalThis as unknown as {
        __SENTRY__?: Record<
          string,
          { defaultCurrentScope?: { getClient(): { getIntegrationByName(n: string): unknown } | undefined } }
        >;
      }
    ).__SENTRY__;
    const replay = Object.values(carrier ?? {}).some((v) =>
      v?.defaultCurrentScope?.getClient()?.getIntegrationByName('Replay'),
    );
    return replay && sessionStorage.getItem('sentryReplaySession') !== null;
  });
}

/** Slows the page's CPU down `rate` times through the DevTools protocol, as a slow phone or a loaded CI machine. */
export async function slowDownCpu(page: Page, rate: number): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/**
 * The bound the guard promises, from the navigation's start (Next's routeChangeStart, where the guard and the spec's
 * time-out count from) to the page leaving: its deadline (3.8 s + 0.2 s) and 0.3 s for a timer's lateness on a busy
 * main thread. Not from the click: a slowed or busy main thread takes its time to get a click to the router, and that
 * is no part of the route's load.
 */
export const guaranteedWithinMs = fullNavigationAfterMs + 300;

/**
 * Records, in the page's own clock, when the pointer next enters a link (Next's Link starts loading its route on
 * hover), when the click comes, when the navigation starts (Next's routeChangeStart, from which the guard counts its
 * deadline) and when the page starts to leave.
 */
export async function markClickAndLeave(page: Page): Promise<void> {
  await page.waitForFunction(() => (window as unknown as { next?: { router?: NextRouterEvents } }).next?.router);
  await page.evaluate(() => {
    const mark = (name: string) => sessionStorage.getItem(name) ?? sessionStorage.setItem(name, String(Date.now()));
    for (const name of ['hoveredAt', 'clickedAt', 'startedAt', 'leftAt']) sessionStorage.removeItem(name);
    addEventListener('pointerover', (e) => (e.target as Element).closest('a') && mark('hoveredAt'), true);
    addEventListener('click', () => mark('clickedAt'), true);
    (window as unknown as { next: { router: NextRouterEvents } }).next.router.events.on('routeChangeStart', () =>
      mark('startedAt'),
    );
    addEventListener('beforeunload', () => mark('leftAt'));
  });
}

/**
 * Milliseconds from the hover, the click and the navigation's start to the start of the full navigation, read in the
 * page the navigation reached. Next's own time-out counts from the load the hover starts; the guard's from the start.
 */
export const clickToLeave = (page: Page) =>
  page.evaluate(() => {
    const at = (name: string) => Number(sessionStorage.getItem(name));
    // No hover recorded (the pointer was already on the link): undefined, so that no assertion on it passes by default.
    const fromHover = sessionStorage.getItem('hoveredAt') === null ? undefined : at('leftAt') - at('hoveredAt');
    return { fromHover, fromClick: at('leftAt') - at('clickedAt'), fromStart: at('leftAt') - at('startedAt') };
  });

/** The 405 error page, reached the way a browser can: a form posted to a page. */
export async function showMethodNotAllowedPage(page: Page): Promise<void> {
  await page.goto('/examples/new');
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.status() === 405),
    page.evaluate(() => {
      const form = document.createElement('form');
      form.method = 'post';
      form.action = '/examples/new';
      document.body.append(form);
      form.submit();
    }),
  ]);
  await expect(page).toHaveTitle('405: Method Not Allowed');
  await page.waitForLoadState('networkidle');
}

/** Every CSP violation any document of the page reports, full navigations included (the app's policy stays on). */
export async function recordCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('__cspViolation', (violation: string) => violations.push(violation));
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolation(v: string): void }).__cspViolation(
        `${e.violatedDirective} ${e.blockedURI} on ${e.documentURI}`,
      ),
    ),
  );
  return violations;
}
