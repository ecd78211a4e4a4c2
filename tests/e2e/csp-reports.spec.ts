import type { Page } from '@playwright/test';
import { appOrigin, chromiumFlags, chromiumPath, ingestOrigin } from '../support/e2e-env.mjs';
import { front } from '../support/front';
import { expect, recordCspViolations, test, waitForReporting } from './fixtures';

// Issue 29: a resource the Content-Security-Policy blocks is reported to the Sentry security endpoint of the browser's
// DSN (src/config/security.ts), with the environment and release; a page with nothing to block sends nothing.

test.use({
  // The TLS in front of the app and the ingest has a self-signed certificate.
  ignoreHTTPSErrors: true,
  launchOptions: { executablePath: chromiumPath, args: [...chromiumFlags, '--ignore-certificate-errors'] },
});

/** What an injected third-party resource would be: an image from another origin, which `default-src 'self'` blocks. */
async function loadBlockedImage(page: Page, name: string): Promise<string> {
  const blocked = `https://blocked.example/${name}.png`;
  await page.evaluate((src) => {
    const image = document.createElement('img');
    image.src = src;
    image.alt = '';
    document.body.append(image);
  }, blocked);
  return blocked;
}

/** The endpoint's query as the build wrote it into the headers: the DSN's key, the environment and the release. */
async function expectedQuery(page: Page) {
  const { buildId } = (await (await page.request.get(`${appOrigin}/api/health`)).json()) as { buildId: string };
  return { sentry_key: 'public', sentry_environment: 'production', sentry_release: buildId };
}

/**
 * The app and the ingest behind HTTPS, as in production: Chromium uses report-to only from an https page to an https
 * endpoint. The local ingest speaks plain HTTP, so the endpoint's origin in Reporting-Endpoints becomes the TLS
 * front's; its path and query stay as the build wrote them.
 */
async function overHttps(run: (appOrigin: string) => Promise<void>): Promise<void> {
  // On the page's site (localhost), so that no cross-site cookie rule is what keeps a cookie out of a report.
  const ingest = await front(ingestOrigin, { host: 'localhost' });
  const app = await front(appOrigin, {
    host: 'localhost',
    responseHeaders: (headers) => ({
      ...headers,
      'reporting-endpoints': String(headers['reporting-endpoints']).replace(ingestOrigin, ingest.origin),
    }),
  });
  try {
    await run(app.origin);
  } finally {
    await app.stop();
    await ingest.stop();
  }
}

test('a blocked resource reaches the security endpoint as a report-to report, with environment and release', async ({
  page,
  ingest,
  since,
  token,
}) => {
  await overHttps(async (origin) => {
    const violations = await recordCspViolations(page);
    // A cookie of the endpoint's site, which is the page's too: only the report's own rules can keep it out.
    await page.context().addCookies([{ name: 'session', value: token, url: 'https://localhost/' }]);
    await page.goto(`${origin}/examples/new?csp=${token}#fragment`);
    const blocked = await loadBlockedImage(page, token);
    const { violation, item } = await ingest.waitForCspViolation((v) => v.blockedUrl.includes(token), { since });
    expect(violation).toMatchObject({
      format: 'report-to',
      effectiveDirective: 'img-src',
      blockedUrl: blocked,
      documentUrl: `${origin}/examples/new?csp=${token}`,
    });
    expect(item.projectId).toBe('1');
    expect(item.query).toEqual(await expectedQuery(page));
    // What is kept out: the URL's fragment, any sample of the blocked code (no 'report-sample'), cookies.
    expect(violation.fields.sample).toBe('');
    expect(item.header).toMatchObject({ contentType: 'application/reports+json' });
    expect(item.header.requestHeaders).not.toContain('cookie');
    expect(violations).toEqual([`img-src ${blocked} on ${origin}/examples/new?csp=${token}`]);
  });
});

test('a browser without report-to sends the same report through report-uri', async ({ page, ingest, since, token }) => {
  // A browser that ignores report-to (Firefox) uses report-uri: here, the app's policy without its report-to.
  // Served from 127.0.0.1, the ingest's site: a credentialed request of the page's would carry the site's cookie there.
  const app = await front(appOrigin, {
    tls: false,
    responseHeaders: (headers) => ({
      ...headers,
      'content-security-policy': String(headers['content-security-policy']).replace(/; report-to [^;]+/, ''),
    }),
  });
  try {
    await page.context().addCookies([{ name: 'session', value: token, url: 'http://127.0.0.1/' }]);
    await page.goto(`${app.origin}/examples/new?csp=${token}`);
    const blocked = await loadBlockedImage(page, token);
    const { violation, item } = await ingest.waitForCspViolation((v) => v.blockedUrl.includes(token), { since });
    expect(violation).toMatchObject({ format: 'report-uri', effectiveDirective: 'img-src', blockedUrl: blocked });
    expect(item.header).toMatchObject({ contentType: 'application/csp-report' });
    expect(item.query).toEqual(await expectedQuery(page));
    expect(item.header.requestHeaders).not.toContain('cookie');
    // The control: the page's own credentialed request to the endpoint does carry the cookie.
    await page.evaluate(
      (url) =>
        fetch(url, { method: 'POST', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: '{}' })
          // The endpoint's CORS answer (*) does not let the page read a credentialed response: the request went anyway.
          .catch(() => undefined),
      `${ingestOrigin}/api/1/security/?control=${token}`,
    );
    const control = await ingest.waitForItem('security', (_, i) => i.query?.control === token, { since });
    expect(control.header.requestHeaders).toContain('cookie');
  } finally {
    await app.stop();
  }
});

test('a page with nothing to block sends no report; the same violation again sends none either', async ({
  page,
  ingest,
  since,
  token,
}) => {
  await overHttps(async (origin) => {
    const violations = await recordCspViolations(page);
    await page.goto(`${origin}/examples/new?csp=${token}`);
    await page.waitForLoadState('networkidle');
    // The page has hydrated and started the SDK, its worker and its requests included.
    await waitForReporting(page);
    await page.waitForTimeout(1000);
    // Then one violation on purpose, three times: once its report is in, whatever the page caused before it is too.
    const blocked = await loadBlockedImage(page, `${token}-on-purpose`);
    await loadBlockedImage(page, `${token}-on-purpose`);
    await loadBlockedImage(page, `${token}-on-purpose`);
    await ingest.waitForCspViolation((v) => v.blockedUrl === blocked, { since });
    await page.waitForTimeout(1000);
    const fromThisPage = (await ingest.items('security', since)).filter((item) =>
      JSON.stringify(item.payload).includes(token),
    );
    expect(fromThisPage.map((item) => JSON.stringify(item.payload))).toEqual([expect.stringContaining(blocked)]);
    expect(violations.length).toBeGreaterThanOrEqual(1);
    expect(new Set(violations)).toEqual(new Set([`img-src ${blocked} on ${origin}/examples/new?csp=${token}`]));
  });
});
