// The Node server's error reporter: started by instrumentation.ts register().
import type { ServerResponse } from 'node:http';
import type { Integration } from '@sentry/core';
import * as Sentry from '@sentry/nextjs';
import { reportingOn, serverReportingEnv } from './env';
import { traceCacheCalls } from './cacheSpans';
import { traceNextSpans } from './nextSpans';
import { serverOptions } from './options';
import { matchedRoute, routeTransactionName } from './serverRoutes';
import { serverTransport, serverTransportOptions } from './serverTransport';

/**
 * One transaction per request from Sentry's own HTTP server instrumentation (Node's diagnostics channel), named after
 * Next's route when the response ends. Spec §8 drops 404 transactions only; the SDK's default would drop 3xx, 401 and
 * 403 too.
 */
const requestTransactions = Sentry.httpIntegration({
  ignoreStatusCodes: [404],
  onSpanCreated(span, request, response) {
    const requestScope = Sentry.getIsolationScope();
    // Registered before the SDK's own listener, which ends the span: the name and the tag are set first.
    response.once('close', () => {
      // The proxy's request id, as errors carry it, so that a transaction and a log line can be matched.
      const requestId = (response as unknown as ServerResponse).getHeader('x-request-id');
      if (typeof requestId === 'string') requestScope.setTag('request_id', requestId);
      const route = matchedRoute(request);
      const name = routeTransactionName(request.method, route);
      if (!name) return;
      span.updateName(name);
      span.setAttributes({ 'http.route': route, 'sentry.segment.name.source': 'route' });
    });
  },
});

/** What the SDK adds to every event that says nothing about one request: errors keep it, transactions do without. */
const errorContextOnly = new Set(['Context', 'Modules']);

/** The integration, with its event processing applied to error events only. */
function onErrorsOnly(integration: Integration): Integration {
  const { processEvent } = integration;
  if (!processEvent) return integration;
  return {
    ...integration,
    processEvent: (event, hint, client) =>
      event.type === 'transaction' ? event : processEvent.call(integration, event, hint, client),
  };
}

export function startServerReporting(): void {
  const env = serverReportingEnv(process.env);
  if (!reportingOn(env)) {
    console.info(
      'Error reporting is off: no SENTRY_DSN or NEXT_PUBLIC_SENTRY_DSN is set. Set them to report errors and traces to Sentry (see README, "Error reporting").',
    );
    return;
  }
  Sentry.init({
    ...serverOptions(env),
    // No OpenTelemetry pipeline: the SDK's own spans, and only the Next spans that measure the app (nextSpans.ts).
    enableOpenTelemetrySetup: false,
    integrations: (defaults) => [
      ...defaults.filter((i) => i.name !== 'Http').map((i) => (errorContextOnly.has(i.name) ? onErrorsOnly(i) : i)),
      requestTransactions,
    ],
    transport: serverTransport,
    // The init options type only knows the Node transport's options; the offline transport adds createStore.
    transportOptions: serverTransportOptions as Sentry.NodeOptions['transportOptions'],
  });
  traceNextSpans();
  traceCacheCalls();
  // Graceful shutdown sends what is pending before the process exits (scripts/server-lifecycle.mjs).
  (globalThis as Record<symbol, unknown>)[Symbol.for('app.flushReports')] = (timeoutMs: number) =>
    Sentry.flush(timeoutMs);
}
