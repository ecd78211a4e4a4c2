// The browser's error reporter, in a chunk of its own: loader.ts loads it after the page has loaded.
import type { Client, Envelope, Event, EventHint, EventProcessor, Integration, Span } from '@sentry/core';
import * as Sentry from '@sentry/nextjs';
import type { BrowserSettings } from '../../config/browserSettings.mts';
import { nextTask, pageLeaving, type HeldError } from './loader';
import { browserOptions, browserTracingOptions } from '../options';
import { urlRedaction, withoutPageQuery } from '../privacy/events';

export { captureUnderscoreErrorException } from '@sentry/nextjs';

/** Envelopes kept in IndexedDB while the ingest is unreachable: errors, and the replays of their sessions. */
export const offlineQueueSize = 60;

/**
 * The SDK's default browser integrations this app leaves out, each costing start-up or every call and giving the spec
 * and its users nothing they need (docs/observability.md, "Browser integrations"):
 * - BrowserApiErrors wraps setTimeout, setInterval, requestAnimationFrame, XMLHttpRequest and addEventListener on
 *   dozens of prototypes, for stack details of errors the global handlers report anyway (the app's scripts are
 *   same-origin, so the browser gives them their full message and stack);
 * - FunctionToString only undoes those wrappers' names;
 * - CultureContext reads the locale and time zone into every event, and its first Intl call loads the locale's data,
 *   a long task on a slow phone;
 * - ConversationId tags events with an AI conversation id, which this app has none of.
 */
export const leftOutIntegrations = new Set([
  'BrowserApiErrors',
  'FunctionToString',
  'CultureContext',
  'ConversationId',
]);

/** Default integrations that start in a later task than `init`, in this order (see startBrowserReporting). */
export const laterIntegrations = ['BrowserTracing', 'Breadcrumbs'] as const;

/**
 * Transactions are processed and sent in a task after the one that ended them. Ending the page-load transaction reads
 * the browser's performance entries into spans (tens of milliseconds on a slow phone); building, normalising and
 * sending the event is as much again. Apart, neither blocks input for 50 ms at 4× CPU slowdown. Not while the visitor
 * leaves: the SDK ends the page load on `pagehide` and flushes, and a document being unloaded runs no later task.
 */
export const sendTransactionsInNextTask: Integration = {
  name: 'SendTransactionsInNextTask',
  processEvent: (event) => (event.type === 'transaction' && !pageLeaving() ? nextTask().then(() => event) : event),
};

/** Longest an error waits for replay to start (its chunk may be slow to arrive, or not arrive at all). */
export const replayWaitMs = 10_000;

/**
 * Replay records from its start on, and its buffer is sent only for errors it sees after that. An error raised before
 * replay started (before the SDK loaded, or in its first seconds) therefore starts replay at once and waits for it
 * (`replayWaitMs` at most), then goes through replay's own event processor, which the SDK's pipeline had not yet
 * listed when the error entered it: the error names the replay, and replay sends it. No processor before it may wait
 * on an error event, so that replay is either listed already or started here.
 * Why: docs/decisions.md, "An error before replay's start starts it".
 */
export function replayBeforeErrors(startReplay: () => Promise<void>, waitMs = replayWaitMs): Integration {
  return {
    name: 'ReplayBeforeErrors',
    processEvent: async (event: Event, hint: EventHint, client) => {
      if (event.type !== undefined || client.getIntegrationByName('Replay')) return event;
      let timer: ReturnType<typeof setTimeout> | undefined;
      // A replay that fails to start is reported where it is started (loadReplay); the error goes on without one.
      const started = startReplay().catch(() => undefined);
      await Promise.race([started, new Promise((resume) => (timer = setTimeout(resume, waitMs)))]);
      clearTimeout(timer);
      const replayProcessor = Sentry.getIsolationScope()
        .getScopeData()
        .eventProcessors.find((processor: EventProcessor) => processor.id === 'Replay');
      return replayProcessor ? ((await replayProcessor(event, hint)) as Event | null) : event;
    },
  };
}

/** Replay's chunk, loaded and started once: at the first idle moment after the SDK, or by the first error. */
let replay: Promise<void> | undefined;
function startReplayOnce(collectPersonalData: boolean): Promise<void> {
  replay ??= import('./replay').then(
    async ({ startReplay }) => {
      await nextTask();
      startReplay(collectPersonalData);
    },
    () => undefined,
  );
  return replay;
}

/**
 * Runs `start` now, or, while the visitor is leaving or the page is hidden (pageLeaving), once it is shown again:
 * restored from the back/forward cache, or a tab opened in the background brought to the front.
 */
export function whenPageShown(start: () => void): void {
  if (!pageLeaving()) return start();
  const shown = () => {
    if (pageLeaving()) return;
    removeEventListener('pageshow', shown);
    document.removeEventListener('visibilitychange', shown);
    start();
  };
  addEventListener('pageshow', shown);
  document.addEventListener('visibilitychange', shown);
}

/**
 * Adds browser tracing, which starts the page-load transaction as it is added: the first span it starts. Resolves
 * once that transaction has ended, or at once when it does not record (tracing off or sampled out, a crawler's user
 * agent). Only the client's hooks: using the SDK's span helpers here made Turbopack keep its debug logging in the
 * SDK's chunk (apps/reference/tests/reporting.spec.ts, "ships without its debug logging").
 */
export function addTracingUntilPageLoadEnds(client: Client, tracing: Integration): Promise<void> {
  let pageLoad: Span | undefined;
  const stopWatching = client.on('spanStart', (span) => void (pageLoad ??= span));
  Sentry.addIntegration(tracing);
  stopWatching();
  const started = pageLoad;
  if (!started?.isRecording()) return Promise.resolve();
  return new Promise((resume) => {
    const stop = client.on('spanEnd', (span) => {
      if (span !== started) return;
      stop();
      resume();
    });
  });
}

/**
 * Starts the SDK in short tasks, each under 50 ms at 4× CPU slowdown: `init` with error reporting, then tracing (its
 * page-load transaction still starts at the navigation: the SDK dates it from the time origin, and web vitals and
 * resource timings come from the browser's buffers), then breadcrumbs, then replay once the page load has ended. The
 * errors raised before the SDK arrived are reported as its global handlers would have, in the first task.
 */
export async function startBrowserReporting(env: BrowserSettings, held: HeldError[]): Promise<void> {
  const startReplay = () => startReplayOnce(env.collectPersonalData);
  const integrations: Integration[] = [sendTransactionsInNextTask];
  // Spotlight (npm run dev) must be present at init: without a DSN the SDK sets up no integration added later.
  if (env.spotlight) {
    // `spotlight run` sets the sidecar's stream URL; `true` means Spotlight's default address.
    const sidecarUrl = typeof env.spotlight === 'string' ? env.spotlight : undefined;
    integrations.push(Sentry.spotlightBrowserIntegration({ sidecarUrl }));
  }
  integrations.push(replayBeforeErrors(startReplay));
  // Last, so that it sees the URLs every other integration added (BrowserTracing and Breadcrumbs add none to events).
  if (!env.collectPersonalData) integrations.push(urlRedaction);
  const later = new Set<string>(laterIntegrations);
  const client = Sentry.init({
    ...browserOptions(env),
    integrations: (defaults) => [
      ...defaults.filter((i) => !leftOutIntegrations.has(i.name) && !later.has(i.name)),
      ...integrations,
    ],
    // Error events that cannot be sent (network failure) wait in IndexedDB, and the next page load sends them.
    // Only errors take a place in the queue (replays always do, by the SDK's design): traces of an outage can go.
    transport: Sentry.makeBrowserOfflineTransport(Sentry.makeFetchTransport),
    transportOptions: {
      flushAtStartup: true,
      maxQueueSize: offlineQueueSize,
      shouldStore: (envelope: Envelope) => envelope[1].some(([item]) => item.type === 'event'),
    } as Sentry.BrowserOptions['transportOptions'],
  });
  for (const { error, handler, at } of held) {
    Sentry.withScope((scope) => {
      // Dated when it was raised, not when the SDK arrived.
      scope.addEventProcessor((event) => ({ ...event, timestamp: at }));
      Sentry.captureException(error, {
        mechanism: { handled: false, type: `auto.browser.global_handlers.${handler}` },
      });
    });
  }
  await nextTask();
  const tracing = Sentry.browserTracingIntegration({
    ...browserTracingOptions(env),
    ...(env.collectPersonalData ? {} : { beforeStartSpan: withoutPageQuery }),
  });
  const pageLoad = client ? addTracingUntilPageLoadEnds(client, tracing) : Promise.resolve();
  await nextTask();
  Sentry.addIntegration(Sentry.breadcrumbsIntegration());
  // Replay's code arrives in a chunk of its own once the page load has ended, at the next idle moment (at once for an
  // error: replayBeforeErrors). Why: docs/decisions.md, "Replay's recorder after the page load".
  await pageLoad;
  // Not for a visitor who is leaving (the page load ends on `pagehide` too): for one who comes back.
  const loadReplay = () => whenPageShown(() => void startReplay());
  if ('requestIdleCallback' in window) window.requestIdleCallback(loadReplay, { timeout: 3000 });
  else setTimeout(loadReplay, 1000);
}
