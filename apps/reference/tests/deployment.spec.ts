import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page, Request, Response, Route } from '@playwright/test';
import { startInstance, startNginx, type Instance, type Nginx } from '@web-foundation/testing/cluster';
import { appOrigin, builtDir, e2eDistDir, nextReleaseBuildEnv, rebuildEnv } from '@web-foundation/testing/env';
import { startSiteProxy } from '@web-foundation/testing/services';
import {
  clickToLeave,
  expect,
  guaranteedWithinMs,
  markClickAndLeave,
  routeScripts,
  slowDownCpu,
  test,
} from '@web-foundation/testing';

// Issue 6: a rolling deploy behind a real nginx on loopback, and the route-loading failures it provokes.

const nextData = (page: Page) =>
  page.evaluate(() => (window as unknown as { __NEXT_DATA__: { buildId: string } }).__NEXT_DATA__);

/** Every response the page got, and every full (document) navigation it made. */
function watch(page: Page) {
  const responses: Response[] = [];
  const documents: Request[] = [];
  page.on('response', (r) => responses.push(r));
  page.on('request', (r) => r.isNavigationRequest() && r.frame() === page.mainFrame() && documents.push(r));
  return { responses, documents };
}

/** Error events the browser at `origin` reported: a deploy is not a bug, so there must be none. */
const errorsFrom = (origin: string) => (event: { request?: { url?: string } }) =>
  event.request?.url?.startsWith(origin) ?? false;

/** Every file under `dir`, with a digest of its bytes. */
function digests(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    out[path.slice(dir.length)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return out;
}

test('two builds of one commit, in different places, name and fill every asset alike', async () => {
  // `npm test` built this commit twice (build and "build (again)"), as two machines of a deploy would.
  const first = readFileSync(`${builtDir()}/BUILD_ID`, 'utf8');
  expect(readFileSync(`${builtDir(rebuildEnv.NEXT_DIST_DIR)}/BUILD_ID`, 'utf8')).toBe(first);
  const assets = digests(`${builtDir()}/static`);
  expect(Object.keys(assets).length).toBeGreaterThan(10);
  expect(digests(`${builtDir(rebuildEnv.NEXT_DIST_DIR)}/static`)).toEqual(assets);
  // The page-data paths carry the same build id.
  expect(Object.keys(assets).some((path) => path.includes(`/${first}/_buildManifest.js`))).toBe(true);
});

test.describe('a rolling deploy: the load balancer switches from the old build to the new one', () => {
  let old: Instance;
  let next: Instance;
  let nginx: Nginx;
  test.beforeAll(async () => {
    [old, next] = await Promise.all([startInstance(e2eDistDir), startInstance(nextReleaseBuildEnv.NEXT_DIST_DIR)]);
    nginx = await startNginx([old]);
  });
  test.afterAll(async () => {
    await nginx?.stop();
    await Promise.all([old?.stop(), next?.stop()]);
  });

  const targets = [
    { kind: 'a getServerSideProps page', link: /^A dynamic segment/, path: '/examples/42' },
    { kind: 'a static page', link: /^A static route that beats/, path: '/examples/new' },
    { kind: 'a getStaticProps page', link: /^Page data generated at build time/, path: '/examples/generated' },
  ];
  for (const target of targets) {
    test(`a client-side navigation to ${target.kind} lands, in full, on the new build`, async ({ page, ingest }) => {
      await nginx.route([old]);
      const { responses, documents } = watch(page);
      // The links are below the fold, so the router has not prefetched them when the deploy happens. (A route it
      // prefetched before the deploy opens client-side on the old build's code, which it already holds.)
      await page.setViewportSize({ width: 800, height: 200 });
      // Seen twice in full runs: a document of the new build here, served by nginx's old worker after route([old]);
      // route() now waits for that worker to exit. The status and upstreams say what happened should it come again.
      const index = await page.goto(`${nginx.origin}/examples`);
      expect(index?.status(), JSON.stringify(nginx.log().slice(-3))).toBe(200);
      const oldBuild = (await old.health()).buildId;
      expect((await nextData(page)).buildId).toBe(oldBuild);

      await nginx.route([next]);
      const before = documents.length;
      await page.getByRole('link', { name: target.link }).click();

      // The user lands on the target page, rendered by the new build, through one full navigation.
      await expect(page).toHaveURL(`${nginx.origin}${target.path}`);
      await expect(page.getByTestId('build-id')).toHaveText(nextReleaseBuildEnv.BUILD_ID);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(page.getByText(/unexpected error|client-side exception/i)).toHaveCount(0);
      await page.waitForLoadState('load');
      expect((await nextData(page)).buildId).toBe(nextReleaseBuildEnv.BUILD_ID);
      // Full navigations only (the router's and ours may both start one; the browser keeps the last).
      expect(documents.length).toBeGreaterThan(before);
      expect(new Set(documents.slice(before).map((r) => new URL(r.url()).pathname))).toEqual(new Set([target.path]));

      // What provoked it: the old build's data or scripts, which the new build answers with 404.
      const missing = responses.filter((r) => r.status() === 404 && r.url().includes(oldBuild));
      expect(missing.length).toBeGreaterThan(0);
      expect(responses.filter((r) => r.status() === 404 && !r.url().includes(oldBuild)).map((r) => r.url())).toEqual(
        [],
      );
      // A deploy is not a bug: no error event from this browser reaches the error reporter.
      await ingest.expectNone('event', errorsFrom(nginx.origin), { withinMs: 2000 });
    });
  }
});

// Also at 4× CPU slowdown (a slow phone, a loaded CI machine), where Next's own time-out starts late or never.
for (const cpuSlowdown of [1, 4]) {
  test(`a route whose scripts do not arrive within 3.8 s is loaded by a full navigation${cpuSlowdown > 1 ? `, at ${cpuSlowdown}× CPU slowdown` : ''}`, async ({
    page,
    ingest,
  }) => {
    // An origin of its own in front of the suite's server, so that the error events of other tests cannot be
    // mistaken for this one's. (Not an instance of its own: starting one took 20 s of the test's 30 at a load of 20.)
    const site = await startSiteProxy(appOrigin);
    try {
      const { documents } = watch(page);
      const pageScripts = routeScripts('/examples/new');
      // The route's script elements hang (an instance that stopped answering) until the full navigation begins,
      // from before the index loads, so that no prefetch can load them first. (A `<link rel=prefetch>` of them is
      // fetched where page.route does not see it; the scripts are what waits.)
      let stalling = true;
      const held: Route[] = [];
      await page.route(
        (url) => pageScripts.has(url.pathname),
        (route) =>
          !stalling ? route.continue() : route.request().resourceType() === 'script' ? held.push(route) : route.abort(),
      );
      page.on('request', (r) => {
        if (r.isNavigationRequest() && new URL(r.url()).pathname === '/examples/new') stalling = false;
      });
      await page.goto(`${site.origin}/examples`);
      if (cpuSlowdown > 1) await slowDownCpu(page, cpuSlowdown);
      await markClickAndLeave(page);
      const before = documents.length;
      await page.getByRole('link', { name: /^A static route that beats/ }).click();
      // The guard's bound, then the target's load: 10 s is twice what both take on a loaded machine.
      await expect(page.getByRole('heading', { level: 1, name: 'Static route' })).toBeVisible({ timeout: 10_000 });
      const waited = await clickToLeave(page);
      test.info().annotations.push({ type: 'start to full navigation (ms)', description: String(waited.fromStart) });
      expect(documents.slice(before).map((r) => new URL(r.url()).pathname)).toEqual(['/examples/new']);
      expect(waited.fromHover).toBeGreaterThanOrEqual(3800);
      expect(waited.fromStart).toBeLessThanOrEqual(guaranteedWithinMs);
      await Promise.all(held.map((route) => route.abort().catch(() => {})));
      await ingest.expectNone('event', errorsFrom(site.origin), { withinMs: 1000 });
    } finally {
      await site.close();
    }
  });
}

test.describe('page-data retries (spec §4: during a server render, up to 3 attempts on server errors)', () => {
  /** Answers the first `failures` page-data requests for `path` with 503 (prefetches pass untouched). */
  async function failData(page: Page, path: string, failures: number) {
    const attempts: string[] = [];
    await page.route(
      (url) => url.pathname.startsWith('/_next/data/') && url.pathname.endsWith(`${path}.json`),
      async (route) => {
        if (route.request().headers()['purpose'] === 'prefetch') return route.continue();
        attempts.push(route.request().method());
        return attempts.length <= failures
          ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"unavailable"}' })
          : route.continue();
      },
    );
    return attempts;
  }

  test('a fallback page retries its page data until the server recovers', async ({ page, token }) => {
    // The first visit to a slug gets the fallback shell: its data is fetched by the first render after hydration.
    const path = `/examples/on-demand/${token}`;
    const attempts = await failData(page, path, 2);
    await page.goto(path);
    await expect(page.getByTestId('slug')).toHaveText(token);
    // Three GETs: two 503s, then the data. (A HEAD may follow: the router's check for a newer version.)
    expect(attempts.filter((method) => method === 'GET')).toEqual(['GET', 'GET', 'GET']);
  });

  test('it gives up after 3 attempts, and the user is told the page failed', async ({ page, token }) => {
    const path = `/examples/on-demand/${token}`;
    const attempts = await failData(page, path, Infinity);
    await page.goto(path);
    // Spec §7: the generic error page, with the client-exception text and a reference to quote.
    await expect(page.getByText('Application error: a client-side exception has occurred')).toBeVisible();
    await page.waitForTimeout(1000);
    expect(attempts).toEqual(['GET', 'GET', 'GET']);
  });

  test('a client-side navigation is not retried: one failure, then a full navigation', async ({ page }) => {
    const { documents } = watch(page);
    await page.goto('/examples');
    const attempts = await failData(page, '/examples/42', 1);
    const before = documents.length;
    await page.getByRole('link', { name: /^A dynamic segment/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dynamic segment' })).toBeVisible();
    expect(attempts).toEqual(['GET']);
    expect(documents.slice(before).map((r) => new URL(r.url()).pathname)).toEqual(['/examples/42']);
  });
});

test.describe('three instances of one build behind nginx, round-robin', () => {
  let instances: Instance[];
  let nginx: Nginx;
  test.beforeAll(async () => {
    instances = await Promise.all([0, 1, 2].map(() => startInstance()));
    nginx = await startNginx(instances);
  });
  test.afterAll(async () => {
    await nginx?.stop();
    await Promise.all((instances ?? []).map((instance) => instance.stop()));
  });

  test('every instance answers /api/health with the same build, and nginx spreads requests over all three', async () => {
    const builds = await Promise.all(instances.map((instance) => instance.health()));
    expect(new Set(builds.map((health) => health.buildId)).size).toBe(1);
    const mark = nginx.log().length;
    for (let i = 0; i < 9; i++) expect((await fetch(`${nginx.origin}/api/health`)).status).toBe(200);
    const used = nginx.log().slice(mark);
    expect(new Set(used.map((entry) => entry.upstream))).toEqual(
      new Set(instances.map((instance) => `127.0.0.1:${instance.port}`)),
    );
  });

  test('a browser session across many pages keeps its trace and session, also when an instance is killed', async ({
    page,
    ingest,
  }) => {
    test.setTimeout(90_000);
    const { responses, documents } = watch(page);
    /** Trace id of every page-data request the browser sent (the trace it continues on the server). */
    const dataTraces: { path: string; traceId: string }[] = [];
    page.on('request', (r) => {
      const trace = r.headers()['sentry-trace'];
      if (new URL(r.url()).pathname.startsWith('/_next/data/') && r.headers()['purpose'] !== 'prefetch' && trace) {
        dataTraces.push({ path: new URL(r.url()).pathname, traceId: trace.split('-')[0]! });
      }
    });
    const replaySession = () =>
      page.evaluate(() => (JSON.parse(sessionStorage.getItem('sentryReplaySession') ?? '{}') as { id?: string }).id);

    await page.goto(`${nginx.origin}/examples`);
    await expect.poll(replaySession, { timeout: 10_000 }).toMatch(/^[0-9a-f]{32}$/);
    const session = await replaySession();

    const tour = [
      { link: /^A dynamic segment/, heading: 'Dynamic segment' },
      { link: /^A static route that beats/, heading: 'Static route' },
      { link: /^Page data generated at build time/, heading: 'Static page data' },
      { link: /^Page data generated on first request/, heading: 'Page data generated on first request' },
      { link: /^A catch-all route/, heading: 'Catch-all route' },
      { link: /^Route announcer: a page with a title/, heading: undefined },
    ];
    const walk = async () => {
      for (const stop of tour) {
        await page.getByRole('link', { name: stop.link }).click();
        if (stop.heading) await expect(page.getByRole('heading', { level: 1, name: stop.heading })).toBeVisible();
        await page.getByRole('link', { name: 'Back to the reference pages' }).click();
        await expect(page.getByRole('heading', { level: 1, name: 'Reference pages' })).toBeVisible();
      }
    };

    await walk();
    // An instance dies mid-session (no drain: SIGKILL). nginx takes it out of rotation; the session goes on.
    const killed = instances[1]!;
    await killed.stop('SIGKILL');
    await walk();
    await page.reload();
    await walk();
    await page.goto(`${nginx.origin}/examples/7`);
    await expect(page.getByTestId('segment')).toHaveText('7');

    // No data or asset request failed; every page load succeeded.
    const failed = responses
      .filter((r) => new URL(r.url()).origin === nginx.origin && r.status() >= 400)
      .map((r) => `${r.status()} ${r.url()}`);
    expect(failed).toEqual([]);
    expect(documents.length).toBeGreaterThanOrEqual(3);
    // The killed instance served part of the session before it died, and nothing after.
    const log = nginx.log();
    expect(log.some((entry) => entry.upstream.endsWith(`:${killed.port}`) && entry.status === 200)).toBe(true);
    expect(log.filter((entry) => entry.status >= 500)).toEqual([]);

    // One replay session throughout, across instances, full loads and the failure.
    expect(await replaySession()).toBe(session);
    // Each navigation's trace continues on whichever instance answered its page data.
    expect(dataTraces.length).toBeGreaterThanOrEqual(3 * 4);
    // The browser makes each trace id as it navigates, and the test proves the server continues it: these waits look
    // back to the test's start.
    for (const { path, traceId } of dataTraces) {
      await ingest.waitForTransaction((t) => t.contexts?.trace?.trace_id === traceId, {
        from: 'test start',
        timeoutMs: 20_000,
      });
      expect(path).toMatch(/^\/_next\/data\//);
    }
  });
});
