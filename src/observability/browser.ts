// The browser's error reporter: started by instrumentation-client.ts before the app hydrates.
import type { Envelope } from '@sentry/core';
import * as Sentry from '@sentry/nextjs';
import { browserReportingEnv } from './env';
import { browserOptions, browserTracingOptions } from './options';

/** Envelopes kept in IndexedDB while the ingest is unreachable: errors, and the replays of their sessions. */
export const offlineQueueSize = 60;

export function startBrowserReporting(): void {
  const env = browserReportingEnv();
  if (!env.dsn && !env.spotlight) return;
  const integrations = [Sentry.browserTracingIntegration(browserTracingOptions)];
  // Spotlight (npm run dev) must be present at init: without a DSN the SDK sets up no integration added later.
  if (env.spotlight) {
    // `spotlight run` sets the sidecar's stream URL; `true` means Spotlight's default address.
    const sidecarUrl = typeof env.spotlight === 'string' ? env.spotlight : undefined;
    integrations.push(Sentry.spotlightBrowserIntegration({ sidecarUrl }));
  }
  Sentry.init({
    ...browserOptions(env),
    integrations,
    // Error events that cannot be sent (network failure) wait in IndexedDB, and the next page load sends them.
    // Only errors take a place in the queue (replays always do, by the SDK's design): traces of an outage can go.
    transport: Sentry.makeBrowserOfflineTransport(Sentry.makeFetchTransport),
    transportOptions: {
      flushAtStartup: true,
      maxQueueSize: offlineQueueSize,
      shouldStore: (envelope: Envelope) => envelope[1].some(([item]) => item.type === 'event'),
    } as Sentry.BrowserOptions['transportOptions'],
  });
  // Replay stays out of the first load: its code arrives after hydration, when the browser is idle.
  const loadReplay = () => void import('./replay').then(({ startReplay }) => startReplay());
  if ('requestIdleCallback' in window) window.requestIdleCallback(loadReplay, { timeout: 3000 });
  else setTimeout(loadReplay, 1000);
}
