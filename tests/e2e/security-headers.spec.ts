import { ingestOrigin } from '../support/e2e-env.mjs';
import { expect, test } from './fixtures';

// Issue 5: security headers on every response, static assets included.

test('every kind of response carries the security headers and no X-Powered-By', async ({ page, request }) => {
  await page.goto('/');
  const asset = await page.evaluate(
    () => document.querySelector<HTMLScriptElement>('script[src^="/_next/static/"]')!.src,
  );
  const paths = [
    '/',
    '/examples/42',
    new URL(asset).pathname,
    '/api/health',
    '/api/nope',
    '/no/such/page',
    '/favicon.ico',
    '/robots.txt',
    '/%',
  ];
  for (const path of paths) {
    const headers = (await request.get(path)).headers();
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('strict-origin-when-cross-origin');
    expect(headers['permissions-policy'], path).toContain('camera=()');
    expect(headers['x-frame-options'], path).toBe('DENY');
    expect(headers['x-powered-by'], path).toBeUndefined();
    const csp = headers['content-security-policy'] ?? '';
    expect(csp, path).toContain(`connect-src 'self' ${ingestOrigin};`);
    for (const directive of [
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'none'",
      "worker-src 'self' blob:",
    ]) {
      expect(csp, path).toContain(directive);
    }
    expect(csp, path).not.toMatch(/unsafe-eval|unsafe-inline/);
    expect(headers['strict-transport-security'], path).toBeUndefined();
  }
});

test('HSTS is sent only for requests that arrived over HTTPS', async ({ request }) => {
  const https = await request.get('/', { headers: { 'x-forwarded-proto': 'https' } });
  expect(https.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
});

test('reference pages and error pages load with no CSP violation', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { __cspViolations: string[] }).__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { __cspViolations: string[] }).__cspViolations.push(
        `${e.violatedDirective} ${e.blockedURI}`,
      ),
    );
  });
  for (const path of [
    '/',
    '/examples/42',
    '/examples/new',
    '/examples/docs/a/b',
    '/examples/unavailable',
    '/nope',
    '/%',
    '/diagnostics',
  ]) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(
      await page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
      path,
    ).toEqual([]);
  }
});
