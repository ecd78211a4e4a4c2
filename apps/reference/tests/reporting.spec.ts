import { randomBytes } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import type { ErrorEvent, Event } from '@sentry/core';
import { compileHint } from '@web-foundation/foundation/compile-hints';
import { appOrigin, ingestOrigin } from '@web-foundation/testing/env';
import { type IngestClient, replayIdOf, thrownException } from '@web-foundation/testing/ingest';
import {
  browserClientOptions,
  gotoWithRequestId,
  expect,
  installedIntegrations,
  recordCspViolations,
  replayChunks,
  sdkChunks,
  test,
  throwInPage,
  waitForReplay,
  waitForReporting,
} from '@web-foundation/testing';

// Spec §1, §2, §7, §8, §9: what reaches the error reporter, proven by the envelopes the SDK sends.

const statusOf = (t: Event) =>
  (t.contexts?.trace?.data as Record<string, unknown> | undefined)?.['http.response.status_code'];

test('the browser SDK runs with the spec values', async ({ page }) => {
  await page.goto('/examples');
  const options = await browserClientOptions(page);
  expect(options).toMatchObject({
    tracesSampleRate: 1,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1,
    maxBreadcrumbs: 100,
    environment: 'production',
    dsn: `http://public@127.0.0.1:${new URL(ingestOrigin).port}/1`,
  });
  expect(options.tunnel).toBeUndefined();
  const manifest = await page.evaluate(
    () => (globalThis as unknown as { _sentryRouteManifest?: string })._sentryRouteManifest,
  );
  expect(JSON.parse(manifest ?? 'null')).toEqual({ isrRoutes: [], dynamicRoutes: [], staticRoutes: [] });
});

test('a browser exception arrives, in environment production, at the DSN ingest', async ({ page, ingest, token }) => {
  await page.goto('/diagnostics');
  // Awaited, not collected by page.on('request'): the ingest can receive the envelope before Playwright reports the
  // request, and an array read then is still empty.
  const sent = page.waitForRequest((r) => r.method() === 'POST' && !!r.postDataBuffer()?.includes(token));
  const reported = ingest.waitForError((e) => thrownException(e) === `browser failure ${token}`);
  await throwInPage(page, `browser failure ${token}`);
  const event = await reported;
  expect(event.environment).toBe('production');
  expect(event.release).toMatch(/^[0-9a-f]{40}$|\w/);
  expect((await sent).url().startsWith(`${ingestOrigin}/api/1/envelope/`)).toBe(true);
});

test('the buttons on /diagnostics are reported: event handler and API route', async ({ page, ingest }) => {
  await page.goto('/diagnostics');
  const handlerError = ingest.waitForError((e) => thrownException(e).includes('thrown in a browser event handler'));
  await page.getByRole('button', { name: 'Throw in the browser' }).click();
  await handlerError;
  const routeError = ingest.waitForError((e) => thrownException(e).includes('thrown in an API route'));
  await page.getByRole('button', { name: 'Call an API route that throws' }).click();
  await expect(page.getByRole('status')).toHaveText('The API route answered 500.');
  await routeError;
});

test('errors raised before the SDK has loaded are held and reported as the global handlers would', async ({
  page,
  ingest,
  token,
}) => {
  const thrownEarly = ingest.waitForError((e) => thrownException(e) === `early throw ${token}`);
  const rejectedEarly = ingest.waitForError((e) => thrownException(e) === `early rejection ${token}`);
  // The app's scripts have run by DOMContentLoaded; the SDK loads only after the load event.
  await page.addInitScript((t) => {
    addEventListener('DOMContentLoaded', () => {
      const carrier = (globalThis as unknown as { __SENTRY__?: Record<string, { defaultCurrentScope?: unknown }> })
        .__SENTRY__;
      (globalThis as Record<string, unknown>).__sdkBeforeErrors = Object.values(carrier ?? {}).some((v) =>
        (v?.defaultCurrentScope as { getClient?(): unknown } | undefined)?.getClient?.(),
      );
      setTimeout(() => {
        throw new Error(`early throw ${t}`);
      });
      void Promise.reject(new Error(`early rejection ${t}`));
    });
  }, token);
  await page.goto('/examples');
  expect(await page.evaluate(() => (globalThis as Record<string, unknown>).__sdkBeforeErrors)).toBe(false);
  const [thrown, rejected] = await Promise.all([thrownEarly, rejectedEarly]);
  expect(thrown.exception?.values?.at(-1)?.mechanism).toMatchObject({
    handled: false,
    type: expect.stringContaining('onerror'),
  });
  expect(rejected.exception?.values?.at(-1)?.mechanism).toMatchObject({
    handled: false,
    type: expect.stringContaining('onunhandledrejection'),
  });
  expect(thrown.exception?.values?.at(-1)?.stacktrace?.frames?.length).toBeGreaterThan(0);
});

test('an unhandled promise rejection with an Error is reported', async ({ page, ingest, token }) => {
  await page.goto('/diagnostics');
  const reported = ingest.waitForError((e) => thrownException(e) === `rejected ${token}`);
  await page.evaluate((m) => void Promise.reject(new Error(m)), `rejected ${token}`);
  const event = await reported;
  expect(event.exception?.values?.at(-1)?.mechanism?.type).toContain('onunhandledrejection');
});

test('a 60-frame error arrives with 50 frames', async ({ page, ingest, token }) => {
  await page.goto('/diagnostics');
  const reported = ingest.waitForError((e) => thrownException(e) === `deep ${token}`);
  await page.evaluate((m) => {
    const deep = (n: number): number => {
      if (n === 0) throw new Error(m);
      return deep(n - 1) + 1;
    };
    setTimeout(() => deep(60));
  }, `deep ${token}`);
  const event = await reported;
  expect(event.exception?.values?.at(-1)?.stacktrace?.frames).toHaveLength(50);
});

test('events whose first exception says "Request failed" or "AbortError" are dropped; mentions elsewhere are not', async ({
  page,
  ingest,
  token,
}) => {
  await page.goto('/diagnostics');
  const control = ingest.waitForError((e) => thrownException(e) === `Checkout broke ${token}`);
  await throwInPage(page, `Request failed with status code 502 ${token}`);
  await throwInPage(page, `AbortError: signal is aborted ${token}`);
  await page.evaluate((t) => {
    const error = new Error(`Checkout broke ${t}`);
    (error as Error & { detail: string }).detail = 'after a Request failed and an AbortError';
    setTimeout(() => {
      throw error;
    });
  }, token);
  await control;
  await ingest.expectNone<ErrorEvent>(
    'event',
    (e) => JSON.stringify(e).includes(token) && !thrownException(e).startsWith('Checkout'),
    { withinMs: 1500 },
  );
});

test('generic browser noise is ignored', async ({ page, ingest, token }) => {
  await page.goto('/diagnostics');
  const control = ingest.waitForError((e) => thrownException(e) === `control ${token}`);
  await throwInPage(page, 'ResizeObserver loop limit exceeded');
  await throwInPage(page, 'ResizeObserver loop completed with undelivered notifications.');
  await page.evaluate((t) => void Promise.reject(`plain string ${t}`), token);
  await page.evaluate((t) => void Promise.reject({ code: t }), token);
  await throwInPage(page, `control ${token}`);
  await control;
  await ingest.expectNone<ErrorEvent>(
    'event',
    (e) =>
      /ResizeObserver|Non-Error promise rejection|Object captured as promise rejection/.test(
        JSON.stringify(e.exception),
      ),
    { withinMs: 1500 },
  );
});

test('server errors are reported from getServerSideProps, with the event id on the 500 page and the request id as a tag', async ({
  page,
  ingest,
}) => {
  const requestId = crypto.randomUUID();
  const reported = ingest.waitForError((e) => e.tags?.request_id === requestId);
  const response = await gotoWithRequestId(page, '/diagnostics/ssr-error', requestId);
  expect(response?.status()).toBe(500);
  const eventId = await page.getByTestId('event-id').textContent();
  expect(eventId).toMatch(/^[0-9a-f]{32}$/);
  const event = await reported;
  expect(event.event_id).toBe(eventId);
  expect(thrownException(event)).toBe('Diagnostics: an exception thrown in getServerSideProps');
  expect(event.environment).toBe('production');
});

test('an API route that throws is reported with its request id', async ({ request, ingest }) => {
  const requestId = crypto.randomUUID();
  const reported = ingest.waitForError((e) => e.tags?.request_id === requestId);
  const response = await request.get('/api/diagnostics/server-error', { headers: { 'x-request-id': requestId } });
  expect(response.status()).toBe(500);
  const event = await reported;
  expect(thrownException(event)).toBe('Diagnostics: an exception thrown in an API route');
});

test('the same error in five requests at once is reported five times, once per request', async ({
  request,
  ingest,
}) => {
  // Each request that fails is an occurrence an operator counts (event volume, alerts). The SDK's Dedupe, a server
  // default since 11.5, dropped an event identical to the one before it, whichever request it came from.
  const requestIds = Array.from({ length: 5 }, () => crypto.randomUUID());
  const reported = requestIds.map((id) => ingest.waitForError((e) => e.tags?.request_id === id));
  const responses = await Promise.all(
    requestIds.map((id) => request.get('/api/diagnostics/server-error', { headers: { 'x-request-id': id } })),
  );
  expect(responses.map((r) => r.status())).toEqual([500, 500, 500, 500, 500]);
  for (const event of await Promise.all(reported))
    expect(thrownException(event)).toBe('Diagnostics: an exception thrown in an API route');
});

test('an exception in the proxy is reported, with its 500 transaction whether the answer is compressed or not', async ({
  request,
  ingest,
}) => {
  // Each request starts its own trace, so that its transaction can be told apart. A browser always asks for gzip; Next
  // then set the response's status to 404 after it had sent the 500, and the SDK dropped the transaction as a 404.
  for (const encoding of ['gzip', 'identity']) {
    const traceId = randomBytes(16).toString('hex');
    const error = ingest.waitForError(
      (e) =>
        e.contexts?.trace?.trace_id === traceId &&
        thrownException(e) === 'Diagnostics: an exception thrown in the proxy',
    );
    const transaction = ingest.waitForTransaction(
      (t) => t.contexts?.trace?.trace_id === traceId && statusOf(t) === 500,
    );
    const response = await request.get('/diagnostics/proxy-error', {
      headers: { 'Accept-Encoding': encoding, 'sentry-trace': `${traceId}-${randomBytes(8).toString('hex')}-1` },
    });
    expect(response.status()).toBe(500);
    expect(response.headers()['content-encoding']).toBe(encoding === 'gzip' ? 'gzip' : undefined);
    await Promise.all([error, transaction]);
  }
});

test('a client-side render exception is reported', async ({ page, ingest }) => {
  await page.goto('/diagnostics');
  const reported = ingest.waitForError((e) => thrownException(e).includes('thrown while rendering in the browser'));
  await page.getByRole('button', { name: 'Throw while rendering' }).click();
  await expect(page.getByTestId('error-page')).toBeVisible();
  await reported;
});

test('framework redirects and 404s are not reported; a real 500 is', async ({ page, request, ingest, token }) => {
  const serverError = ingest.waitForTransaction(
    (t) => t.transaction === 'GET /diagnostics/ssr-error' && statusOf(t) === 500,
  );
  const pageload = ingest.waitForTransaction(
    (t) => t.transaction === '/examples' && t.contexts?.trace?.op === 'pageload',
  );
  const redirect = await request.get('/examples/moved', { maxRedirects: 0 });
  expect(redirect.status()).toBe(307);
  expect((await request.get(`/no/such/${token}`)).status()).toBe(404);
  expect((await request.get(`/api/no-such-${token}`)).status()).toBe(404);
  await page.goto(`/no/such/${token}`);
  await page.goto('/examples');
  expect((await request.get('/diagnostics/ssr-error')).status()).toBe(500);
  await Promise.all([serverError, pageload]);
  await ingest.expectNone<Event>(
    'transaction',
    (t) => statusOf(t) === 404 || t.transaction === '/404' || JSON.stringify(t).includes(token),
    { withinMs: 2000 },
  );
  await ingest.expectNone<ErrorEvent>(
    'event',
    (e) => JSON.stringify(e).includes(token) || /NEXT_REDIRECT|moved/.test(JSON.stringify(e)),
    { withinMs: 500 },
  );
});

test('trace headers go to same-origin requests only', async ({ page }) => {
  await page.goto('/examples');
  await waitForReporting(page);
  const sent = new Map<string, Record<string, string>>();
  page.on('request', (r) => sent.set(new URL(r.url()).pathname, r.headers()));
  await page.evaluate(async (cross) => {
    await fetch('/api/health');
    await fetch(`${cross}/__ingest/health`);
  }, ingestOrigin);
  expect(sent.get('/api/health')?.['sentry-trace']).toMatch(/^[0-9a-f]{32}-[0-9a-f]{16}(-[01])?$/);
  expect(sent.get('/api/health')?.['baggage']).toContain('sentry-environment=production');
  // W3C Trace Context beside them, naming the same trace and span (issue 29).
  const [traceId, spanId] = sent.get('/api/health')!['sentry-trace']!.split('-');
  expect(sent.get('/api/health')?.['traceparent']).toMatch(new RegExp(`^00-${traceId}-${spanId}-0[01]$`));
  expect(sent.get('/__ingest/health')?.['sentry-trace']).toBeUndefined();
  expect(sent.get('/__ingest/health')?.['baggage']).toBeUndefined();
  expect(sent.get('/__ingest/health')?.['traceparent']).toBeUndefined();
});

/** Raises `message` in the page; returns the bodies of the recordings its error's replay sent, as they arrived. */
async function replayOfError(page: Page, ingest: IngestClient, message: string): Promise<Buffer[]> {
  const reported = ingest.waitForError((e) => thrownException(e) === message);
  await throwInPage(page, message);
  const replayId = replayIdOf(await reported);
  expect(replayId).toMatch(/^[0-9a-f]{32}$/);
  // The replay id is made by the browser's SDK as the page starts recording, and a session sampled from its start sends
  // its replay before the error names the id: the wait looks back to the test's start.
  const replayed = (r: Event) => (r as Event & { replay_id?: string }).replay_id === replayId;
  await ingest.waitForReplay(replayed, { from: 'test start' });
  const recordings = await ingest.items('replay_recording');
  expect(recordings.length).toBeGreaterThan(0);
  return recordings.map((item) => {
    const raw = Buffer.from(item.binary ?? '', 'base64');
    return raw.subarray(raw.indexOf(0x0a) + 1);
  });
}

test('a session that hits an error is replayed, with text masked', async ({ page, ingest, token }) => {
  await page.goto('/diagnostics');
  await waitForReplay(page);
  const text = (await replayOfError(page, ingest, `replayed ${token}`))
    .map((body) => {
      try {
        return inflateSync(body).toString('utf8');
      } catch {
        return body.toString('utf8');
      }
    })
    .join('\n');
  expect(text).toContain('***');
  expect(text).not.toContain('Each button raises an error on purpose');
});

test('replay compresses its recording in a worker served from the app, under the CSP', async ({
  page,
  ingest,
  token,
}) => {
  const violations = await recordCspViolations(page);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await page.goto('/diagnostics');
  await waitForReplay(page);
  for (const body of await replayOfError(page, ingest, `compressed ${token}`)) {
    // Deflated by the worker: the SDK falls back to plain JSON when its worker cannot start.
    expect(() => inflateSync(body)).not.toThrow();
  }
  expect(workers).toHaveLength(1);
  expect(workers[0]).toMatch(new RegExp(`^${new URL(page.url()).origin}/_next/static/media/worker-bundler\\.`));
  expect(violations).toEqual([]);
});

test("the SDK's chunks begin with V8's compile hint, the page's own scripts as Next built them", async ({
  request,
}) => {
  const html = await (await request.get('/examples')).text();
  const firstLoad = [...html.matchAll(/<script[^>]* src="([^"]+)"/g)].map(
    ([, src = '']) => new URL(src, appOrigin).pathname,
  );
  const hinted = async (path: string) => (await (await request.get(path)).text()).startsWith(compileHint);
  for (const chunk of [...sdkChunks(), ...replayChunks()]) expect(await hinted(chunk), chunk).toBe(true);
  expect(firstLoad.length).toBeGreaterThan(0);
  for (const script of firstLoad) expect(await hinted(script), script).toBe(false);
});

test('a production build serves no source maps', async ({ page, request }) => {
  await page.goto('/examples');
  const scripts = await page.evaluate(() => [...document.scripts].map((s) => s.src).filter(Boolean));
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    const body = await (await request.get(script)).text();
    expect(body).not.toContain('sourceMappingURL=');
    expect((await request.get(`${new URL(script).pathname}.map`)).status()).toBe(404);
  }
});

test('the browser runs the integrations the spec and its users need, and none of those left out', async ({ page }) => {
  await page.goto('/examples');
  const needed = [
    'EventFilters',
    'GlobalHandlers',
    'LinkedErrors',
    'Breadcrumbs',
    'Dedupe',
    'HttpContext',
    'BrowserSession',
    'BrowserTracing',
    'SendTransactionsInNextTask',
  ];
  const leftOut = ['BrowserApiErrors', 'FunctionToString', 'CultureContext', 'ConversationId'];
  // Tracing and breadcrumbs start in tasks after init (packages/foundation/src/observability/browser/reporter.ts): wait
  // for the last of them.
  expect(await installedIntegrations(page, [...needed, ...leftOut], 'Breadcrumbs')).toEqual(needed);
});

test("the browser SDK ships without its debug logging (Sentry's __SENTRY_DEBUG__ flag)", async ({ page, request }) => {
  await page.goto('/examples');
  await waitForReplay(page);
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((url) => new URL(url).pathname.endsWith('.js')),
  );
  const bodies = await Promise.all(scripts.map(async (script) => (await request.get(script)).text()));
  // The SDK's own chunk and replay's are among them.
  expect(bodies.some((body) => body.includes('/envelope/'))).toBe(true);
  // Logged by @sentry/core for each integration it sets up, when its debug code is built in.
  for (const body of bodies) expect(body).not.toContain('Integration installed');
});
