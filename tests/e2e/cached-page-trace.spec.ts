import type { Event } from '@sentry/core';
import { appOrigin } from '../support/e2e-env.mts';
import { expect, test, waitForReporting } from './fixtures';

// Issue 36, point 6: a cached page's meta tags carried the trace of the request that generated it. A request with
// `sentry-trace: …-0` and a baggage of its own choosing set every later visitor's trace: their page loads were dropped
// and would have named its environment, release and key.

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
  ].join(','),
};

test('a page generated for a request with a hostile trace carries none: the next visitors trace their own page loads', async ({
  page,
  ingest,
  token,
}) => {
  const slug = `trace-${token}`
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .slice(0, 64);
  const path = `/examples/on-demand/${slug}`;
  const { buildId } = (await (await fetch(`${appOrigin}/api/health`)).json()) as { buildId: string };
  // A fallback route's page is generated, and cached, by the first request for its data.
  const generated = await fetch(`${appOrigin}/_next/data/${buildId}${path}.json`, { headers: hostile });
  expect(generated.status).toBe(200);

  const html = await (await fetch(`${appOrigin}${path}`)).text();
  expect(html).toContain(slug);
  expect(html).not.toContain(hostileTraceId);
  expect(html).not.toContain('evil');
  expect(html).not.toMatch(/<meta name="(?:sentry-trace|baggage)"/);

  const onThisPage = (t: Event) =>
    t.contexts?.trace?.op === 'pageload' &&
    t.transaction === '/examples/on-demand/[slug]' &&
    JSON.stringify(t.request ?? {}).includes(slug);
  const sent = ingest.waitForItem<Event>('transaction', onThisPage);
  await page.goto(path);
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
});

test('a server-rendered page still continues the incoming trace in its meta tags', async ({ request }) => {
  const callerTraceId = '7e3f2a4b1c9d5e6f0a8b3c4d5e6f7a81';
  const html = await (
    await request.get('/examples/42', { headers: { 'sentry-trace': `${callerTraceId}-c3d4e5f607182930-1` } })
  ).text();
  expect(html).toMatch(new RegExp(`<meta name="sentry-trace" content="${callerTraceId}-[0-9a-f]{16}-1"`));
});
