import type { Locator, Page, Request, Route } from '@playwright/test';
import { fullNavigationAfterMs, routeLoadTimeoutMs } from '@web-foundation/testing/foundation';
import {
  clickToLeave,
  expect,
  guaranteedWithinMs,
  markClickAndLeave,
  routeScripts,
  sdkChunks,
  test,
  waitForReplay,
  waitForReporting,
} from '@web-foundation/testing';

// Issue 16: a real pointer click on a link whose route's scripts stall ends, within the spec's route load time-out
// (3.8 s) and the guard's margin, in a full navigation to the target, once, with or without the browser SDK running
// (packages/foundation/src/client/navigationGuard.ts, docs/navigation-reliability.md).

/**
 * The route's script elements stall, as behind an instance that stopped answering, until the page starts a full
 * navigation to `target` (then everything loads). `scriptHeld` resolves at the first one that waits.
 */
async function stallScripts(page: Page, scripts: Set<string>, target: string) {
  let stalling = true;
  const held: Route[] = [];
  let onHeld: () => void = () => {};
  const scriptHeld = new Promise<void>((resolve) => (onHeld = resolve));
  const documents: Request[] = [];
  page.on('request', (r) => {
    if (!r.isNavigationRequest() || r.frame() !== page.mainFrame()) return;
    documents.push(r);
    if (new URL(r.url()).pathname === target) stalling = false;
  });
  await page.route(
    (url) => scripts.has(url.pathname),
    (route) => {
      if (!stalling || route.request().resourceType() !== 'script') return route.continue();
      held.push(route);
      onHeld();
    },
  );
  return { documents, scriptHeld, release: () => Promise.all(held.map((route) => route.abort().catch(() => {}))) };
}

/**
 * Makes the next prefetch of the route's scripts fail at once, and returns when it has. Chromium fetches a `<link
 * rel=prefetch>` where page.route does not see it; the DevTools protocol's URL blocking sees every kind of request.
 */
async function failPrefetch(page: Page, scripts: Set<string>, prefetch: () => Promise<void>): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const failed = new Promise<void>((resolve) =>
    cdp.on('Network.loadingFailed', (event) => event.blockedReason && resolve()),
  );
  await cdp.send('Network.setBlockedURLs', { urls: [...scripts].map((path) => `*${path}*`) });
  await prefetch();
  await failed;
  await cdp.send('Network.setBlockedURLs', { urls: [] });
  await cdp.detach();
}

/**
 * Holds the browser SDK's chunks until `release`: the click then comes before reporting and replay start. Only those
 * requests are intercepted; every other one goes to the server untouched. (Issue 21: re-fetching every chunk through
 * the test runner to look for the SDK left two of a document's scripts unanswered on a loaded machine, so that its
 * load event never came.)
 */
async function holdReporting(page: Page) {
  const chunks = sdkChunks();
  const held: Route[] = [];
  await page.route(
    (url) => chunks.has(url.pathname),
    (route) => void held.push(route),
  );
  return {
    started: () =>
      page.evaluate(() =>
        Object.values((globalThis as unknown as { __SENTRY__?: Record<string, unknown> }).__SENTRY__ ?? {}).some((v) =>
          (v as { defaultCurrentScope?: { getClient(): unknown } })?.defaultCurrentScope?.getClient(),
        ),
      ),
    release: () => Promise.all(held.map((route) => route.abort().catch(() => {}))),
  };
}

/** Clicks the link with the pointer, then waits for the full navigation to `path`, loaded. */
async function clickAndLand(page: Page, link: Locator, path: string) {
  await markClickAndLeave(page);
  await link.click();
  // The guard's bound, then the target's load: 10 s is twice what both take on a loaded machine.
  await page.waitForURL((url) => url.pathname === path, { timeout: 10_000 });
  const waited = await clickToLeave(page);
  // In the JSON report, for docs/navigation-reliability.md's figures.
  test.info().annotations.push({ type: 'start to full navigation (ms)', description: String(waited.fromStart) });
  return waited;
}

/**
 * Clicks `link` while the route's scripts are stalled, and expects one document load of `path` (the guard's and
 * Next's full navigations never both start one) within the guard's bound.
 */
async function clickIntoOneFullNavigation(
  page: Page,
  link: Locator,
  path: string,
  stall: Awaited<ReturnType<typeof stallScripts>>,
) {
  const before = stall.documents.length;
  const waited = await clickAndLand(page, link, path);
  expect(stall.documents.slice(before).map((r) => new URL(r.url()).pathname)).toEqual([path]);
  expect(waited.fromStart).toBeLessThanOrEqual(guaranteedWithinMs);
  return waited;
}

for (const sdk of ['before', 'after'] as const) {
  test.describe(`a pointer click ${sdk} the browser SDK and replay start`, () => {
    test.beforeEach(async ({ page }) => {
      // Links below the fold, so that their prefetch happens when the test scrolls to them, not before.
      await page.setViewportSize({ width: 800, height: 200 });
    });

    /** Opens `path`. Before: the SDK's chunk is held back. After: the SDK has started and replay records. */
    async function open(page: Page, path: string, hold: Awaited<ReturnType<typeof holdReporting>> | undefined) {
      await page.goto(path);
      if (hold) expect(await hold.started()).toBe(false);
      else await waitForReplay(page);
      return hold;
    }

    test('on a route whose prefetch failed and whose scripts then hang: a full navigation within 3.8 s and the margin', async ({
      page,
    }) => {
      const scripts = routeScripts('/examples/new');
      // Registered last, the stall sees the route's scripts first (page.route tries the newest handler first).
      const hold = sdk === 'before' ? await holdReporting(page) : undefined;
      const stall = await stallScripts(page, scripts, '/examples/new');
      await open(page, '/examples', hold);
      const link = page.getByRole('link', { name: /^A static route that beats/ });
      // Pointed at, the link loads the route (the index's links prefetch on intent): that fails, and both the
      // guard (a failed build asset) and Next's router (a failed route) then make the click a full navigation.
      await failPrefetch(page, scripts, () => link.hover());
      if (hold) expect(await hold.started()).toBe(false);

      await clickIntoOneFullNavigation(page, link, '/examples/new', stall);
      await expect(page.getByRole('heading', { level: 1, name: 'Static route' })).toBeVisible();
      await stall.release();
      await hold?.release();
    });

    test('on a page that links one dynamic route twice: a full navigation within 3.8 s and the margin', async ({
      page,
    }) => {
      const scripts = routeScripts('/examples/[id]');
      const hold = sdk === 'before' ? await holdReporting(page) : undefined;
      const stall = await stallScripts(page, scripts, '/examples/2');
      await open(page, '/examples/same-route-twice', hold);
      const link = page.getByRole('link', { name: 'The dynamic segment with id 2' });
      // Both links come into view and prefetch the route: the prefetch succeeds, then a prefetch load of the route
      // (Next's route loader) adds its script, which hangs; the click joins that load.
      await link.scrollIntoViewIfNeeded();
      await stall.scriptHeld;
      if (hold) expect(await hold.started()).toBe(false);

      const waited = await clickIntoOneFullNavigation(page, link, '/examples/2', stall);
      // The guard waits out Next's own time-out, counted from the load the hover joined, before it goes full.
      expect(waited.fromHover).toBeGreaterThanOrEqual(routeLoadTimeoutMs);
      await expect(page.getByTestId('segment')).toHaveText('2');
      await stall.release();
      await hold?.release();
    });
  });
}

test('a second full navigation to where the guard already goes is refused: one document request', async ({ page }) => {
  const scripts = routeScripts('/examples/new');
  const stall = await stallScripts(page, scripts, '/examples/new');
  // The target's document answers late, so that the second navigation comes while the first is still under way.
  await page.route(
    (url) => url.pathname === '/examples/new',
    async (route) => {
      if (route.request().isNavigationRequest()) await new Promise((done) => setTimeout(done, 500));
      await route.continue().catch(() => {});
    },
  );
  await page.goto('/examples');
  // The page is outdated, as after a deploy: one of the build's assets fails to load.
  await page.evaluate(
    () =>
      new Promise((failed) => {
        const script = document.createElement('script');
        script.onerror = failed;
        script.src = '/_next/static/chunks/gone-after-a-deploy.js';
        document.body.append(script);
      }),
  );
  // What Next's router does when a load fails after the guard went full: the same full navigation, again.
  await page.evaluate(() =>
    addEventListener(
      'beforeunload',
      () => setTimeout(() => (location.href = new URL('/examples/new', location.origin).href), 50),
      { once: true },
    ),
  );
  const before = stall.documents.length;
  await page.getByRole('link', { name: /^A static route that beats/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Static route' })).toBeVisible();
  expect(stall.documents.slice(before).map((r) => new URL(r.url()).pathname)).toEqual(['/examples/new']);
});

test('a navigation that completes is left alone: no full navigation, also after the guard’s deadline', async ({
  page,
}) => {
  await page.goto('/examples/same-route-twice');
  await waitForReporting(page);
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole('link', { name: 'The dynamic segment with id 1' }).click();
  await expect(page.getByTestId('segment')).toHaveText('1');
  // The guard's timer, had it not been cleared, would fire now.
  await page.evaluate((ms) => new Promise((done) => setTimeout(done, ms)), fullNavigationAfterMs);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});

/** The paths of the page data (`/_next/data/…`) the page asks for from now on, as they are asked. */
function pageDataRequestsOf(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/_next/data/')) paths.push(new URL(request.url()).pathname);
  });
  return paths;
}

test("the reference pages' index prefetches a route when its link is pointed at, not every route on load", async ({
  page,
}) => {
  const dataRequests = pageDataRequestsOf(page);
  await page.goto('/examples');
  // The SDK starts once the page is idle after its load: links in view would have been prefetched by then.
  await waitForReporting(page);
  expect(dataRequests).toEqual([]);
  await page.getByRole('link', { name: /generated at build time/ }).hover();
  await expect.poll(() => dataRequests).toEqual([expect.stringMatching(/\/examples\/generated\.json$/)]);
});

test("a prefetch does not ask the proxy about the link: pointing at a server-rendered page's link fetches no data", async ({
  page,
}) => {
  const dataRequests = pageDataRequestsOf(page);
  await page.goto('/examples');
  await waitForReporting(page);
  // getServerSideProps: its data is never prefetched; Next's default prefetch ('flexible') would still send a data
  // request through the proxy to learn what the proxy does with the link.
  await page.getByRole('link', { name: /^A dynamic segment/ }).hover();
  await page.getByRole('link', { name: /generated at build time/ }).hover();
  // The pages' prefetches start in the order they were pointed at: the first has asked whatever it would by the time
  // the second's data arrives.
  await expect.poll(() => dataRequests).toContainEqual(expect.stringMatching(/\/examples\/generated\.json$/));
  expect(dataRequests).toEqual([expect.stringMatching(/\/examples\/generated\.json$/)]);
});
