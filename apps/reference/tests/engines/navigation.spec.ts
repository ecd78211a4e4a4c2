import { fullNavigationAfterMs, routeLoadTimeoutMs } from '@web-foundation/testing/foundation';
import { startInstance } from '@web-foundation/testing/cluster';
import { appOrigin, nextReleaseBuildEnv } from '@web-foundation/testing/env';
import type { ProxiedRequest, SiteProxy } from '@web-foundation/testing/services';
import { guaranteedWithinMs, routeScripts, sdkChunks } from '@web-foundation/testing';
import {
  clickToLeave,
  expect,
  fromSite,
  hydrated,
  markClickAndLeave,
  replayRecording,
  reportingStarted,
  test,
  type EngineTab,
} from '@web-foundation/testing/engines';

// Issue 30: the navigation guarantees (packages/foundation/src/client/navigationGuard.ts,
// docs/navigation-reliability.md) in each engine. A route whose assets fail or stall ends, within the spec's 3.8 s and
// the guard's margin, in exactly one full navigation to its target; a deploy lands in full on the new build. Firefox
// has the Navigation API, with which the guard refuses a navigation that repeats its own; WebKit has none, and the
// guard must keep its promise without it.

/** A request the page makes for one of these scripts as a script element (not a `<link rel=prefetch>`). */
const scriptOf = (scripts: Set<string>) => (r: ProxiedRequest) => r.destination === 'script' && scripts.has(r.path);

/** The build the page runs. */
const buildOfPage = () => (self as unknown as { __NEXT_DATA__?: { buildId: string } }).__NEXT_DATA__?.buildId;

/**
 * Clicks `link`, then expects the page at `path` reached by one document request, within the guard's bound from the
 * navigation's start. Returns the times from the hover, the click and the start to the page's leaving.
 */
async function clickIntoOneFullNavigation(tab: EngineTab, site: SiteProxy, link: string, path: string) {
  await markClickAndLeave(tab);
  const before = site.documents().length;
  await tab.click(link);
  // The guard's bound, then the target's load: 10 s is twice what both take on a loaded machine.
  await tab.waitFor(
    (p) => location.pathname === p && document.readyState === 'complete' && sessionStorage.getItem('leftAt') !== null,
    [path],
    { timeoutMs: 10_000, what: `the full navigation to ${path}` },
  );
  const waited = await clickToLeave(tab);
  test.info().annotations.push({ type: 'start to full navigation (ms)', description: String(waited.fromStart) });
  expect(site.documents().slice(before)).toEqual([path]);
  expect(waited.fromStart).toBeLessThanOrEqual(guaranteedWithinMs);
  return waited;
}

test('the guard’s path in this engine: with the Navigation API in Firefox, without it in WebKit', async ({
  tab,
  site,
  engine,
}) => {
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  expect(await tab.evaluate(() => 'navigation' in globalThis)).toBe(engine === 'firefox');
});

for (const sdk of ['before', 'after'] as const) {
  test.describe(`a pointer click ${sdk} the browser SDK and replay start`, () => {
    /** Opens `path`. Before: the SDK's chunks are held back. After: the SDK has started and replay records. */
    async function open(tab: EngineTab, site: SiteProxy, path: string) {
      await tab.goto(`${site.origin}${path}`);
      await tab.waitFor(hydrated, []);
      if (sdk === 'before') expect(await tab.evaluate(reportingStarted)).toBe(false);
      else await tab.waitFor(replayRecording, [], { timeoutMs: 15_000, what: 'replay to record' });
    }

    test('on a route whose load failed on hover and whose scripts then hang: one full navigation within 3.8 s and the margin', async ({
      tab,
      site,
      ingest,
    }) => {
      const scripts = routeScripts('/examples/new');
      const sdkHeld = sdk === 'before' ? sdkChunks() : new Set<string>();
      // The route's scripts fail while the link is pointed at, then hang, and the SDK's wait, until the full
      // navigation to it: the page it reaches loads everything.
      let phase: 'fail' | 'hold' | 'pass' = 'fail';
      site.setFault((r) => {
        if (r.document && r.path === '/examples/new') phase = 'pass';
        if (phase === 'pass') return undefined;
        return sdkHeld.has(r.path) ? 'hold' : scripts.has(r.path) ? phase : undefined;
      });
      await open(tab, site, '/examples');
      const link = 'main a[href="/examples/new"]';
      await tab.evaluate(() =>
        addEventListener(
          'error',
          (e) => e.target instanceof HTMLScriptElement && (document.body.dataset.scriptFailed = 'yes'),
          true,
        ),
      );
      // Pointed at, the link loads the route: that fails, and both the guard (a failed build asset) and Next's router
      // (a failed route) then make the click a full navigation.
      await tab.hover(link);
      await tab.waitFor(() => document.body.dataset.scriptFailed === 'yes', [], { what: 'the route’s script to fail' });
      phase = 'hold';
      if (sdk === 'before') expect(await tab.evaluate(reportingStarted)).toBe(false);

      await clickIntoOneFullNavigation(tab, site, link, '/examples/new');
      expect(await tab.evaluate(() => document.querySelector('h1')?.textContent)).toBe('Static route');
      await ingest.expectNone('event', fromSite(site), { withinMs: 1000 });
    });

    test('on a page that links one dynamic route twice: one full navigation within 3.8 s and the margin', async ({
      tab,
      site,
      ingest,
    }) => {
      const scripts = routeScripts('/examples/[id]');
      const sdkHeld = sdk === 'before' ? sdkChunks() : new Set<string>();
      // The route's script elements, and the SDK's, hang until the full navigation; the route's `<link rel=prefetch>`,
      // where the engine has them, succeed.
      let stalling = true;
      site.setFault((r) => {
        if (r.document && r.path === '/examples/2') stalling = false;
        return stalling && (sdkHeld.has(r.path) || scriptOf(scripts)(r)) ? 'hold' : undefined;
      });
      await tab.setViewport(800, 200);
      const held = site.next((r) => scriptOf(scripts)(r) && r.outcome === 'held');
      await open(tab, site, '/examples/same-route-twice');
      // Both links come into view and prefetch the route: a prefetch load of the route (Next's route loader) adds its
      // script, which hangs; the click joins that load.
      await tab.evaluate(() => document.querySelector('a[href="/examples/2"]')?.scrollIntoView());
      await held;
      if (sdk === 'before') expect(await tab.evaluate(reportingStarted)).toBe(false);

      const waited = await clickIntoOneFullNavigation(tab, site, 'a[href="/examples/2"]', '/examples/2');
      // The guard waits out Next's own time-out, counted from the load the hover joined, before it goes full.
      expect(waited.fromHover).toBeGreaterThanOrEqual(routeLoadTimeoutMs);
      expect(await tab.evaluate(() => document.querySelector('[data-testid="segment"]')?.textContent)).toBe('2');
      await ingest.expectNone('event', fromSite(site), { withinMs: 1000 });
    });
  });
}

test('a route whose scripts do not arrive within 3.8 s is loaded by one full navigation', async ({
  tab,
  site,
  ingest,
}) => {
  const scripts = routeScripts('/examples/new');
  let stalling = true;
  site.setFault((r) => {
    if (r.document && r.path === '/examples/new') stalling = false;
    return stalling && scripts.has(r.path) ? 'hold' : undefined;
  });
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  const waited = await clickIntoOneFullNavigation(tab, site, 'main a[href="/examples/new"]', '/examples/new');
  expect(waited.fromHover).toBeGreaterThanOrEqual(routeLoadTimeoutMs);
  await ingest.expectNone('event', fromSite(site), { withinMs: 1000 });
});

test('the guard goes full while the page data hangs, and the data then fails: still one document request', async ({
  tab,
  site,
  ingest,
}) => {
  // A getServerSideProps page whose data request hangs (Next has no time-out for it): the guard goes full after
  // 4 s. Its document answers late, and meanwhile the data request fails: Next's router, which does not check its
  // cancel on that path, then starts the same full navigation again.
  let stalling = true;
  site.setFault((r) => {
    if (r.document && r.path === '/examples/42') {
      stalling = false;
      site.failHeld((h) => h.path.endsWith('/examples/42.json'));
      return { delayMs: 500 };
    }
    return stalling && r.path.endsWith('/examples/42.json') ? 'hold' : undefined;
  });
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  const waited = await clickIntoOneFullNavigation(tab, site, 'main a[href="/examples/42"]', '/examples/42');
  expect(waited.fromClick).toBeGreaterThanOrEqual(fullNavigationAfterMs);
  expect(await tab.evaluate(() => document.querySelector('[data-testid="segment"]')?.textContent)).toBe('42');
  await ingest.expectNone('event', fromSite(site), { withinMs: 1000 });
});

test('a navigation that completes is left alone: no full navigation, also after the guard’s deadline', async ({
  tab,
  site,
}) => {
  await tab.goto(`${site.origin}/examples/same-route-twice`);
  await tab.waitFor(reportingStarted, [], { timeoutMs: 15_000 });
  await tab.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await tab.click('a[href="/examples/1"]');
  await tab.waitFor(() => document.querySelector('[data-testid="segment"]')?.textContent === '1', []);
  // The guard's timer, had it not been cleared, would fire now.
  await tab.evaluate((ms) => new Promise((done) => setTimeout(done, ms)), fullNavigationAfterMs);
  expect(await tab.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  expect(site.documents()).toEqual(['/examples/same-route-twice']);
});

test('a deploy between two clicks: each kind of page lands, in one full navigation, on the new build', async ({
  tab,
  site,
  ingest,
}) => {
  // An instance to start, then three pages to load twice each: a loaded machine takes more than the default 30 s.
  test.setTimeout(60_000);
  const next = await startInstance(nextReleaseBuildEnv.NEXT_DIST_DIR);
  try {
    const oldBuild = (await (await fetch(`${appOrigin}/api/health`)).json()) as { buildId: string };
    for (const path of ['/examples/42', '/examples/new', '/examples/generated']) {
      site.routeTo(appOrigin);
      await tab.goto(`${site.origin}/examples`);
      await tab.waitFor(hydrated, []);
      expect(await tab.evaluate(buildOfPage), path).toBe(oldBuild.buildId);
      // The load balancer now sends everything to the new release: the old build's data and scripts are gone.
      site.routeTo(next.origin);
      const before = site.documents().length;
      await tab.click(`main a[href="${path}"]`);
      await tab.waitFor(
        (p, id) =>
          location.pathname === p &&
          document.readyState === 'complete' &&
          document.querySelector('[data-testid="build-id"]')?.textContent === id,
        [path, nextReleaseBuildEnv.BUILD_ID],
        { what: `${path} from the new build` },
      );
      expect(site.documents().slice(before), path).toEqual([path]);
    }
    // A deploy is not a bug: no error event from this browser.
    await ingest.expectNone('event', fromSite(site), { withinMs: 1000 });
    // The page leaves before the new release's instance stops: a chunk it still loaded would fail to load then.
    await tab.goto('about:blank');
  } finally {
    await next.stop();
  }
});
