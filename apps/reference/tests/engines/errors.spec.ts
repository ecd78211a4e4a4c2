import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import type { ErrorEvent, Event, StackFrame } from '@sentry/core';
import { builtDir } from '@web-foundation/testing/env';
import { type IngestClient, replayIdOf, thrownException } from '@web-foundation/testing/ingest';
import { byText, expect, fromSite, hydrated, replayRecording, test } from '@web-foundation/testing/engines';

// Issue 30: a render error in each engine reaches the error reporter as it does from Chromium: the client-exception
// page, an event whose stack frames the SDK parsed from this engine's stack format, and the session's replay,
// compressed in a worker the CSP allows.

/**
 * A frame of the build's own scripts, as the SDK names it (`app:///_next/static/chunks/<file>.js`, with Next's
 * deployment token where the engine keeps the script's query in its stack: Firefox does, WebKit does not).
 */
const chunkFrame = /^app:\/\/\/_next\/static\/chunks\/([\w.-]+\.js)(\?dpl=[\w-]+)?$/;

/** The built code a frame points at, from its line and column on: proof that the engine's format was parsed. */
function codeAt(frame: StackFrame): string {
  const [, file = ''] = chunkFrame.exec(frame.filename ?? '') ?? [];
  const line = readFileSync(join(builtDir(), 'static', 'chunks', file), 'utf8').split('\n')[(frame.lineno ?? 0) - 1];
  return line?.slice((frame.colno ?? 0) - 1, (frame.colno ?? 0) + 100) ?? '';
}

/** Expects the event's stack parsed into frames of the build's scripts, the top one at the code that threw `message`. */
function expectParsedFrames(error: ErrorEvent, message: string) {
  const frames = error.exception?.values?.at(-1)?.stacktrace?.frames ?? [];
  const described = JSON.stringify(frames);
  expect(frames.length, described).toBeGreaterThan(0);
  for (const frame of frames) {
    expect(frame.filename, described).toMatch(chunkFrame);
    expect(frame.lineno, described).toBeGreaterThan(0);
    expect(frame.colno, described).toBeGreaterThan(0);
  }
  // Frames run from the outermost call to the throw.
  expect(codeAt(frames.at(-1)!), described).toContain(message);
}

/**
 * The replay the event names arrives, recorded from this page, compressed in the worker, its text masked. In its
 * replay context, or in the tag the SDK sets on an error of a replay still buffering.
 */
async function expectMaskedReplayOf(error: ErrorEvent, ingest: IngestClient, ours: ReturnType<typeof fromSite>) {
  const replayId = replayIdOf(error);
  expect(replayId).toMatch(/^[0-9a-f]{32}$/);
  // The replay id is made by the browser's SDK as the page starts recording, and a session sampled from its start sends
  // its replay before the error names the id: the wait looks back to the test's start.
  await ingest.waitForReplay(
    (r, item) => ours(r, item) && (r as Event & { replay_id?: string }).replay_id === replayId,
    { from: 'test start' },
  );
  await expect
    .poll(
      async () =>
        (await ingest.items('replay_recording')).filter((item) => item.envelopeHeader.event_id === replayId).length,
    )
    .toBeGreaterThan(0);
  const recordings = (await ingest.items('replay_recording')).filter(
    (item) => item.envelopeHeader.event_id === replayId,
  );
  const text = recordings
    .map((item) => {
      const raw = Buffer.from(item.binary ?? '', 'base64');
      // Deflated by the worker: the SDK falls back to plain JSON when its worker cannot start.
      return inflateSync(raw.subarray(raw.indexOf(0x0a) + 1)).toString('utf8');
    })
    .join('\n');
  expect(text).toContain('***');
  expect(text).not.toContain('Each button raises an error on purpose');
}

test('a render error: the client-exception page, an event with parsed stack frames, and its replay', async ({
  tab,
  site,
  ingest,
}) => {
  await tab.goto(`${site.origin}/diagnostics`);
  await tab.waitFor(hydrated, []);
  await tab.waitFor(replayRecording, [], { what: 'replay to record', timeoutMs: 15_000 });
  const ours = fromSite(site);
  const reported = ingest.waitForError(
    (e, item) => ours(e, item) && thrownException(e).includes('thrown while rendering in the browser'),
  );
  await tab.click(await byText(tab, 'button', 'Throw while rendering'));
  await tab.waitFor(() => document.title === 'Application error: a client-side exception has occurred', []);
  const error = await reported;
  expectParsedFrames(error, 'Diagnostics: an exception thrown while rendering in the browser');

  await expectMaskedReplayOf(error, ingest, ours);
  expect(site.requests.filter((r) => r.path.startsWith('/_next/static/media/worker-bundler.'))).toHaveLength(1);
  expect(site.cspViolations).toEqual([]);
});

test('an exception in an event handler arrives with this engine’s frames parsed', async ({ tab, site, ingest }) => {
  await tab.goto(`${site.origin}/diagnostics`);
  await tab.waitFor(hydrated, []);
  await tab.waitFor(replayRecording, [], { what: 'the SDK to start', timeoutMs: 15_000 });
  const ours = fromSite(site);
  const reported = ingest.waitForError(
    (e, item) => ours(e, item) && thrownException(e) === 'Diagnostics: an exception thrown in a browser event handler',
  );
  await tab.click(await byText(tab, 'button', 'Throw in the browser'));
  const error: ErrorEvent = await reported;
  expectParsedFrames(error, 'Diagnostics: an exception thrown in a browser event handler');
  expect(error.exception?.values?.at(-1)?.mechanism?.handled).toBe(false);
});

test('an exception right after hydration, before the SDK and replay started, arrives with its replay', async ({
  tab,
  site,
  ingest,
}) => {
  await tab.goto(`${site.origin}/diagnostics`);
  await tab.waitFor(hydrated, []);
  const ours = fromSite(site);
  const reported = ingest.waitForError(
    (e, item) => ours(e, item) && thrownException(e) === 'Diagnostics: an exception thrown in a browser event handler',
  );
  // No wait for the SDK: the loader holds the error until it has started, and replay starts for it (issue 47).
  await tab.click(await byText(tab, 'button', 'Throw in the browser'));
  await expectMaskedReplayOf(await reported, ingest, ours);
});
