import type { Page, Route } from '@playwright/test';
import type { ErrorEvent, Event } from '@sentry/core';
import { type IngestClient, replayIdOf, thrownException } from '@web-foundation/testing/ingest';
import { expect, installedIntegrations, replayChunks, test, throwInPage, waitForReplay } from '@web-foundation/testing';

// Issue 47: replay starts when the page is idle after the SDK, and an error raised before then starts it at once. At
// each of four moments an error is thrown, and the error event and its replay arrive at the ingest: replay on error
// is sampled at 1 (spec §9), so every such error has one.

/**
 * Waits for the error `message` and for the replay it names, and checks both: the error names a replay, that replay's
 * event and a recording of it arrive, and the replay is one the spec's sampling sends (buffered until the error, or a
 * session sampled from its start).
 */
async function expectErrorWithReplay(ingest: IngestClient, reported: Promise<ErrorEvent>) {
  const error = await reported;
  const replayId = replayIdOf(error);
  expect(replayId).toMatch(/^[0-9a-f]{32}$/);
  const replay = (await ingest.waitForReplay((r) => (r as Event & { replay_id?: string }).replay_id === replayId, {
    from: 'test start',
  })) as Event & { replay_type?: string; error_ids?: string[] };
  expect(['buffer', 'session']).toContain(replay.replay_type);
  const recordings = await ingest.items('replay_recording');
  expect(recordings.length).toBeGreaterThan(0);
  return { error, replay };
}

/** Whether the page's SDK has installed replay yet. */
const replayInstalled = async (page: Page) =>
  (await installedIntegrations(page, ['Replay'], 'Breadcrumbs')).includes('Replay');

test.describe('an error at any moment of the SDK start comes with its replay', () => {
  test('before the load event: held, then the SDK and replay start at once', async ({ page, ingest, token }) => {
    // The hero image held: the page's scripts run, its load event waits.
    const images: Route[] = [];
    await page.route(
      (url) => url.pathname === '/_next/image',
      (route) => void images.push(route),
    );
    await page.goto('/examples', { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => (window as unknown as { next?: { router?: unknown } }).next?.router);
    await expect.poll(() => images.length).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
    const reported = ingest.waitForError((e) => thrownException(e) === `before load ${token}`);
    await throwInPage(page, `before load ${token}`);
    const { error } = await expectErrorWithReplay(ingest, reported);
    // Both arrived while the image still holds the load event.
    expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
    expect(error.exception?.values?.[0]?.mechanism).toMatchObject({ handled: false });
    await Promise.all(images.map((route) => route.continue().catch(() => {})));
  });

  test('after the SDK started, before replay did: replay starts for it', async ({ page, ingest, token }) => {
    const chunks = replayChunks();
    const held: Route[] = [];
    await page.route(
      (url) => chunks.has(url.pathname),
      (route) => void held.push(route),
    );
    await page.goto('/examples');
    expect(await replayInstalled(page)).toBe(false);
    await page.evaluate((m) => console.warn(m), `breadcrumb ${token}`);
    const reported = ingest.waitForError((e) => thrownException(e) === `before replay ${token}`);
    await throwInPage(page, `before replay ${token}`);
    // The error waits for replay, whose chunk is held here: it arrives once replay has started.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    expect(await replayInstalled(page)).toBe(false);
    await Promise.all(held.map((route) => route.continue()));
    const { error } = await expectErrorWithReplay(ingest, reported);
    expect(error.breadcrumbs?.map((b) => b.message)).toContain(`breadcrumb ${token}`);
  });

  test('while replay starts: its chunk has arrived, it has not yet recorded', async ({ page, ingest, token }) => {
    const chunks = replayChunks();
    // The error is raised from a timer the chunk sets as it is evaluated: it fires before replay starts, in the task
    // after the chunk's.
    await page.route(
      (url) => chunks.has(url.pathname),
      async (route) => {
        const response = await route.fetch();
        // On a line of its own: a built chunk ends in a line comment (its `//# debugId=`), with no newline after it.
        const thrower = `\n;setTimeout(()=>{throw new Error(${JSON.stringify(`while starting ${token}`)})});`;
        await route.fulfill({ response, body: (await response.text()) + thrower });
      },
    );
    const reported = ingest.waitForError((e) => thrownException(e) === `while starting ${token}`);
    await page.goto('/examples');
    await expectErrorWithReplay(ingest, reported);
  });

  test('after replay started', async ({ page, ingest, token }) => {
    await page.goto('/examples');
    await waitForReplay(page);
    await page.evaluate((m) => console.warn(m), `breadcrumb ${token}`);
    const reported = ingest.waitForError((e) => thrownException(e) === `after replay ${token}`);
    await throwInPage(page, `after replay ${token}`);
    const { error } = await expectErrorWithReplay(ingest, reported);
    expect(error.breadcrumbs?.map((b) => b.message)).toContain(`breadcrumb ${token}`);
  });
});
