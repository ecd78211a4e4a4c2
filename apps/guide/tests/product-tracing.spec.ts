import { readFileSync } from 'node:fs';
import type { Event, SpanJSON } from '@sentry/core';
import pg from 'pg';
import {
  startBackend,
  type Backend,
  type BackendRequest,
  migrate,
  startPostgres,
  type Postgres,
} from '@web-foundation/testing/services';
import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import { testedApp } from '@web-foundation/testing/apps';
import { builtDir, e2eDistDir, serverDir } from '@web-foundation/testing/env';
import type { IngestClient } from '@web-foundation/testing/ingest';
import { expect, gotoWithRequestId, test } from '@web-foundation/testing';
import { testSettings as guideSettings } from './settings';

/** This app, as the tests build and serve it. */
const guide = testedApp('guide');

// Issue 29: a product's own calls are traced. Step 4 of docs/build-your-product.md (a page that calls the backend with
// fetch and queries Postgres, an API route that calls it with node:http) is built by `npm test` in the guide's app
// (apps/guide), and served here by an instance of its own against a
// backend and a Debian Postgres of this test's. The spans come from the SDK's diagnostics-channel injection, which an
// SDK or Next upgrade could drop silently: this test would fail.
const release = readFileSync(`${builtDir(e2eDistDir, guide.dir)}/BUILD_ID`, 'utf8').trim();

/**
 * A wait, created now, before the request is sent with this X-Request-Id: its transaction, and a finder for its spans.
 */
function tracedAs(ingest: IngestClient, requestId: string) {
  return ingest.waitForTransaction((t) => t.tags?.request_id === requestId).then(withSpans);
}

function withSpans(transaction: Event) {
  const spans = transaction.spans ?? [];
  const span = (op: string, description: string): SpanJSON => {
    const found = spans.find((s) => s.op === op && s.description === description);
    const all = JSON.stringify(spans.map((s) => `${s.op} ${s.description}`));
    if (!found) throw new Error(`No ${op} span "${description}" in ${transaction.transaction}: ${all}`);
    return found;
  };
  return { transaction, root: transaction.contexts!.trace!, span };
}

/** The headers a backend received for one call: sentry-trace, traceparent and baggage, naming the call's span. */
function expectTraceHeaders(received: BackendRequest | undefined, transaction: Event, call: SpanJSON) {
  const traceId = transaction.contexts!.trace!.trace_id;
  expect(received?.headers['sentry-trace']).toBe(`${traceId}-${call.span_id}-1`);
  expect(received?.headers.traceparent).toBe(`00-${traceId}-${call.span_id}-01`);
  expect(String(received?.headers.baggage).split(',')).toEqual(
    expect.arrayContaining([
      `sentry-trace_id=${traceId}`,
      'sentry-public_key=public',
      'sentry-environment=production',
      `sentry-release=${release}`,
      'sentry-sampled=true',
    ]),
  );
}

let postgres: Postgres | undefined;
let backend: Backend | undefined;
let app: Instance | undefined;

test.afterEach(async () => {
  await app?.stop();
  await backend?.stop();
  await postgres?.stop();
  app = backend = postgres = undefined;
});

test("a page's fetch and queries and an API route's node:http call are spans under the code that made them; the backend receives the trace; a failed call shows its 503", async ({
  page,
  ingest,
}) => {
  test.setTimeout(60_000);
  [postgres, backend] = await Promise.all([
    startPostgres(),
    startBackend({ '/greeting': { greeting: 'Hello from the backend' }, '/stock': { apples: 3 } }),
  ]);
  // The table comes from the guide's migration, applied by the guide's runner, as a deploy would before start.
  migrate(postgres.url, guide.dir);
  const client = new pg.Client(postgres.url);
  await client.connect();
  await client.query("INSERT INTO products (name) VALUES ('pears'), ('apples')");
  await client.end();
  app = await startInstance(e2eDistDir, serverDir(e2eDistDir, guide.dir), {
    ...guideSettings,
    BACKEND_URL: backend.origin,
    DATABASE_URL: postgres.url,
  });
  const received = (path: string) => backend!.received.filter((r) => r.path === path).at(-1);

  await test.step('the page: fetch, the pool, the query and a span of its own, under getServerSideProps', async () => {
    const requestId = crypto.randomUUID();
    const traced = tracedAs(ingest, requestId);
    const response = await gotoWithRequestId(page, `${app!.origin}/hello-backend`, requestId);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'Hello from the backend' })).toBeVisible();
    await expect(page.getByRole('listitem')).toHaveText(['apples', 'pears']);
    const { transaction, root, span } = await traced;
    expect(transaction.transaction).toBe('GET /hello-backend');
    const dataFetching = span('function.nextjs', 'getServerSideProps /hello-backend');
    expect(dataFetching.parent_span_id).toBe(root.span_id);
    const fetchCall = span('http.client', `GET ${backend!.origin}/greeting`);
    expect(fetchCall).toMatchObject({ parent_span_id: dataFetching.span_id, status: 'ok' });
    expect(fetchCall.data).toMatchObject({ 'http.response.status_code': 200, 'sentry.origin': 'auto.http.node_fetch' });
    // The pool's connect, and the client's first connection under it (the pool had none open yet).
    const poolConnect = span('db', 'pg-pool.connect');
    expect(poolConnect.parent_span_id).toBe(dataFetching.span_id);
    expect(span('db', 'pg.connect').parent_span_id).toBe(poolConnect.span_id);
    const query = span('db', 'SELECT name FROM products ORDER BY name');
    expect(query.parent_span_id).toBe(dataFetching.span_id);
    expect(query.data).toMatchObject({
      'db.system.name': 'postgresql',
      'db.query.text': 'SELECT name FROM products ORDER BY name',
      'db.namespace': 'postgres',
    });
    expect(span('function', 'format products').parent_span_id).toBe(dataFetching.span_id);
    expect(span('function.nextjs', 'render route (pages) /hello-backend').parent_span_id).toBe(root.span_id);
    expectTraceHeaders(received('/greeting'), transaction, fetchCall);
  });

  await test.step("the API route: node:http's call under the handler", async () => {
    const requestId = crypto.randomUUID();
    const traced = tracedAs(ingest, requestId);
    const response = await page.request.get(`${app!.origin}/api/hello-backend`, {
      headers: { 'x-request-id': requestId },
    });
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ stock: { apples: 3 } });
    const { transaction, root, span } = await traced;
    expect(transaction.transaction).toBe('GET /api/hello-backend');
    const handler = span('function.nextjs', 'executing api route (pages) /api/hello-backend');
    expect(handler.parent_span_id).toBe(root.span_id);
    const call = span('http.client', `GET ${backend!.origin}/stock`);
    expect(call).toMatchObject({ parent_span_id: handler.span_id, status: 'ok' });
    expect(call.data).toMatchObject({ 'http.response.status_code': 200, 'sentry.origin': 'auto.http.client' });
    expectTraceHeaders(received('/stock'), transaction, call);
  });

  await test.step('a backend that answers 503: each call shows it, and so do the page and the route', async () => {
    backend!.failWith(503);
    const [pageId, routeId] = [crypto.randomUUID(), crypto.randomUUID()];
    const [pageTraced, routeTraced] = [tracedAs(ingest, pageId), tracedAs(ingest, routeId)];
    const reported = ingest.waitForError((e) => e.tags?.request_id === pageId);
    const pageAnswer = await page.request.get(`${app!.origin}/hello-backend`, { headers: { 'x-request-id': pageId } });
    expect(pageAnswer.status()).toBe(500);
    const routeAnswer = await page.request.get(`${app!.origin}/api/hello-backend`, {
      headers: { 'x-request-id': routeId },
    });
    expect(routeAnswer.status()).toBe(502);
    for (const [traced, path] of [
      [pageTraced, '/greeting'],
      [routeTraced, '/stock'],
    ] as const) {
      const { root, span } = await traced;
      expect(root.status).toBe('internal_error');
      const call = span('http.client', `GET ${backend!.origin}${path}`);
      expect(call.status).toBe('unavailable');
      expect(call.data?.['http.response.status_code']).toBe(503);
    }
    // The page's error is reported in the same trace as the failed call.
    const error = await reported;
    expect(error.exception?.values?.at(-1)?.value).toBe('The backend answered 503 to GET /greeting');
    const { root } = await pageTraced;
    expect(error.contexts?.trace?.trace_id).toBe(root.trace_id);
  });
});
