import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Event } from '@sentry/core';
import { appHost, e2eServerEnv, referenceApp, serverLogFile, startScript } from '@web-foundation/testing/env';
import { freePort } from '@web-foundation/testing/processes';
import { expect, test } from '@web-foundation/testing';

// The server's log (packages/foundation/src/observability/server/log.mts) as an operator reads it: one JSON line per
// event, carrying the request id and the trace id that the request's Sentry events carry, and sent to Sentry as logs.

interface LogLine {
  level: string;
  msg: string;
  request_id?: string;
  trace_id?: string;
  span_id?: string;
  err?: { type: string; message: string; stack: string };
  [field: string]: unknown;
}

/** Every line the suite's server printed so far, parsed (server-log.spec.ts fails on any that is not JSON). */
const serverLines = (): LogLine[] =>
  readFileSync(serverLogFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine);

const ofRequest = (requestId: string) => (e: Event) => e.tags?.request_id === requestId;

for (const { what, path, message } of [
  {
    what: 'an error while the server renders a page',
    path: '/diagnostics/render-error',
    message: 'Diagnostics: an exception thrown while the server renders a page',
  },
  {
    what: 'an error in getServerSideProps',
    path: '/diagnostics/ssr-error',
    message: 'Diagnostics: an exception thrown in getServerSideProps',
  },
  {
    what: 'an error in an API handler',
    path: '/api/diagnostics/server-error',
    message: 'Diagnostics: an exception thrown in an API route',
  },
]) {
  test(`${what}: exactly one JSON line, with the request id and trace id of its Sentry event and transaction`, async ({
    request,
    ingest,
  }) => {
    const requestId = crypto.randomUUID();
    const reported = ingest.waitForError(ofRequest(requestId));
    const traced = ingest.waitForTransaction(ofRequest(requestId));
    const response = await request.get(path, { headers: { 'x-request-id': requestId } });
    expect(response.status()).toBe(500);
    const event = await reported;
    const transaction = await traced;
    // The line was printed before the response was sent; the event and transaction arrived after it.
    const lines = serverLines().filter((line) => line.request_id === requestId);
    expect(lines).toHaveLength(1);
    const [line] = lines as [LogLine];
    expect(line).toMatchObject({ level: 'error', service: 'web-foundation', environment: 'production' });
    expect(line.release).toBe(event.release);
    expect(line.err).toMatchObject({ type: 'Error', message });
    expect(line.err?.stack).toContain(`Error: ${message}\n    at `);
    expect(line.trace_id).toBe(event.contexts?.trace?.trace_id);
    expect(line.trace_id).toBe(transaction.contexts?.trace?.trace_id);
    const transactionSpans = [transaction.contexts?.trace?.span_id, ...(transaction.spans ?? []).map((s) => s.span_id)];
    expect(transactionSpans).toContain(line.span_id);
    // Next logs a failed render twice; nothing of it is printed outside the request's one line.
    expect(serverLines().filter((l) => l.err?.message === message && !l.request_id)).toEqual([]);
  });
}

interface LogRecord {
  body: string;
  trace_id: string;
  attributes: Record<string, { value: unknown }>;
}

test('error lines reach Sentry as logs, batched, linked to the trace, without cookies or credentials', async ({
  request,
  ingest,
  token,
}) => {
  const secrets = { cookie: `cookie-${token}`, authorization: `token-${token}` };
  const requestIds = Array.from({ length: 10 }, () => crypto.randomUUID());
  const recordOf = (item: { items: LogRecord[] }, requestId: string) =>
    item.items.find((record) => record.attributes.request_id?.value === requestId);
  const logged = requestIds.map((requestId) =>
    ingest.waitForItem<{ items: LogRecord[] }>('log', (item) => Boolean(recordOf(item, requestId))),
  );
  const traced = ingest.waitForTransaction(ofRequest(requestIds[0]!));
  await Promise.all(
    requestIds.map((requestId) =>
      request.get(`/api/diagnostics/server-error?secret=${token}`, {
        headers: {
          cookie: `session=${secrets.cookie}`,
          authorization: `Bearer ${secrets.authorization}`,
          'x-request-id': requestId,
        },
      }),
    ),
  );
  await Promise.all(logged);
  const logItems = (await ingest.items<{ items: LogRecord[] }>('log')).filter((item) =>
    requestIds.some((requestId) => recordOf(item.payload, requestId)),
  );
  // The SDK sends what its buffer holds every 5 s: ten lines logged within a second share one or two envelopes.
  expect(logItems.length).toBeLessThanOrEqual(2);
  const transaction = await traced;
  const record = recordOf(logItems.find((item) => recordOf(item.payload, requestIds[0]!))!.payload, requestIds[0]!)!;
  expect(record).toMatchObject({ body: 'API route /api/diagnostics/server-error?secret= failed' });
  expect(record.trace_id).toBe(transaction.contexts?.trace?.trace_id);
  expect(record.attributes['sentry.trace.parent_span_id']?.value).toBe(record.attributes.span_id?.value);
  for (const item of logItems) {
    const text = JSON.stringify(item);
    for (const secret of [...Object.values(secrets), token]) expect(text).not.toContain(secret);
  }
});

/** Runs `npm start`'s server with extra variables until it exits (after `whileUp`, if it came up); its output lines. */
async function serverRun(env: Record<string, string>, whileUp?: (origin: string) => Promise<void>) {
  const port = await freePort();
  const server = spawn('node', [startScript], {
    cwd: referenceApp,
    env: { ...process.env, ...e2eServerEnv, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  server.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => server.on('exit', (code) => done(code)));
  if (whileUp) {
    try {
      const origin = `http://${appHost}:${port}`;
      await expect
        .poll(async () => (await fetch(`${origin}/api/health`).catch(() => null))?.status, { timeout: 20_000 })
        .toBe(200);
      await whileUp(origin);
    } finally {
      process.kill(-server.pid!, 'SIGTERM');
    }
  }
  return { code: await exited, lines: output.split('\n').filter(Boolean) };
}

test('LOG_LEVEL=warn drops the info lines and keeps the errors', async () => {
  const { code, lines } = await serverRun({ LOG_LEVEL: 'warn' }, async (origin) => {
    await fetch(`${origin}/`);
    expect((await fetch(`${origin}/api/diagnostics/server-error`)).status).toBe(500);
  });
  expect(code).toBe(0);
  const levels = lines.map((line) => (JSON.parse(line) as LogLine).level);
  // Without it the server prints Next's start-up lines and the drain at info.
  expect(levels).not.toContain('info');
  expect(levels).toContain('error');
});

test('LOG_LEVEL=loud stops start-up with one line that says what to set', async () => {
  const { code, lines } = await serverRun({ LOG_LEVEL: 'loud' });
  expect(code).toBe(1);
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0]!)).toMatchObject({
    level: 'fatal',
    msg: 'Configuration error: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud"); unset it to use the default info.',
  });
});
