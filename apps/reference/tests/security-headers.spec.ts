import { ingestOrigin } from '@web-foundation/testing/env';
import { expect, recordCspViolations, showMethodNotAllowedPage, test } from '@web-foundation/testing';

// Issue 5: security headers on every response, static assets included, and a Content-Security-Policy whose scripts
// come only from the app's origin: no inline script and no eval run in production.

/** The policy's directives, by name. */
function directives(csp: string): Map<string, string> {
  return new Map(
    csp
      .split(';')
      .map((directive) => directive.trim())
      .filter(Boolean)
      .map((directive) => {
        const [name, ...values] = directive.split(/\s+/);
        return [name!, values.join(' ')] as const;
      }),
  );
}

/** Executable <script> elements without src in an HTML document (JSON data blocks such as __NEXT_DATA__ are not run). */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)]
    .filter(([, attributes]) => !/\bsrc=/i.test(attributes!) && !/\btype="application\/(ld\+)?json"/i.test(attributes!))
    .map(([element]) => element.slice(0, 120));
}

test('every kind of response carries the security headers and no X-Powered-By', async ({ page, request }) => {
  // The app's own route, which redacts reports before they go to Sentry (csp-reports.spec.ts).
  const violationReports = '/api/csp-report';
  await page.goto('/examples');
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
    const policy = directives(csp);
    expect(policy.get('default-src'), path).toBe("'self'");
    // Scripts from the app's origin only: no inline script, no eval, no other host.
    expect(policy.get('script-src'), path).toBe("'self'");
    expect(policy.get('connect-src'), path).toBe(`'self' ${ingestOrigin}`);
    expect(policy.get('worker-src'), path).toBe("'self'");
    expect(policy.get('object-src'), path).toBe("'none'");
    expect(policy.get('base-uri'), path).toBe("'none'");
    expect(policy.get('frame-ancestors'), path).toBe("'none'");
    expect(policy.get('report-uri'), path).toBe(violationReports);
    expect(policy.get('report-to'), path).toBe('csp-endpoint');
    expect(headers['reporting-endpoints'], path).toBe(`csp-endpoint="${violationReports}"`);
    expect(csp, path).not.toContain('unsafe-eval');
    // The one 'unsafe-inline' is for styles (the pages' style attributes); no script directive has it.
    for (const [name, values] of policy) {
      if (name !== 'style-src') expect(values, `${path}: ${name}`).not.toContain('unsafe-inline');
    }
    expect(headers['strict-transport-security'], path).toBeUndefined();
  }
});

test('HSTS is sent only for requests that arrived over HTTPS', async ({ request }) => {
  const https = await request.get('/', { headers: { 'x-forwarded-proto': 'https' } });
  expect(https.headers()['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
});

const pages: [path: string, status: number][] = [
  ['/', 200],
  ['/examples/42', 200],
  ['/examples/new', 200],
  ['/examples/generated', 200],
  [`/examples/on-demand/csp-${Date.now().toString(36)}`, 200],
  ['/examples/docs/a/b', 200],
  ['/examples/announcer/titled', 200],
  ['/examples/announcer/heading', 200],
  ['/examples/announcer/bare', 200],
  ['/examples/moved', 200],
  ['/examples/same-route-twice', 200],
  ['/diagnostics', 200],
  // Error pages: 404 (prerendered), 400 (the proxy's status page), 503 (another status), 500 (a throwing render).
  ['/nope', 404],
  ['/%', 400],
  ['/examples/unavailable', 503],
  ['/diagnostics/ssr-error', 500],
];

test('reference pages and error pages load with no CSP violation and no inline script', async ({ page }) => {
  test.setTimeout(60_000);
  const violations = await recordCspViolations(page);
  for (const [path, status] of pages) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(status);
    expect(inlineScripts(await response!.text()), path).toEqual([]);
    await page.waitForLoadState('networkidle');
    // The app's own scripts ran: Next hydrated the page.
    expect(await page.evaluate(() => typeof (window as unknown as { next?: object }).next), path).toBe('object');
  }
  expect(violations).toEqual([]);
});

test('the 405 and client-exception error pages show with no CSP violation', async ({ page }) => {
  const violations = await recordCspViolations(page);
  // The 405 page, reached the way a browser can: a form posted to a page.
  await showMethodNotAllowedPage(page);

  // The client-exception page, rendered in the browser after hydration.
  await page.goto('/diagnostics');
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Throw while rendering' }).click();
  await expect(page).toHaveTitle('Application error: a client-side exception has occurred');
  expect(violations).toEqual([]);
});

test('client-side navigations to every reference page cause no CSP violation', async ({ page }) => {
  test.setTimeout(60_000);
  const violations = await recordCspViolations(page);
  await page.goto('/examples');
  const hrefs = await page.locator('main li a').evaluateAll((links) => links.map((a) => a.getAttribute('href')!));
  expect(hrefs.length).toBeGreaterThan(5);
  // Each navigation loads the route's chunks, its bootstrap chunk among them, into the page already loaded.
  const clientSide: string[] = [];
  for (const href of hrefs) {
    await page.goto('/examples');
    await page.waitForFunction(() => (window as unknown as { next?: { router?: object } }).next?.router);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    await page.locator(`main li a[href="${href}"]`).click();
    await page.waitForURL((url) => url.pathname === href);
    // The list of reference pages is gone: the page navigated to has rendered.
    await expect(page.locator('main li a')).toHaveCount(0);
    if (await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)) {
      clientSide.push(href);
    }
  }
  // All but the 503 page, whose data answer makes Next's router load it in full.
  expect(clientSide).toEqual(hrefs.filter((href) => href !== '/examples/unavailable'));
  expect(violations).toEqual([]);
});

test('an inline script that reaches the served HTML does not run', async ({ page }) => {
  const violations = await recordCspViolations(page);
  // What a stored or reflected XSS would produce: the app's own response, headers and all, with an attacker's script.
  await page.route('**/examples/new', async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace(
      '<head>',
      '<head><script>window.__injected = "inline script in the HTML"</script>',
    );
    await route.fulfill({ response, body: html });
  });
  await page.goto('/examples/new');
  await page.waitForLoadState('networkidle');
  expect(await page.evaluate(() => (window as unknown as { __injected?: string }).__injected)).toBeUndefined();
  // The app's own scripts still ran.
  expect(await page.evaluate(() => typeof (window as unknown as { next?: object }).next)).toBe('object');
  expect(violations).toEqual([expect.stringMatching(/^script-src-elem inline on .*\/examples\/new$/)]);
});

test('a script, an event handler or eval injected into the page does not run', async ({ page }) => {
  const violations = await recordCspViolations(page);
  await page.goto('/examples/new');
  await page.waitForLoadState('networkidle');
  const outcome = await page.evaluate(async () => {
    const w = window as unknown as Record<string, unknown>;
    // What a DOM XSS would add: an inline <script> and an inline event handler (as innerHTML would create them).
    const script = document.createElement('script');
    script.textContent = 'window.__injectedScript = true';
    document.body.append(script);
    const holder = document.createElement('div');
    holder.innerHTML = '<img src="/favicon.ico?csp" onload="window.__injectedHandler = true">';
    document.body.append(holder);
    await new Promise((done) => setTimeout(done, 500));
    let evalOutcome: string;
    try {
      evalOutcome = String(eval('"eval ran"'));
    } catch (error) {
      evalOutcome = (error as Error).name;
    }
    return { script: w.__injectedScript, handler: w.__injectedHandler, eval: evalOutcome };
  });
  expect(outcome).toEqual({ script: undefined, handler: undefined, eval: 'EvalError' });
  await expect
    .poll(() => violations.map((v) => v.split(' ').slice(0, 2).join(' ')).sort())
    .toEqual(['script-src eval', 'script-src-attr inline', 'script-src-elem inline']);
});
