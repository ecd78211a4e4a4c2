import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Event } from '@sentry/core';
import type { Page } from '@playwright/test';
import { startInstance } from '@web-foundation/testing/cluster';
import { appOrigin, chromiumFlags, chromiumPath } from '@web-foundation/testing/env';
import { front } from '@web-foundation/testing/services';
import type { IngestItem } from '@web-foundation/testing/ingest';
import { expect, recordCspViolations, test, waitForReporting } from '@web-foundation/testing';

// Issue 29, and the privacy promise: a resource the Content-Security-Policy blocks is reported by the browser to the
// app's own /api/csp-report, which forwards it to the security endpoint of the server's DSN with the environment and
// release, and with no query value, fragment, user-info, code sample, cookie or visitor's address
// (packages/foundation/src/observability/server/cspReports.ts). A page with nothing to block sends nothing.

test.use({
  // The TLS in front of the app has a self-signed certificate.
  ignoreHTTPSErrors: true,
  launchOptions: { executablePath: chromiumPath, args: [...chromiumFlags, '--ignore-certificate-errors'] },
});

/** What an injected third-party resource would be: an image from another origin, which `default-src 'self'` blocks. */
async function loadBlockedImage(page: Page, url: string): Promise<void> {
  await page.evaluate((src) => {
    const image = document.createElement('img');
    image.src = src;
    image.alt = '';
    document.body.append(image);
  }, url);
}

/** The endpoint's query: the server DSN's key, the environment and the release. */
async function expectedQuery(page: Page, origin: string) {
  const { buildId } = (await (await page.request.get(`${origin}/api/health`)).json()) as { buildId: string };
  return { sentry_key: 'public', sentry_environment: 'production', sentry_release: buildId };
}

/** A value the test puts where a person's data would be: the page's query, its fragment, its referrer, a cookie. */
const secretFor = (token: string) => `pii${token.replaceAll('-', '')}`;

/**
 * Opens `/examples/<token>` with the secret in its query and fragment, from a page with the secret in its query (the
 * referrer), with a cookie holding it, and blocks an image whose query holds it too.
 */
async function violateWithSecrets(page: Page, origin: string, token: string) {
  const secret = secretFor(token);
  await page.context().addCookies([{ name: 'session', value: secret, url: origin }]);
  await page.goto(`${origin}/?from=${secret}`);
  await page.evaluate((to) => location.assign(to), `/examples/${token}?csp=${secret}#access_token=${secret}`);
  await page.waitForURL(`**/examples/${token}?**`);
  await loadBlockedImage(page, `https://blocked.example/${token}.png?key=${secret}`);
}

/**
 * What reached the ingest holds no secret anywhere, and nothing of the browser's request to the app but its user agent
 * (report-to's comes from Chromium's network service, not from the page's emulated one).
 */
function expectNothingPersonal(item: IngestItem, secret: string, sentToApp: IncomingHttpHeaders[]) {
  expect(JSON.stringify(item)).not.toContain(secret);
  expect(sentToApp).toHaveLength(1);
  expect(item.from.userAgent).toBe(sentToApp[0]!['user-agent']);
  for (const header of ['cookie', 'referer', 'origin', 'x-forwarded-for', 'forwarded', 'x-real-ip']) {
    expect(item.header.requestHeaders).not.toContain(header);
  }
}

/** The app behind HTTPS, as in production: Chromium uses report-to only from an https page to an https endpoint. */
async function overHttps(run: (origin: string, reportRequests: IncomingHttpHeaders[]) => Promise<void>) {
  const reportRequests: IncomingHttpHeaders[] = [];
  const app = await front(appOrigin, {
    host: 'localhost',
    onRequest: (request) => request.url === '/api/csp-report' && reportRequests.push(request.headers),
  });
  try {
    await run(app.origin, reportRequests);
  } finally {
    await app.stop();
  }
}

test('a report-to report reaches Sentry through the app, without query values, fragment, referrer query or cookie', async ({
  page,
  ingest,
  token,
}) => {
  await overHttps(async (origin, reportRequests) => {
    const violations = await recordCspViolations(page);
    const reported = ingest.waitForCspViolation((v) => v.blockedUrl.includes(token));
    await violateWithSecrets(page, origin, token);
    const { violation, item } = await reported;
    // The browser saw the secret in the page's address; Sentry receives the keys only.
    expect(violations).toEqual([
      `img-src https://blocked.example/${token}.png?key=${secretFor(token)} on ${origin}/examples/${token}?csp=${secretFor(token)}`,
    ]);
    expect(violation).toMatchObject({
      format: 'report-to',
      effectiveDirective: 'img-src',
      blockedUrl: `https://blocked.example/${token}.png?key=`,
      documentUrl: `${origin}/examples/${token}?csp=`,
    });
    expect(violation.fields).toMatchObject({ referrer: `${origin}/?from=`, disposition: 'enforce', statusCode: 200 });
    expect(violation.fields).not.toHaveProperty('sample');
    expect(item.payload).toMatchObject({ type: 'csp-violation', url: `${origin}/examples/${token}?csp=` });
    expect(item.header).toMatchObject({ contentType: 'application/reports+json' });
    expect(item.projectId).toBe('1');
    expect(item.query).toEqual(await expectedQuery(page, origin));
    expectNothingPersonal(item, secretFor(token), reportRequests);
    // Chromium sends the page's cookies with a report to its own origin: the app keeps them.
    expect(reportRequests[0]?.cookie).toBe(`session=${secretFor(token)}`);
    expect(JSON.stringify(await ingest.items())).not.toContain(secretFor(token));
  });
});

test('a browser without report-to sends its report through report-uri, redacted the same way', async ({
  page,
  ingest,
  token,
}) => {
  // A browser that ignores report-to (Firefox) uses report-uri: here, the app's policy without its report-to.
  const reportRequests: IncomingHttpHeaders[] = [];
  const app = await front(appOrigin, {
    tls: false,
    responseHeaders: (headers) => ({
      ...headers,
      'content-security-policy': String(headers['content-security-policy']).replace(/; report-to [^;]+/, ''),
    }),
    onRequest: (request) => request.url === '/api/csp-report' && reportRequests.push(request.headers),
  });
  try {
    const reported = ingest.waitForCspViolation((v) => v.blockedUrl.includes(token));
    const forwardTraced = ingest.waitForTransaction(
      (t) => t.transaction === 'POST /api/csp-report' && JSON.stringify(t).includes(`/examples/${token}`),
    );
    await violateWithSecrets(page, app.origin, token);
    const { violation, item } = await reported;
    expect(violation).toMatchObject({
      format: 'report-uri',
      effectiveDirective: 'img-src',
      blockedUrl: `https://blocked.example/${token}.png?key=`,
      documentUrl: `${app.origin}/examples/${token}?csp=`,
    });
    expect(violation.fields).toMatchObject({ referrer: `${app.origin}/?from=` });
    expect(item.header).toMatchObject({ contentType: 'application/csp-report' });
    expect(item.query).toEqual(await expectedQuery(page, app.origin));
    expectNothingPersonal(item, secretFor(token), reportRequests);
    // The control: the browser sent the report to the app with the page's cookie, and the page's address as Referer.
    expect(reportRequests[0]).toMatchObject({
      cookie: `session=${secretFor(token)}`,
      referer: `${app.origin}/examples/${token}?csp=${secretFor(token)}`,
    });
    // The route's own transaction names that Referer, redacted; nothing that arrived holds the secret.
    const transaction = await forwardTraced;
    expect(transaction.contexts?.trace?.data?.['http.request.header.referer']).toEqual([
      `${app.origin}/examples/${token}?csp=`,
    ]);
    expect(JSON.stringify(await ingest.items())).not.toContain(secretFor(token));
  } finally {
    await app.stop();
  }
});

test('a page with nothing to block sends no report; the same violation again sends none either', async ({
  page,
  ingest,
  token,
}) => {
  await overHttps(async (origin, reportRequests) => {
    const violations = await recordCspViolations(page);
    await page.goto(`${origin}/examples/${token}`);
    await page.waitForLoadState('networkidle');
    // The page has hydrated and started the SDK, its worker and its requests included.
    await waitForReporting(page);
    await page.waitForTimeout(1000);
    // Then one violation on purpose, three times: once its report is in, whatever the page caused before it is too.
    const blocked = `https://blocked.example/${token}-on-purpose.png`;
    const reported = ingest.waitForCspViolation((v) => v.blockedUrl === blocked);
    for (let i = 0; i < 3; i++) await loadBlockedImage(page, blocked);
    await reported;
    await page.waitForTimeout(1000);
    const fromThisPage = (await ingest.items('security')).filter((item) =>
      JSON.stringify(item.payload).includes(token),
    );
    expect(fromThisPage.map((item) => JSON.stringify(item.payload))).toEqual([expect.stringContaining(blocked)]);
    expect(reportRequests).toHaveLength(1);
    expect(new Set(violations)).toEqual(new Set([`img-src ${blocked} on ${origin}/examples/${token}`]));
  });
});

test('what is not a violation report gets a JSON 400 and goes nowhere', async ({ request, ingest, token }) => {
  const report = { 'csp-report': { 'document-uri': `https://app.example/${token}`, 'blocked-uri': 'inline' } };
  const malformed: [string, string][] = [
    ['application/csp-report', `{"csp-report": "${token}"`],
    ['application/csp-report', JSON.stringify([report])],
    ['application/json', JSON.stringify(report)],
    ['text/plain', JSON.stringify(report)],
    ['application/reports+json', JSON.stringify([{ type: 'deprecation', body: { id: token } }])],
  ];
  for (const [contentType, data] of malformed) {
    const response = await request.post('/api/csp-report', { headers: { 'content-type': contentType }, data });
    expect(response.status(), `${contentType} ${data}`).toBe(400);
    expect(response.headers()['content-type']).toBe('application/json; charset=utf-8');
    expect((await response.json()).error).toMatchObject({ status: 400, message: expect.stringMatching(/\.$/) });
  }
  expect((await request.get('/api/csp-report')).status()).toBe(405);
  // A well-formed one, last: once it is in, any of the above would be too.
  const reported = ingest.waitForCspViolation((v) => v.documentUrl.includes(token));
  const response = await request.post('/api/csp-report', {
    headers: { 'content-type': 'application/csp-report' },
    data: JSON.stringify(report),
  });
  expect(response.status()).toBe(204);
  await reported;
  const arrived = (await ingest.items('security')).filter((item) => JSON.stringify(item).includes(token));
  expect(arrived).toHaveLength(1);
});

test('with SENTRY_COLLECT_PII=1 the report goes on as the browser sent it', async ({ ingest, token }) => {
  const server = await startInstance(undefined, undefined, { SENTRY_COLLECT_PII: '1' });
  try {
    const secret = secretFor(token);
    const report = {
      'csp-report': {
        'document-uri': `${server.origin}/examples/${token}?csp=${secret}`,
        'blocked-uri': `https://blocked.example/${token}.png?key=${secret}`,
        'violated-directive': 'img-src',
        'script-sample': secret,
      },
    };
    const reported = ingest.waitForCspViolation((v) => v.blockedUrl.includes(token));
    const response = await fetch(`${server.origin}/api/csp-report`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify(report),
    });
    expect(response.status).toBe(204);
    const { item } = await reported;
    expect(item.payload).toEqual(report);
  } finally {
    await server.stop();
  }
});

test('one report costs one transaction: the forward to Sentry is not traced apart from the route', async ({
  request,
  ingest,
  token,
}) => {
  // Issue 37: the route answers first, so a traced forward became a transaction of its own in the report's trace.
  const traceId = randomBytes(16).toString('hex');
  const report = { 'csp-report': { 'document-uri': `https://app.example/${token}`, 'blocked-uri': 'inline' } };
  const inTrace = (t: Event) => t.contexts?.trace?.trace_id === traceId;
  const reported = ingest.waitForCspViolation((v) => v.documentUrl.includes(token));
  const routeTraced = ingest.waitForTransaction((t) => inTrace(t) && t.transaction === 'POST /api/csp-report');
  const response = await request.post('/api/csp-report', {
    headers: {
      'content-type': 'application/csp-report',
      'sentry-trace': `${traceId}-${randomBytes(8).toString('hex')}-1`,
    },
    data: JSON.stringify(report),
  });
  expect(response.status()).toBe(204);
  await Promise.all([reported, routeTraced]);
  await ingest.expectNone<Event>('transaction', (t) => inTrace(t) && t.transaction !== 'POST /api/csp-report');
  const transactions = (await ingest.items<Event>('transaction')).filter((item) => inTrace(item.payload));
  expect(transactions.map((item) => item.payload.transaction)).toEqual(['POST /api/csp-report']);
});
