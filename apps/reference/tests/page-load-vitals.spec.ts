import type { Page } from '@playwright/test';
import { appOrigin, nextReleaseBuildEnv } from '@web-foundation/testing/env';
import { startInstance } from '@web-foundation/testing/cluster';
import { expect, replayChunks, sdkChunks, test, waitForReplay, waitForReporting } from '@web-foundation/testing';

// Issue 28: the browser SDK loads after the page's largest paint, and still reports the page load's web vitals, which
// the browser measured before it arrived (packages/foundation/src/observability/browser/loader.ts,
// docs/observability.md).

/** Keeps the page invisible until a second after its load event, as a busy phone that shows its first view late. */
async function showFirstViewAfterLoad(page: Page) {
  await page.addInitScript(() => {
    const invisible = new CSSStyleSheet();
    invisible.replaceSync('html { opacity: 0 }');
    document.adoptedStyleSheets = [invisible];
    addEventListener('load', () => setTimeout(() => (document.adoptedStyleSheets = []), 1000));
  });
}

test("the SDK's code is fetched after the page's largest paint, even one that comes after the load event", async ({
  page,
}) => {
  await showFirstViewAfterLoad(page);
  await page.goto('/examples');
  await waitForReporting(page);
  const { largestPaint, loaded, sdkFetched } = await page.evaluate(
    (chunks) =>
      new Promise<{ largestPaint: number; loaded: number; sdkFetched: number }>((resolve) =>
        new PerformanceObserver((list) => {
          const fetched = performance
            .getEntriesByType('resource')
            .filter((e) => chunks.includes(new URL(e.name).pathname))
            .map((e) => e.startTime);
          resolve({
            largestPaint: list.getEntries().at(-1)!.startTime,
            loaded: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
            sdkFetched: Math.min(...fetched),
          });
        }).observe({ type: 'largest-contentful-paint', buffered: true }),
      ),
    [...sdkChunks()],
  );
  expect(largestPaint).toBeGreaterThan(loaded);
  expect(sdkFetched).toBeGreaterThanOrEqual(largestPaint);
});

test('the page-load transaction carries the web vitals the browser measured before the SDK started', async ({
  page,
  ingest,
  token,
}) => {
  // A banner pushes the page down once its largest paint is on screen, before the SDK has loaded: a layout shift. It
  // goes above React's root, not into it: on a busy machine the largest paint can come before hydration, and a node
  // React did not render made hydration fail (React error #418), re-render the page and lose the shift.
  await page.addInitScript(() => {
    new PerformanceObserver((_, observer) => {
      observer.disconnect();
      const carrier = (globalThis as unknown as { __SENTRY__?: Record<string, unknown> }).__SENTRY__;
      (globalThis as Record<string, unknown>).__sdkAtShift = Object.values(carrier ?? {}).some((v) =>
        (v as { defaultCurrentScope?: { getClient(): unknown } })?.defaultCurrentScope?.getClient(),
      );
      const banner = document.createElement('p');
      banner.textContent = 'A late banner';
      banner.style.height = '120px';
      document.body.prepend(banner);
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  // A segment of the test's own: the page load is found by its address.
  const path = `/examples/${token}`;
  const sent = ingest.waitForTransaction(
    (t) => t.contexts?.trace?.op === 'pageload' && t.request?.url === `${appOrigin}${path}`,
  );
  await page.goto(path);
  await waitForReporting(page);
  expect(await page.evaluate(() => (globalThis as Record<string, unknown>).__sdkAtShift)).toBe(false);

  const pageLoad = await sent;
  const value = (name: string) => pageLoad.measurements?.[name]?.value;
  for (const name of ['ttfb', 'fcp', 'lcp']) expect(value(name), name).toBeGreaterThan(0);
  expect(value('lcp')).toBeGreaterThanOrEqual(value('fcp')!);
  expect(value('cls')).toBeGreaterThan(0);
});

test('the start page’s page load has no resource spans unless the build asked for them, and keeps the rest', async ({
  page,
  ingest,
}) => {
  // NEXT_PUBLIC_SENTRY_RESOURCE_SPANS is unset in the tests' build: a span per fetched file would cost the page load's
  // ending task about 4 ms each on a slow phone (packages/foundation/src/observability/options.ts).
  const sent = ingest.waitForTransaction((t) => t.transaction === '/' && t.contexts?.trace?.op === 'pageload');
  await page.goto('/');
  await waitForReporting(page);

  const pageLoad = await sent;
  const ops = new Set(pageLoad.spans?.map((span) => span.op));
  expect([...ops].filter((op) => op?.startsWith('resource.'))).toEqual([]);
  for (const op of ['browser.request', 'browser.response', 'browser.dom_content_loaded_event', 'browser.paint']) {
    expect(ops, op).toContain(op);
  }
  for (const name of ['ttfb', 'fcp', 'lcp']) expect(pageLoad.measurements?.[name]?.value, name).toBeGreaterThan(0);
});

test('a build with NEXT_PUBLIC_SENTRY_RESOURCE_SPANS=1 sends the page load with its resource spans', async ({
  page,
  ingest,
}) => {
  // The next release's build turns them on (packages/testing/src/e2e-env.mts, nextReleaseBuildEnv).
  const next = await startInstance(nextReleaseBuildEnv.NEXT_DIST_DIR);
  try {
    const sent = ingest.waitForTransaction(
      (t) => t.contexts?.trace?.op === 'pageload' && t.request?.url === `${next.origin}/`,
    );
    await page.goto(`${next.origin}/`);
    const ops = new Set((await sent).spans?.map((span) => span.op));
    expect(ops).toContain('resource.script');
    expect(ops).toContain('browser.paint');
  } finally {
    await next.stop();
  }
});

test('a visit that leaves a second after its load still sends its page load', async ({ page, ingest, token }) => {
  // Issue 56: the SDK starts after the largest paint, when the page is idle, on every visit; leaving ends the page load
  // (the SDK's `pagehide`), and it is sent at once, not in a later task the leaving page would never run.
  const path = `/examples/${token}`;
  const sent = ingest.waitForTransaction(
    (t) => t.contexts?.trace?.op === 'pageload' && t.request?.url === `${appOrigin}${path}`,
  );
  await page.goto(path);
  await page.waitForTimeout(1000); // the visit: one second after the load event, the visitor leaves
  await page.goto('about:blank');
  const pageLoad = await sent;
  for (const name of ['ttfb', 'fcp', 'lcp']) expect(pageLoad.measurements?.[name]?.value, name).toBeGreaterThan(0);
});

test("replay's chunk is fetched only once the page-load transaction has ended", async ({ page }) => {
  await page.goto('/examples');
  await waitForReporting(page);
  // The page load ends a second (its idle time-out) after its last activity at the earliest: time enough to listen.
  await page.evaluate(() => {
    type Span = { attributes: Record<string, unknown>; parent_span_id?: string };
    type Client = { on(hook: 'spanEnd', callback: (span: { getSpanJSON?(): Span }) => void): void };
    const carrier = (
      globalThis as unknown as { __SENTRY__?: Record<string, { defaultCurrentScope?: { getClient(): Client } }> }
    ).__SENTRY__;
    const client = Object.values(carrier ?? {})
      .find((v) => v?.defaultCurrentScope?.getClient())!
      .defaultCurrentScope!.getClient();
    client.on('spanEnd', (span) => {
      const json = span.getSpanJSON?.();
      if (json?.attributes['sentry.op'] === 'pageload' && !json.parent_span_id)
        (globalThis as Record<string, unknown>).__pageLoadEnded = performance.now();
    });
  });
  await waitForReplay(page);
  const { ended, fetched } = await page.evaluate(
    (chunks) => ({
      ended: (globalThis as Record<string, unknown>).__pageLoadEnded as number | undefined,
      fetched: Math.min(
        ...performance
          .getEntriesByType('resource')
          .filter((entry) => chunks.includes(new URL(entry.name).pathname))
          .map((entry) => entry.startTime),
      ),
    }),
    [...replayChunks()],
  );
  expect(ended).toBeDefined();
  expect(fetched).toBeGreaterThan(ended!);
});
