import { inflateSync } from 'node:zlib';
import type { ErrorEvent, Event } from '@sentry/core';
import type { Page } from '@playwright/test';
import { appHost } from '@web-foundation/testing/env';
import { startInstance, type Instance } from '@web-foundation/testing/cluster';
import { spansIn, thrownException, type IngestClient, type IngestItem } from '@web-foundation/testing/ingest';
import { slowInteractionTakenIn } from '@web-foundation/testing/interactions';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { expect, installedIntegrations, test as base, throwInPage, waitForReplay } from '@web-foundation/testing';

// Issue 27: with personal data off (the default), query values, a Referer's query, user-info and bare query tokens (and,
// in the browser, fragments) reach nothing: not the ingest (events, transactions, spans, breadcrumbs, replays, logs),
// not the server's output (Next's lines, the access log). Each test sends values of its own through one path, waits
// until what that path reports has arrived, then searches everything that arrived and everything the server printed.

/** A server of this worker's own, with the access log on (LOG_REQUESTS=1): its output is searched too. */
const test = base.extend<object, { server: Instance }>({
  server: [
    async ({}, use) => {
      const server = await startInstance(undefined, undefined, { LOG_REQUESTS: '1' });
      await use(server);
      await server.stop();
    },
    // Starting a server takes a few seconds, more on a busy machine.
    { scope: 'worker', timeout: 60_000 },
  ],
});

/** Values that must not travel: unique to the test, each named after where it was put. */
function secretsOf(token: string, ...names: string[]): string[] {
  return names.map((name) => `${name}${token.replaceAll('-', '')}`);
}

/** A bare token as a link or an API puts one after `?`: a JWT, no `=`. */
const bareTokenOf = (secret: string) => `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(secret).toString('base64url')}.c2ln`;

/** A recording's body as text: a header line, then the events, deflated by replay's worker. */
function recordingText(item: IngestItem): string {
  const raw = Buffer.from(item.binary ?? '', 'base64');
  const body = raw.subarray(raw.indexOf(0x0a) + 1);
  try {
    return inflateSync(body).toString('utf8');
  } catch {
    return body.toString('utf8');
  }
}

/** Every item the ingest received during this test, as text, whatever its type; recordings inflated. */
async function everythingReported(ingest: IngestClient): Promise<{ type: string; text: string }[]> {
  return (await ingest.items()).map((item) => ({
    type: item.type,
    text: item.binary === undefined ? JSON.stringify(item.payload) : recordingText(item),
  }));
}

/** None of the secrets in anything reported during this test, nor in anything the server printed. */
async function expectNowhere(secrets: string[], ingest: IngestClient, server: Instance) {
  const reported = await everythingReported(ingest);
  for (const { type, text } of reported) {
    for (const secret of secrets) expect(text, `${type} carries ${secret}`).not.toContain(secret);
  }
  for (const secret of secrets) expect(server.output(), `the server printed ${secret}`).not.toContain(secret);
}

interface LogLine {
  msg: string;
  url?: string;
  request_id?: string;
  [field: string]: unknown;
}

/** The server's access log line for a request (LOG_REQUESTS=1), once it is printed. */
async function accessLogLine(server: Instance, requestId: string): Promise<LogLine> {
  let line: LogLine | undefined;
  await expect
    .poll(() => {
      line = server
        .output()
        .split('\n')
        // The last piece may be a line still being written.
        .slice(0, -1)
        .filter((text) => text.includes(requestId))
        .map((text) => JSON.parse(text) as LogLine)
        .find((parsed) => parsed.msg === 'request answered');
      return line;
    })
    .toBeDefined();
  return line!;
}

const ofRequest = (requestId: string) => (event: Event) => event.tags?.request_id === requestId;
const carries = (text: string) => (payload: unknown) => JSON.stringify(payload).includes(text);

/** Waits for what a failing server request reports: its error event and its transaction. Create it before the request. */
async function serverReports(ingest: IngestClient, requestId: string) {
  const [event, transaction] = await Promise.all([
    ingest.waitForError(ofRequest(requestId)),
    ingest.waitForItem('transaction', carries(requestId)),
  ]);
  return { event, transaction: transaction.payload as Event };
}

/** A client navigation, as a link or the app's code starts one: Next's router, given the URL as it is. */
async function pushRoute(page: Page, url: string) {
  await page.evaluate(
    (u) => (window as unknown as { next: { router: { push(u: string): void } } }).next.router.push(u),
    url,
  );
}

const apiError = 'Diagnostics: an exception thrown in an API route';

test.describe('with personal data off', () => {
  test('an API error: its query values, in the event, the transaction, the log line and its Sentry log', async ({
    ingest,
    token,
    server,
  }) => {
    const [email, q] = secretsOf(token, 'email', 'q');
    const requestId = `privacy-${token}`;
    const reported = serverReports(ingest, requestId);
    // The error line, forwarded to Sentry as a log (every 5 s): the keys say what was asked.
    const logged = ingest.waitForItem('log', carries(requestId));
    const response = await fetch(`${server.origin}/api/diagnostics/server-error?email=${email}&q=${q}`, {
      headers: { 'x-request-id': requestId },
    });
    expect(response.status).toBe(500);
    const { event } = await reported;
    expect(thrownException(event)).toBe(apiError);
    // The SDK sends no query of a URL it collects itself.
    expect(event.request?.url).toBe(`${server.origin}/api/diagnostics/server-error`);
    const log = await logged;
    expect(JSON.stringify(log.payload)).toContain('API route /api/diagnostics/server-error?email=&q= failed');
    expect((await accessLogLine(server, requestId)).url).toBe('/api/diagnostics/server-error?email=&q=');
    await expectNowhere([email!, q!], ingest, server);
  });

  test('an error in getServerSideProps: its query values, in the event and the transaction', async ({
    ingest,
    token,
    server,
  }) => {
    const [email] = secretsOf(token, 'email');
    const requestId = `privacy-${token}`;
    const reported = serverReports(ingest, requestId);
    const response = await fetch(`${server.origin}/diagnostics/ssr-error?email=${email}`, {
      headers: { 'x-request-id': requestId },
    });
    expect(response.status).toBe(500);
    const { event } = await reported;
    expect(thrownException(event)).toBe('Diagnostics: an exception thrown in getServerSideProps');
    // Next's request error hook names the path and query that failed.
    expect(event.contexts?.nextjs?.request_path).toBe('/diagnostics/ssr-error?email=');
    expect((await accessLogLine(server, requestId)).url).toBe('/diagnostics/ssr-error?email=');
    await expectNowhere([email!], ingest, server);
  });

  test('an error in the proxy: its query values', async ({ ingest, token, server }) => {
    const [email] = secretsOf(token, 'email');
    const requestId = `privacy-${token}`;
    const error = ingest.waitForError(carries(requestId));
    const transaction = ingest.waitForItem('transaction', carries(requestId));
    // Uncompressed: when the error page is gzipped, the SDK reads the transaction's status as 404 and drops it.
    const response = await fetch(`${server.origin}/diagnostics/proxy-error?email=${email}`, {
      headers: { 'x-request-id': requestId, 'accept-encoding': 'identity' },
    });
    expect(response.status).toBe(500);
    expect(thrownException(await error)).toBe('Diagnostics: an exception thrown in the proxy');
    await transaction;
    await expectNowhere([email!], ingest, server);
  });

  test("a Referer: the other page's query", async ({ ingest, token, server }) => {
    const [email] = secretsOf(token, 'email');
    const requestId = `privacy-${token}`;
    const reported = serverReports(ingest, requestId);
    const response = await fetch(`${server.origin}/api/diagnostics/server-error`, {
      headers: { 'x-request-id': requestId, referer: `${server.origin}/examples/7?email=${email}` },
    });
    expect(response.status).toBe(500);
    const { event, transaction } = await reported;
    expect(thrownException(event)).toBe(apiError);
    // Kept: where the user came from, without what they sent there.
    expect(event.request?.headers?.referer).toBe(`${server.origin}/examples/7?email=`);
    expect(transaction.contexts?.trace?.data?.['http.request.header.referer']).toEqual([
      `${server.origin}/examples/7?email=`,
    ]);
    await expectNowhere([email!], ingest, server);
  });

  test('an absolute-form request line: its user-info, in the event, the transaction and the access log', async ({
    ingest,
    token,
    server,
  }) => {
    const [password, email] = secretsOf(token, 'password', 'email');
    const requestId = `privacy-${token}`;
    const reported = serverReports(ingest, requestId);
    const answer = await rawRequest(
      server.port,
      appHost,
      `GET http://user:${password}@${appHost}:${server.port}/api/diagnostics/server-error?email=${email} HTTP/1.1\r\n` +
        `Host: ${appHost}:${server.port}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.status).toBe(500);
    const { event, transaction } = await reported;
    expect(thrownException(event)).toBe(apiError);
    expect(event.request?.url).toBe(`http://${appHost}:${server.port}/api/diagnostics/server-error`);
    expect(transaction.contexts?.trace?.data?.['url.full']).toBe(
      `http://${appHost}:${server.port}/api/diagnostics/server-error`,
    );
    expect((await accessLogLine(server, requestId)).url).toBe(
      `http://${appHost}:${server.port}/api/diagnostics/server-error?email=`,
    );
    await expectNowhere([password!, email!], ingest, server);
  });

  test('user-info in Host and X-Forwarded-Host, a Referer with user-info and no //, a data: Referer (issue 55)', async ({
    ingest,
    token,
    server,
  }) => {
    const [host, forwarded, referred, content] = secretsOf(token, 'host', 'forwarded', 'referred', 'content');
    for (const [index, referer] of [`https:user:${referred}@${appHost}/x`, `data:text/plain,${content}`].entries()) {
      const requestId = `privacy-${token}-${index}`;
      const reported = serverReports(ingest, requestId);
      const answer = await rawRequest(
        server.port,
        appHost,
        `GET /api/diagnostics/server-error HTTP/1.1\r\nHost: user:${host}@${appHost}:${server.port}\r\n` +
          `X-Forwarded-Host: user:${forwarded}@example.com\r\nReferer: ${referer}\r\n` +
          `X-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n`,
      );
      expect(answer.status).toBe(500);
      const { event } = await reported;
      expect(thrownException(event)).toBe(apiError);
      expect(event.request?.headers?.host).toBe(`${appHost}:${server.port}`);
      await accessLogLine(server, requestId);
    }
    await expectNowhere([host!, forwarded!, referred!, content!], ingest, server);
  });

  test('a bare token for a query: the whole token', async ({ ingest, token, server }) => {
    const [secret] = secretsOf(token, 'token');
    const bareToken = bareTokenOf(secret!);
    const requestId = `privacy-${token}`;
    const traced = ingest.waitForTransaction(ofRequest(requestId));
    const response = await fetch(`${server.origin}/examples/42?${bareToken}`, {
      headers: { 'x-request-id': requestId },
    });
    expect(response.status).toBe(200);
    const transaction = await traced;
    expect(transaction.transaction).toBe('GET /examples/[id]');
    expect((await accessLogLine(server, requestId)).url).toBe('/examples/42');
    await expectNowhere([secret!, bareToken], ingest, server);
  });

  test('a page load with a query, a fragment and a Referer: transaction, error, breadcrumbs and replay', async ({
    page,
    ingest,
    token,
    server,
  }) => {
    const [email, q, accessToken, referred] = secretsOf(token, 'email', 'q', 'accesstoken', 'referred');
    // A segment of the test's own, so that its page load is told apart from other tests'.
    const loaded = `${server.origin}/examples/load${token}`;
    const sent = ingest.waitForTransaction(
      (t) => t.contexts?.trace?.op === 'pageload' && String(t.contexts.trace.data?.['url.full']).startsWith(loaded),
    );
    await page.goto(`${loaded}?email=${email}&q=${q}#access_token=${accessToken}`, {
      referer: `${server.origin}/examples/7?email=${referred}`,
    });
    await waitForReplay(page);
    const message = `page load ${token}`;
    const reported = ingest.waitForError((e) => thrownException(e) === message);
    await throwInPage(page, message);
    const error = await reported;
    expect(error.request?.url).toBe(`${loaded}?email=&q=`);
    expect(error.request?.headers?.Referer).toBe(`${server.origin}/examples/7?email=`);
    const pageLoad = await sent;
    expect(pageLoad.contexts?.trace?.trace_id).toBe(error.contexts?.trace?.trace_id);
    expect(pageLoad.contexts?.trace?.data?.['url.full']).toBe(loaded);
    // Replay lists the page as origin, path, fragment, then query: the fragment's redaction takes the query with it.
    await expectReplayRedacted(ingest, error, { listed: loaded, recorded: `${loaded}?email=&q=` });
    await expectNowhere([email!, q!, accessToken!, referred!], ingest, server);
  });

  test('a client navigation with a query and a fragment: transaction, breadcrumbs, page data and replay', async ({
    page,
    ingest,
    token,
    server,
  }) => {
    const [email, accessToken] = secretsOf(token, 'email', 'accesstoken');
    await page.goto(`${server.origin}/examples/41`);
    await waitForReplay(page);
    // A segment of the test's own, so that its navigation is told apart from other tests'.
    const navigated = `/examples/nav${token}`;
    const sent = ingest.waitForTransaction(
      (t) =>
        t.contexts?.trace?.op === 'navigation' &&
        String(t.contexts.trace.data?.['url.full']).startsWith(`${server.origin}${navigated}`),
    );
    await pushRoute(page, `${navigated}?email=${email}#access_token=${accessToken}`);
    await expect(page.getByTestId('segment')).toHaveText(`nav${token}`);
    const message = `navigation ${token}`;
    const reported = ingest.waitForError((e) => thrownException(e) === message);
    await throwInPage(page, message);
    const error = await reported;
    expect(error.breadcrumbs).toContainEqual(
      expect.objectContaining({ category: 'navigation', data: { from: '/examples/41', to: `${navigated}?email=` } }),
    );
    expect((await sent).contexts?.trace?.trace_id).toBe(error.contexts?.trace?.trace_id);
    const first = `${server.origin}/examples/41`;
    await expectReplayRedacted(ingest, error, { listed: first, recorded: first });
    await expectNowhere([email!, accessToken!], ingest, server);
  });
});

// Issue 36: the URL forms that once got past the redaction, each sent through every path above that can carry it. A
// table of forms, a table of paths; each test sends one form through all its paths, waits until each path's reports
// have arrived, then searches everything that arrived and everything the server printed.

/** Secret values of one test, each named after the path it went through and where it was put. */
function secretKeeper(token: string) {
  const all: string[] = [];
  const of = (where: string) => (name: string) => {
    const value = `${where}${name}${token.replaceAll('-', '')}`;
    all.push(value);
    return value;
  };
  return { all, of };
}

type Secret = (name: string) => string;

/** A bare token short enough to pass for a key's name (24 characters at most), capitalised as tokens are. */
function shortToken(secret: Secret): string {
  const value = secret('Tk');
  expect(value.length).toBeLessThanOrEqual(24);
  return value;
}

interface UrlForm {
  name: string;
  /** Only a raw request line carries it as it is: no browser sends a scheme (or `//`) as the request's target. */
  requestLineOnly?: true;
  /** Put in the path itself: only a route that takes any last segment (`/examples/[id]`) answers it. */
  inPath?: true;
  /** Next answers it itself, before any route runs, with this status. */
  answeredByNext?: number;
  /** The form, with secrets in it, on `route` (a path); `authority` is the server's `host:port`. */
  url(route: string, secret: Secret, authority: string): string;
}

const urlForms: UrlForm[] = [
  {
    // Browsers leave `'` in a path as it is.
    name: 'a quote and a backtick in the path, then a query and a fragment',
    inPath: true,
    url: (route, secret) => `${route}o'k\`?email=${secret('email')}#access_token=${secret('accesstoken')}`,
  },
  { name: 'a short bare token (?TOKEN)', url: (route, secret) => `${route}?${shortToken(secret)}` },
  // What Next's router writes back for ?TOKEN after a client navigation.
  { name: 'a short bare token as a key (?TOKEN=)', url: (route, secret) => `${route}?${shortToken(secret)}=` },
  { name: 'a fragment with no query', url: (route, secret) => `${route}#access_token=${secret('accesstoken')}` },
  ...(
    [
      ['HTTP://user:…@host', 'HTTP://', undefined],
      ['ws://user:…@host', 'ws://', 400],
      ['Ws://user:…@host', 'Ws://', 400],
      ['//user:…@host (Next redirects the doubled slash)', '//', 308],
    ] as const
  ).map(([name, scheme, answeredByNext]): UrlForm => ({
    name: `a request line ${name}`,
    requestLineOnly: true,
    ...(answeredByNext ? { answeredByNext } : {}),
    url: (route, secret, authority) =>
      `${scheme}user:${secret('password')}@${authority}${route}?email=${secret('email')}`,
  })),
];

/** One request over a raw socket, so that its target is sent exactly as written. */
function requestLine(server: Instance, target: string, requestId: string, header = '') {
  return rawRequest(
    server.port,
    appHost,
    `GET ${target} HTTP/1.1\r\nHost: ${appHost}:${server.port}\r\nX-Request-Id: ${requestId}\r\n${header}` +
      // Uncompressed: when the error page is gzipped, the SDK reads the transaction's status as 404 and drops it.
      'Accept-Encoding: identity\r\nConnection: close\r\n\r\n',
  );
}

interface ServerPath {
  name: string;
  /** Short: it names the secrets sent through this path. */
  key: string;
  route: string;
  takesAnySegment?: true;
  /** Carries the URLs a browser sends only (a header's). */
  browserUrlsOnly?: true;
  /** The route's answer. */
  status: number;
  send(server: Instance, url: string, requestId: string): ReturnType<typeof rawRequest>;
}

const asTarget: ServerPath['send'] = (server, url, requestId) => requestLine(server, url, requestId);

const serverPaths: ServerPath[] = [
  { name: 'an API error', key: 'api', route: '/api/diagnostics/server-error', status: 500, send: asTarget },
  { name: 'an error in getServerSideProps', key: 'ssr', route: '/diagnostics/ssr-error', status: 500, send: asTarget },
  { name: 'an error in the proxy', key: 'proxy', route: '/diagnostics/proxy-error', status: 500, send: asTarget },
  { name: 'a page', key: 'page', route: '/examples/42', takesAnySegment: true, status: 200, send: asTarget },
  {
    name: "a Referer (an API error's)",
    key: 'ref',
    route: '/examples/7',
    takesAnySegment: true,
    browserUrlsOnly: true,
    status: 500,
    send: (server, url, requestId) =>
      requestLine(server, '/api/diagnostics/server-error', requestId, `Referer: ${server.origin}${url}\r\n`),
  },
];

const carriesId = (requestId: string) => carries(JSON.stringify(requestId));

test.describe('with personal data off, every URL form through every server path', () => {
  for (const form of urlForms) {
    const paths = serverPaths.filter(
      (path) => !(form.inPath && !path.takesAnySegment) && !(form.requestLineOnly && path.browserUrlsOnly),
    );
    test(`${form.name}: ${paths.map((path) => path.name).join(', ')}`, async ({ ingest, token, server }) => {
      const secrets = secretKeeper(token);
      const sent = [];
      for (const path of paths) {
        const requestId = `privacy-${token}-${path.key}`;
        const url = form.url(path.route, secrets.of(path.key), `${appHost}:${server.port}`);
        const status = form.answeredByNext ?? path.status;
        const reported = Promise.all([
          ingest.waitForItem('transaction', carriesId(requestId)),
          status === 500 && ingest.waitForError(carriesId(requestId)),
          // The API route's error line, forwarded as a Sentry log in batches: the last of what the server sends.
          status === 500 && path.key === 'api' && ingest.waitForItem('log', carriesId(requestId)),
        ]);
        const answer = await path.send(server, url, requestId);
        expect(answer.status, `${path.name}: ${url}`).toBe(status);
        sent.push({ requestId, reported });
      }
      for (const { requestId, reported } of sent) {
        await reported;
        await accessLogLine(server, requestId);
      }
      await expectNowhere(secrets.all, ingest, server);
    });
  }
});

test.describe('with personal data off, every URL form through a page load and a client navigation', () => {
  for (const form of urlForms.filter((f) => !f.requestLineOnly)) {
    test(`${form.name}: transactions, error, breadcrumbs, page data and replay`, async ({
      page,
      ingest,
      token,
      server,
    }) => {
      const secrets = secretKeeper(token);
      const authority = `${appHost}:${server.port}`;
      // Segments of the test's own, so that its transactions are told apart from other tests'.
      const [loaded, navigated] = ['load', 'nav'].map((key) => `/examples/${key}${token}`);
      const pageLoad = ingest.waitForTransaction(
        (t) =>
          t.contexts?.trace?.op === 'pageload' &&
          String(t.contexts.trace.data?.['url.full']).startsWith(`${server.origin}${loaded}`),
      );
      await page.goto(`${server.origin}${form.url(loaded!, secrets.of('load'), authority)}`);
      await waitForReplay(page);
      const navigation = ingest.waitForTransaction(
        (t) =>
          t.contexts?.trace?.op === 'navigation' && String(t.contexts.trace.data?.['url.full']).includes(navigated!),
      );
      await pushRoute(page, form.url(navigated!, secrets.of('nav'), authority));
      await expect(page.getByTestId('segment')).toHaveText(new RegExp(`^nav${token}`));
      const message = `${form.name} ${token}`;
      const reported = ingest.waitForError((e) => thrownException(e) === message);
      await throwInPage(page, message);
      const error = await reported;
      await pageLoad;
      expect((await navigation).contexts?.trace?.trace_id).toBe(error.contexts?.trace?.trace_id);
      const crumbs = error.breadcrumbs ?? [];
      expect(crumbs.some((c) => c.category === 'navigation' && String(c.data?.to).startsWith(navigated!))).toBe(true);
      // The page data of the navigation, fetched by Next's router.
      expect(crumbs.some((c) => c.category === 'fetch' && String(c.data?.url).includes(`/_next/data/`))).toBe(true);
      await waitForReplayOf(ingest, error);
      await expectNowhere(secrets.all, ingest, server);
    });
  }
});

// Firefox runs the same in apps/reference/tests/engines/privacy.spec.ts; WebKitGTK has no Event Timing, so no INP to send. The SDK
// names the span after the element and the page's route, not its address: the test passes with beforeSendSpan off
// too, and holds the redaction to it if the SDK ever names the span from the address.
test('with personal data off, a slow click: its INP span, sent on its own, carries neither the query nor the fragment', async ({
  page,
  ingest,
  token,
  server,
}) => {
  const [email, accessToken] = secretsOf(token, 'email', 'accesstoken');
  await page.goto(`${server.origin}/examples/slow-click?email=${email}#access_token=${accessToken}`);
  await installedIntegrations(page, ['WebVitals'], 'WebVitals');
  await page.getByRole('button', { name: /^Work for/ }).click();
  await expect(page.getByTestId('clicks')).toHaveText('1');
  await page.evaluate(slowInteractionTakenIn, 200);
  const inpSent = ingest.waitForItem('span', (payload) =>
    spansIn(payload).some((s) => s.attributes['sentry.segment.name']?.value === '/examples/slow-click'),
  );
  // Leaving hides the page: web-vitals reports its INP then, and the SDK sends it as a span envelope of its own.
  await page.goto('about:blank');
  const item = await inpSent;
  const [inp] = spansIn(item.payload);
  expect(inp!.attributes['sentry.op']?.value).toBe('ui.interaction.click');
  expect(inp!.attributes['browser.web_vital.inp.value']?.value).toBeGreaterThanOrEqual(200);
  await expectNowhere([email!, accessToken!], ingest, server);
});

// Issue 44: the browser SDK puts the address of the page's largest paint on the page load (`lcp.url`), under a name
// no list of URL attributes had. An image whose address holds a signature and a token, as a storage link does.
test("with personal data off, the largest paint's image address: lcp.url is there, its secrets are not", async ({
  page,
  ingest,
  server,
}) => {
  const path = '/examples/signed-image';
  const sent = ingest.waitForTransaction(
    (t) =>
      t.contexts?.trace?.op === 'pageload' && String(t.contexts.trace.data?.['url.full']) === `${server.origin}${path}`,
  );
  await page.goto(`${server.origin}${path}`);
  const source = new URL(
    (await page.getByRole('img', { name: 'A blue gradient' }).getAttribute('src'))!,
    server.origin,
  );
  const secrets = ['X-Amz-Signature', 'token'].map((key) => source.searchParams.get(key)!);
  expect(secrets.every(Boolean)).toBe(true);
  const lcpUrl = new URL(String((await sent).contexts?.trace?.data?.['lcp.url']));
  // Kept: which image it was, and the query's plain keys (`X-Amz-Signature` is not one: capitals together).
  expect(lcpUrl.pathname).toBe('/hero.png');
  expect(lcpUrl.searchParams.get('token')).toBe('');
  expect(lcpUrl.searchParams.has('X-Amz-Signature')).toBe(false);
  await expectNowhere(secrets, ingest, server);
});

/** Waits for the replay event of the error's session, and its first recording. */
async function waitForReplayOf(ingest: IngestClient, error: ErrorEvent): Promise<Event> {
  const replayId = (error.contexts?.replay as { replay_id?: string } | undefined)?.replay_id ?? error.tags?.replayId;
  expect(replayId).toMatch(/^[0-9a-f]{32}$/);
  // The replay id is made by the browser's SDK as the page starts recording, and a session sampled from its start sends
  // its replay before the error names the id: these waits look back to the test's start.
  const replay = await ingest.waitForReplay((r) => (r as { replay_id?: string }).replay_id === replayId, {
    from: 'test start',
  });
  await ingest.waitForItem('replay_recording', (_payload, item) => item.envelopeHeader.event_id === replayId, {
    from: 'test start',
  });
  return replay;
}

/** Waits for the replay of the error's session: it lists the first page as `listed`, its recording names it `recorded`. */
async function expectReplayRedacted(
  ingest: IngestClient,
  error: ErrorEvent,
  pageAddress: { listed: string; recorded: string },
) {
  const replay = await waitForReplayOf(ingest, error);
  expect((replay as { urls?: string[] }).urls?.[0]).toBe(pageAddress.listed);
  const recordings = (await ingest.items('replay_recording')).map(recordingText);
  // rrweb's Meta event: the page's address, at each full snapshot.
  expect(recordings.join('\n')).toContain(`"href":${JSON.stringify(pageAddress.recorded)}`);
}

test('with SENTRY_COLLECT_PII=1 the query values do arrive (the switch works)', async ({ ingest, token }) => {
  const server = await startInstance(undefined, undefined, { SENTRY_COLLECT_PII: '1', LOG_REQUESTS: '1' });
  try {
    const [email] = secretsOf(token, 'email');
    const requestId = `privacy-${token}`;
    const reported = ingest.waitForError(ofRequest(requestId));
    const response = await fetch(`${server.origin}/api/diagnostics/server-error?email=${email}`, {
      headers: { 'x-request-id': requestId },
    });
    expect(response.status).toBe(500);
    const event = await reported;
    expect(event.request?.url).toBe(`${server.origin}/api/diagnostics/server-error?email=${email}`);
    expect((await accessLogLine(server, requestId)).url).toBe(`/api/diagnostics/server-error?email=${email}`);
  } finally {
    await server.stop();
  }
});
