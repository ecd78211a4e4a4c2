// `npm run dev` tells the truth (issues 37 and 46): the guide's app (apps/guide) under its `dev` script, started once: `next dev` with the real Spotlight sidecar beside it,
// and the server's log printed for a person. What Spotlight received is read through its own API, the server-sent
// events of `/stream`. Runs alone (playwright.development.config.ts): it needs none of the production suite's servers.
// Ports: E2E_DEV_PORT and E2E_SPOTLIGHT_PORT, else free ones.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startBackend, type Backend, migrate, startPostgres, type Postgres } from '@web-foundation/testing/services';
import { testSettings as guideSettings } from './settings';
import { testedApp } from '@web-foundation/testing/apps';
import { freePort } from '@web-foundation/testing/processes';

/** The app `next dev` serves, run in its own folder as `npm run dev` runs it. */
const copy = testedApp('guide').dir;

/** What the app's package.json `dev` runs, as node's arguments: the foundation's bin as npm linked it, and `dev`. */
function devCommand(): string[] {
  const manifest = JSON.parse(readFileSync(`${copy}/package.json`, 'utf8')) as { scripts: { dev: string } };
  const command = /^(?:exec )?web-foundation (dev)$/.exec(manifest.scripts.dev)?.[1];
  if (!command) throw new Error(`${copy}/package.json's dev script no longer runs "web-foundation dev".`);
  return [resolve('node_modules/.bin/web-foundation'), command];
}

/** An envelope as Spotlight's `/stream` sends it: its header and its items, each a header and a payload. */
type Envelope = [Record<string, unknown>, [{ type: string }, Record<string, unknown>][]];
interface SpanPayload {
  op?: string;
  description?: string;
}
interface EventPayload {
  type?: string;
  transaction?: string;
  contexts?: { trace?: { op?: string } };
  spans?: SpanPayload[];
  exception?: { values?: { value?: string }[] };
}

/** Reads Spotlight's `/stream` (server-sent events, every envelope it holds and then each new one) into `into`. */
async function readSpotlight(url: string, into: Envelope[], signal: AbortSignal) {
  const response = await fetch(url, { signal, headers: { accept: 'text/event-stream' } });
  if (!response.ok || !response.body) throw new Error(`Spotlight's ${url} answered ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  void (async () => {
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) {
        pending += decoder.decode(read.value, { stream: true });
        const messages = pending.split('\n\n');
        pending = messages.pop() ?? '';
        for (const message of messages) {
          const data = message
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart())
            .join('\n');
          if (data) into.push(JSON.parse(data) as Envelope);
        }
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
  })();
}

/** The payloads of one item type among what Spotlight received. */
function itemsOf(envelopes: Envelope[], type: string): EventPayload[] {
  return envelopes.flatMap(([, items]) =>
    items.filter(([header]) => header.type === type).map(([, payload]) => payload),
  );
}

let dev: ChildProcess;
let output = '';
let origin: string;
let backend: Backend;
let postgres: Postgres;
const received: Envelope[] = [];
const stopReading = new AbortController();

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(60_000);
  backend = await startBackend({ '/stock': { items: 3 }, '/greeting': { greeting: 'Hello from the backend' } });
  postgres = await startPostgres();
  migrate(postgres.url, copy);
  const port = Number(process.env.E2E_DEV_PORT) || (await freePort());
  const spotlightPort = Number(process.env.E2E_SPOTLIGHT_PORT) || (await freePort());
  origin = `http://127.0.0.1:${port}`;
  // Next listens as `localhost` (loopback), the name it trusts by default, and the tests open it at 127.0.0.1: with
  // `-H 127.0.0.1` Next would trust that name too, and hot reload would connect without `allowedDevOrigins`.
  dev = spawn('node', [...devCommand(), '-H', 'localhost', '-p', String(port)], {
    cwd: copy,
    detached: true,
    env: {
      ...process.env,
      // What `npm run` adds.
      PATH: `${resolve('node_modules/.bin')}:${process.env.PATH}`,
      NEXT_TELEMETRY_DISABLED: '1',
      SENTRY_SPOTLIGHT: `http://localhost:${spotlightPort}/stream`,
      SENTRY_TRACES_SAMPLE_RATE: '1',
      ENABLE_DIAGNOSTICS: '1',
      ...guideSettings,
      BACKEND_URL: backend.origin,
      DATABASE_URL: postgres.url,
    },
  });
  dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await expect
    .poll(
      () =>
        fetch(`${origin}/api/health`).then(
          (r) => r.status,
          () => 0,
        ),
      { timeout: 45_000 },
    )
    .toBe(200);
  await readSpotlight(`http://localhost:${spotlightPort}/stream`, received, stopReading.signal);
});

test.afterAll(async () => {
  stopReading.abort();
  // The dev script, next dev and the sidecar: the whole group it leads.
  if (dev?.pid) process.kill(-dev.pid, 'SIGTERM');
  await backend?.stop();
  await postgres?.stop();
});

test("the first request the server answers reaches Spotlight: it waited for the server's reporting to start", async () => {
  // beforeAll's first answered request was /api/health, sent as soon as Next listened, before register() ran.
  await expect
    .poll(() => itemsOf(received, 'transaction').filter((t) => t.transaction === 'GET /api/health').length)
    .toBeGreaterThan(0);
});

test('a call from server code carries sentry-trace, traceparent and baggage, as in production', async () => {
  const answer = await fetch(`${origin}/api/hello-backend`);
  expect(answer.status).toBe(200);
  const call = backend.received.find((r) => r.path === '/stock');
  expect(call).toBeDefined();
  const { 'sentry-trace': sentryTrace, traceparent, baggage } = call!.headers;
  const traceId = String(sentryTrace).split('-')[0];
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(traceparent).toContain(`-${traceId}-`);
  expect(baggage).toContain(`sentry-trace_id=${traceId}`);
  // The transaction reaches Spotlight once: through the SDK's transport, not a second time through its integration.
  const named = () => itemsOf(received, 'transaction').filter((t) => t.transaction === 'GET /api/hello-backend');
  await expect.poll(() => named().length).toBeGreaterThan(0);
  await new Promise((done) => setTimeout(done, 1_000));
  expect(named()).toHaveLength(1);
});

const transactions = () => itemsOf(received, 'transaction');
const errors = () => itemsOf(received, 'event').map((e) => e.exception?.values?.[0]?.value);

test("Spotlight shows the server's as Sentry would: a page's transaction with its query, an API route's error and log", async ({
  page,
}) => {
  await page.goto(`${origin}/hello-backend`);
  await expect(page.getByRole('heading', { name: 'Hello from the backend' })).toBeVisible();
  expect((await fetch(`${origin}/api/diagnostics/server-error`)).status).toBe(500);
  // The server's transaction, with the query as a db span (and the backend call as an http.client span).
  await expect
    .poll(() => {
      const spans = transactions().find((t) => t.transaction === 'GET /hello-backend')?.spans ?? [];
      return spans.map((span) => `${span.op} ${span.description}`);
    })
    .toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^db SELECT name FROM products/),
        expect.stringMatching(/^http\.client GET /),
      ]),
    );
  await expect.poll(errors).toContain('Diagnostics: an exception thrown in an API route');
  // The route's failure is logged at error, so it is a Sentry log too; the SDK sends logs in batches, 5 s apart.
  await expect
    .poll(() => itemsOf(received, 'log').flatMap((log) => (log as { items?: { body?: string }[] }).items ?? []), {
      timeout: 10_000,
    })
    .toContainEqual(expect.objectContaining({ body: 'API route /api/diagnostics/server-error failed' }));
  expect(output).not.toContain('No content type');
});

test("Spotlight shows the browser's as Sentry would: a page load, and an exception thrown while rendering", async ({
  page,
}) => {
  await page.goto(`${origin}/diagnostics`);
  await page.getByRole('button', { name: 'Throw while rendering' }).click();
  await expect
    .poll(() =>
      transactions()
        .filter((t) => t.contexts?.trace?.op === 'pageload')
        .map((t) => t.transaction),
    )
    .toContain('/diagnostics');
  await expect.poll(errors).toContain('Diagnostics: an exception thrown while rendering in the browser');
});

test("a product's route that revalidates its page answers a clear no-op: no 500, no error event", async () => {
  // The row and the session, as a signed-in user renaming a product would have them (docs/build-your-product.md, 4f).
  const client = new pg.Client(postgres.url);
  await client.connect();
  const { rows } = await client.query<{ id: string }>("INSERT INTO products (name) VALUES ('figs') RETURNING id::text");
  await client.end();
  const id = rows[0]!.id;
  const demo = { email: 'demo@example.com', password: 'correct horse battery staple' };
  const signIn = await fetch(`${origin}/api/sign-in`, {
    method: 'POST',
    body: new URLSearchParams(demo),
    redirect: 'manual',
  });
  expect(signIn.status).toBe(303);
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  expect(await (await fetch(`${origin}/products/${id}`)).text()).toContain('<h1>figs</h1>');

  const renamed = await fetch(`${origin}/api/products/${id}`, {
    method: 'PUT',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'dates' }),
  });
  expect(await renamed.json()).toEqual({
    id,
    name: 'dates',
    revalidated: [],
    skipped: 'next dev renders every page anew: there is nothing to revalidate.',
  });
  expect(renamed.status).toBe(200);
  expect(await (await fetch(`${origin}/products/${id}`)).text()).toContain('<h1>dates</h1>');
  // The route's transaction arrived; Next's failure (`Failed to revalidate`, on `PUT /_error`) did not, nor its log.
  await expect.poll(() => transactions().map((t) => t.transaction)).toContain('PUT /api/products/[id]');
  await new Promise((done) => setTimeout(done, 1_000));
  expect(transactions().map((t) => t.transaction)).not.toContain('PUT /_error');
  expect(errors().filter((message) => /revalidate/i.test(message ?? ''))).toEqual([]);
  expect(output).not.toContain('Failed to revalidate');
});

/** The console's lines from the one that holds `text`, to the last of the record it begins (its indented frames). */
function recordLines(text: string): string[] {
  const lines = stripVTControlCharacters(output).split('\n');
  const start = lines.findIndex((line) => line.includes(text));
  if (start === -1) return [];
  let end = start + 1;
  while (end < lines.length && /^\s+at /.test(lines[end]!)) end++;
  return lines.slice(start, end);
}

/** `file:line:` of the line of `file` that holds `text`, `file` as the console names it: from the app's folder. */
function placeOf(file: string, text: string): string {
  const line =
    readFileSync(resolve(copy, file), 'utf8')
      .split('\n')
      .findIndex((l) => l.includes(text)) + 1;
  expect(line).toBeGreaterThan(0);
  return `${file}:${line}:`;
}

test("a thrown error prints one line, with the file and line that threw: the guide's page and API route, and the foundation's render error", async () => {
  const thrown = "throw new Error('";
  const cases = [
    { path: '/hello?fail=1', message: 'Hello failed on purpose', place: placeOf('src/pages/hello.tsx', thrown) },
    {
      path: '/api/hello?fail=1',
      message: 'Hello API failed on purpose',
      place: placeOf('src/pages/api/hello.ts', thrown),
    },
    {
      path: '/diagnostics/render-error',
      message: 'Diagnostics: an exception thrown while the server renders a page',
      place: placeOf(relative(copy, 'packages/foundation/src/pages/diagnostics/render-error.tsx'), thrown),
    },
  ];
  for (const { path, message, place } of cases) {
    expect((await fetch(`${origin}${path}`)).status).toBe(500);
    await expect.poll(() => recordLines(message).length, { message }).toBeGreaterThan(0);
    const lines = recordLines(message);
    // One record, one line, one prefix (its time and level), then its message and where it was thrown: no frame of
    // Next's, React's, Node's or the foundation's plumbing below it.
    expect(lines, message).toHaveLength(1);
    expect(lines[0], message).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR /);
    expect(lines[0]!.match(/\d\d:\d\d:\d\d/g), message).toHaveLength(1);
    expect(lines[0]!.slice(lines[0]!.indexOf(' at ')), message).toContain(` at `);
    expect(lines[0]!.slice(lines[0]!.indexOf(' at ')), message).toContain(place);
  }
});

test('every line of the server is readable: no JSON record, no field on a line of its own', async () => {
  await fetch(`${origin}/api/health`);
  const lines = stripVTControlCharacters(output).split('\n').filter(Boolean);
  expect(lines.filter((line) => /^\d\d:\d\d:\d\d\.\d{3} [A-Z]+ /.test(line)).length).toBeGreaterThan(0);
  expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
  expect(lines.filter((line) => /^\s+"?\w+"?: /.test(line))).toEqual([]);
});

test('at 127.0.0.1 a page loads with no console error, and hot reload connects', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const hotReload = page.waitForEvent('websocket', (socket) => /\/_next\/(webpack-)?hmr/.test(socket.url()));
  await page.goto(`${origin}/`);
  const socket = await hotReload;
  // Next closes a socket it refuses at once; an accepted one sends the build's state.
  await socket.waitForEvent('framereceived', { timeout: 15_000 });
  expect(socket.isClosed()).toBe(false);
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});
