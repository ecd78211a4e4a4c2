import { startInstance } from '@web-foundation/testing/cluster';
import { testedApp } from '@web-foundation/testing/apps';
import { e2eDistDir, serverDir } from '@web-foundation/testing/env';
import { firstException } from '@web-foundation/testing/ingest';
import { expect, gotoWithRequestId, test } from '@web-foundation/testing';
import { testSettings as guideSettings } from './settings';

/** This app, as the tests build and serve it. */
const guide = testedApp('guide');

// Issue 35: the guide's sign-in (docs/build-your-product.md, 4d), in the guide's app (apps/guide) as the tests build
// it, served by an instance of its own with a secret, as a team would.
const demo = { email: 'demo@example.com', password: 'correct horse battery staple' };
/** Set-Cookie of a new session, flag by flag, as src/server/session.ts writes it. */
const sessionSetCookie = /^session=([\w-]+\.\d+\.[\w-]+); Path=\/; Max-Age=28800; HttpOnly; SameSite=Lax$/;

test('sign-in under the strict CSP: cookie flags, a protected page, cross-site refusal, sign-out, nothing leaked', async ({
  page,
  request,
  ingest,
}) => {
  // With the access log on: every request line is printed, and must not hold the session either.
  const app = await startInstance(e2eDistDir, serverDir(e2eDistDir, guide.dir), {
    ...guideSettings,
    LOG_REQUESTS: '1',
  });
  try {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });

    // Without a session, the protected page sends the visitor to sign in.
    await page.goto(`${app.origin}/account`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');

    // The form, in the browser: it posts with no script, and the account page renders.
    await page.getByLabel('Email').fill(demo.email);
    await page.getByLabel('Password').fill(demo.password);
    // This instance's next account page is the signed-in one (the host names the instance: a port of its own).
    const account = ingest.waitForTransaction(
      (t) => t.transaction === 'GET /account' && t.request?.headers?.host === new URL(app.origin).host,
    );
    const [signedIn] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/account'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await expect(page.getByText('Signed in as demo-user.')).toBeVisible();
    // Rendered for this visitor only: no cache may keep it for another.
    expect(signedIn.headers()['cache-control']).toContain('private');
    expect(signedIn.headers()['cache-control']).toContain('no-store');
    const cookie = (await page.context().cookies(app.origin)).find((c) => c.name === 'session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: false, sameSite: 'Lax', path: '/' });
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(8 * 3600 - 60);
    expect(cookie!.expires - Date.now() / 1000).toBeLessThanOrEqual(8 * 3600);
    expect(await page.evaluate(() => document.cookie)).not.toContain('session=');
    const session = cookie!.value;

    // The same answer, flag by flag; behind a TLS proxy (X-Forwarded-Proto: https) the cookie is Secure as well.
    const form = { email: demo.email, password: demo.password };
    const overHttp = await request.post(`${app.origin}/api/sign-in`, { form, maxRedirects: 0 });
    expect(overHttp.status()).toBe(303);
    expect(overHttp.headers().location).toBe('/account');
    expect(overHttp.headers()['set-cookie']).toMatch(sessionSetCookie);
    const overHttps = await request.post(`${app.origin}/api/sign-in`, {
      form,
      headers: { 'x-forwarded-proto': 'https' },
      maxRedirects: 0,
    });
    expect(overHttps.headers()['set-cookie']).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    const wrong = await request.post(`${app.origin}/api/sign-in`, {
      form: { ...form, password: 'wrong' },
      maxRedirects: 0,
    });
    expect([wrong.status(), wrong.headers().location, wrong.headers()['set-cookie']]).toEqual([
      303,
      '/sign-in?failed=1',
      undefined,
    ]);

    // A forged or tampered cookie is no session.
    const tampered = await request.get(`${app.origin}/account`, {
      headers: { cookie: `session=${session.replace(/^demo-user/, 'admin')}` },
      maxRedirects: 0,
    });
    expect([tampered.status(), tampered.headers().location]).toEqual([307, '/sign-in']);

    // Another site's POST, with the visitor's cookie, is refused with a JSON 403 and changes nothing.
    const senders: Record<string, string>[] = [
      { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://attacker.example' },
      { origin: `${app.origin}`, 'sec-fetch-site': 'same-site' },
    ];
    for (const from of senders) {
      const crossSite = await request.post(`${app.origin}/api/sign-out`, {
        headers: { ...from, cookie: `session=${session}` },
        maxRedirects: 0,
      });
      expect(crossSite.status(), JSON.stringify(from)).toBe(403);
      expect(crossSite.headers()['content-type']).toBe('application/json; charset=utf-8');
      expect(await crossSite.json()).toEqual({
        error: {
          status: 403,
          message: 'Requests from other sites are refused: use this site’s own pages.',
          requestId: crossSite.headers()['x-request-id'],
        },
      });
      expect(crossSite.headers()['set-cookie']).toBeUndefined();
    }
    const loginCsrf = await request.post(`${app.origin}/api/sign-in`, {
      form,
      headers: { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
      maxRedirects: 0,
    });
    expect([loginCsrf.status(), loginCsrf.headers()['set-cookie']]).toEqual([403, undefined]);

    // Reports made while signed in: a transaction of the protected page, and an error with the cookie on its request.
    expect((await account).tags?.request_id).toBe(signedIn.headers()['x-request-id']);
    const failedId = crypto.randomUUID();
    const reported = ingest.waitForError((e) => e.tags?.request_id === failedId);
    const failed = await gotoWithRequestId(page, `${app.origin}/hello?fail=1`, failedId);
    expect(failed?.status()).toBe(500);
    const error = await reported;
    expect(firstException(error)).toBe('Hello failed on purpose');

    // Sign-out, from the account page's form: the cookie is gone, and the page is protected again.
    await page.goto(`${app.origin}/account`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
    expect((await page.context().cookies(app.origin)).find((c) => c.name === 'session')).toBeUndefined();
    await page.goto(`${app.origin}/account`);
    expect(new URL(page.url()).pathname).toBe('/sign-in');
    expect(violations).toEqual([]);

    // Nothing of the session or the password reached the ingest (events, transactions, breadcrumbs) or the log.
    const signature = session.split('.')[2]!;
    const sent = JSON.stringify(await ingest.items());
    const logged = app.output();
    expect(logged).toContain('"url":"/account"');
    const formPassword = new URLSearchParams({ p: demo.password }).toString().slice(2);
    for (const secret of [session, signature, demo.password, formPassword]) {
      expect(sent, 'ingest').not.toContain(secret);
      expect(logged, 'server log').not.toContain(secret);
    }
  } finally {
    await app.stop();
  }
});
