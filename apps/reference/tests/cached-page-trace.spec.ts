import { connect } from 'node:net';
import type { Page } from '@playwright/test';
import type { Event } from '@sentry/core';
import { appOrigin } from '@web-foundation/testing/env';
import type { IngestClient } from '@web-foundation/testing/ingest';
import { memberWith, secret, stopAll, type Member } from './page-cache';
import { startRedis } from '@web-foundation/testing/services';
import { expect, test, waitForReporting } from '@web-foundation/testing';

// Issue 36, point 6: a cached page's meta tags carried the trace of the request that generated it. A request with
// `sentry-trace: …-0` and a baggage of its own choosing set every later visitor's trace: their page loads were dropped
// and would have named its environment, release and key. Issue 44, point 2: the rule judged the page by the URL the SDK
// built from the request's headers, so a render inside another request (the image optimizer's, the revalidation
// webhook's) or under another `X-Forwarded-Host` still wrote it. Point 8: a client that left mid-render cost a
// transaction for each span that ended after its request's.

const hostileTraceId = 'badc0ffee0ddf00dbadc0ffee0ddf00d';
const hostile = {
  'sentry-trace': `${hostileTraceId}-a1b2c3d4e5f60718-0`,
  baggage: [
    `sentry-trace_id=${hostileTraceId}`,
    'sentry-environment=evil',
    'sentry-release=evil',
    'sentry-public_key=evil',
    'sentry-sample_rate=0',
    'sentry-sampled=false',
    'sentry-sample_rand=0.999999',
  ].join(','),
};

/** A fallback route's page of the test's own, not generated yet. */
const freshSlugPage = (token: string, kind: string) =>
  `/examples/on-demand/${`${kind}-${token}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 64)}`;

const buildIdOf = async (origin: string) =>
  ((await (await fetch(`${origin}/api/health`)).json()) as { buildId: string }).buildId;

/**
 * What the next visitor of a page generated under the hostile trace gets: the page itself, without that trace, and a
 * page load of its own, sampled at the app's rate (1) and naming the app's own environment, release and key.
 */
async function expectOwnTraceForVisitors(page: Page, ingest: IngestClient, origin: string, path: string) {
  const html = await (await fetch(`${origin}${path}`)).text();
  // The generated page, not the fallback's shell: the request under the hostile trace rendered it.
  expect(html).toContain(`<code data-testid="slug">${path.split('/').at(-1)}</code>`);
  expect(html).not.toContain(hostileTraceId);
  expect(html).not.toContain('evil');
  expect(html).not.toMatch(/<meta name="(?:sentry-trace|baggage)"/);

  const onThisPage = (t: Event) =>
    t.contexts?.trace?.op === 'pageload' &&
    t.transaction === '/examples/on-demand/[slug]' &&
    JSON.stringify(t.request ?? {}).includes(path);
  const sent = ingest.waitForItem<Event>('transaction', onThisPage);
  await page.goto(`${origin}${path}`);
  await waitForReporting(page);
  const pageLoad = await sent;
  expect(pageLoad.payload.contexts?.trace?.trace_id).not.toBe(hostileTraceId);
  // The envelope names the app's own environment, release and key, as the event does.
  const header = pageLoad.envelopeHeader.trace as Record<string, string>;
  expect(header.environment).toBe(pageLoad.payload.environment);
  expect(header.release).toBe(pageLoad.payload.release);
  expect(header.public_key).toBe('public');
  expect(header.sampled).toBe('true');
  expect(JSON.stringify(pageLoad)).not.toContain('evil');
}

test('a page generated for a request with a hostile trace carries none: the next visitors trace their own page loads', async ({
  page,
  ingest,
  token,
}) => {
  const path = freshSlugPage(token, 'data');
  // A fallback route's page is generated, and cached, by the first request for its data.
  const generated = await fetch(`${appOrigin}/_next/data/${await buildIdOf(appOrigin)}${path}.json`, {
    headers: hostile,
  });
  expect(generated.status).toBe(200);
  await expectOwnTraceForVisitors(page, ingest, appOrigin, path);
});

test('the image optimizer renders no page for a hostile request: a page or page data as its source is refused', async ({
  page,
  ingest,
  token,
}) => {
  const path = freshSlugPage(token, 'image');
  const buildId = await buildIdOf(appOrigin);
  // Next renders a local source inside the /_next/image request: a page's data would generate and cache the page
  // there, and a stale ISR page would regenerate. The preload lets through only the build's own images.
  for (const source of [`/_next/data/${buildId}${path}.json`, path, '/examples/generated']) {
    const image = await fetch(`${appOrigin}/_next/image?url=${encodeURIComponent(source)}&w=64&q=75`, {
      headers: hostile,
    });
    expect(image.status, source).toBe(400);
  }
  // Not generated there: the page is still its fallback's shell.
  expect(await (await fetch(`${appOrigin}${path}`)).text()).toContain('"isFallback":true');
  expect((await fetch(`${appOrigin}/_next/data/${buildId}${path}.json`)).status).toBe(200);
  await expectOwnTraceForVisitors(page, ingest, appOrigin, path);
});

test('a page generated under a forwarded host that names another path carries no trace', async ({
  page,
  ingest,
  token,
}) => {
  const buildId = await buildIdOf(appOrigin);
  // The SDK builds the request's URL from X-Forwarded-Host: `a/b` made it another path, which no rule knew as cached.
  for (const [i, host] of ['a/b', 'x?', 'x#'].entries()) {
    const path = freshSlugPage(token, `host-${i}`);
    const generated = await fetch(`${appOrigin}/_next/data/${buildId}${path}.json`, {
      headers: { ...hostile, 'x-forwarded-host': host },
    });
    expect(generated.status).toBe(200);
    await expectOwnTraceForVisitors(page, ingest, appOrigin, path);
  }
});

test.describe('an instance with the revalidation webhook', () => {
  let members: Member[] = [];
  test.afterEach(() => stopAll(members));

  test("a page revalidated by a hostile webhook call carries none of the call's trace", async ({
    page,
    ingest,
    token,
  }) => {
    members = [await memberWith({})];
    const { origin } = members[0]!.instance;
    const path = freshSlugPage(token, 'webhook');
    const generatedAt = async () =>
      /generated at <time>([^<]+)</.exec(await (await fetch(`${origin}${path}`)).text())?.[1];
    expect((await fetch(`${origin}/_next/data/${await buildIdOf(origin)}${path}.json`)).status).toBe(200);
    const before = await generatedAt();
    // The webhook renders the page inside its own request: its caller's trace, or a new one of its own.
    const revalidated = await fetch(`${origin}/api/revalidate`, {
      method: 'POST',
      headers: { ...hostile, authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: JSON.stringify({ path }),
    });
    expect(revalidated.status).toBe(200);
    expect(await generatedAt()).not.toBe(before);
    await expectOwnTraceForVisitors(page, ingest, origin, path);
  });
});

test.describe('a client that leaves mid-render, with Redis', () => {
  let members: Member[] = [];
  test.afterEach(() => stopAll(members));

  test("costs one transaction: the render's late spans (cache.put, redis-*) are never sent on their own", async ({
    ingest,
    token,
  }) => {
    const redis = await startRedis();
    try {
      members = [await memberWith({ REDIS_URL: redis.url })];
      const { origin } = members[0]!.instance;
      const port = Number(new URL(origin).port);
      const path = freshSlugPage(token, 'left');
      const traceId = crypto.randomUUID().replaceAll('-', '');
      const buildId = await buildIdOf(origin);

      // Redis holds the page cache's write, so the render is still storing the page when the client has left.
      await redis.command('CLIENT', 'PAUSE', '2000', 'WRITE');
      const monitor = connect(redis.port, '127.0.0.1', () => monitor.write('MONITOR\r\n'));
      const cacheRead = new Promise<void>((resolve) => {
        let seen = '';
        monitor.on('data', (chunk: Buffer) => {
          seen += chunk.toString('latin1');
          if (seen.split('\n').some((line) => /"GET"/i.test(line) && line.includes(path))) resolve();
        });
      });
      const client = connect(port, '127.0.0.1', () =>
        client.write(
          `GET /_next/data/${buildId}${path}.json HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
            `sentry-trace: ${traceId}-a1b2c3d4e5f60718-1\r\n\r\n`,
        ),
      );
      client.on('error', () => {});
      const transaction = ingest.waitForTransaction((t) => t.contexts?.trace?.trace_id === traceId);
      // The server read the request and asked Redis for the page: the client leaves (a reset, as a closed tab).
      await cacheRead;
      client.resetAndDestroy();
      monitor.destroy();
      const sent = await transaction;
      expect(sent.contexts?.trace?.op).toBe('http.server');
      // The paused write ends after the request's transaction was sent (at the call's timeout, and at Redis's resume).
      await ingest.expectNone<Event>(
        'transaction',
        (t) => t.contexts?.trace?.trace_id === traceId && t.contexts.trace.span_id !== sent.contexts?.trace?.span_id,
        { withinMs: 4000 },
      );
    } finally {
      await redis.stop();
    }
  });
});

test('a server-rendered page still continues the incoming trace in its meta tags', async ({ request }) => {
  const callerTraceId = '7e3f2a4b1c9d5e6f0a8b3c4d5e6f7a81';
  const html = await (
    await request.get('/examples/42', { headers: { 'sentry-trace': `${callerTraceId}-c3d4e5f607182930-1` } })
  ).text();
  expect(html).toMatch(new RegExp(`<meta name="sentry-trace" content="${callerTraceId}-[0-9a-f]{16}-1"`));
});
