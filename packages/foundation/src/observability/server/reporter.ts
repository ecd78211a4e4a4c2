// The Node server's error reporter: started by instrumentation.ts register().
import type { ServerResponse } from 'node:http';
import { spanIsSampled, type Integration, type LogSeverityLevel, type Scope } from '@sentry/core';
import * as Sentry from '@sentry/nextjs';
import { traceCacheCalls } from './cacheSpans';
import { reportingOn, type ReportingEnv } from '../reportingEnv';
import { traceNextSpans } from './nextSpans';
import { continueTraceparentTraces } from './traceparent';
import { serverOptions } from '../options';
import { matchedRoute, routeTransactionName } from './transactionNames';
import { serverLogger, setRequestLogFields, type RequestLogFields } from './log.mts';
import { serverTransport, serverTransportOptions } from './transport';
import { urlRedaction } from '../privacy/events';
import { flushReports, processGlobals } from '../../processGlobals.mts';
import foundationManifest from '../../../package.json';

/**
 * The response a request's isolation scope isolates, kept on the scope itself: how a log line finds its request id.
 * A property rather than a WeakMap entry, which costs more on every request; the SDK forks a new scope for each
 * request, and a fork does not copy it.
 */
const responseOfScope = Symbol('response');
type ScopeOfRequest = Scope & { [responseOfScope]?: ServerResponse };

/** The proxy's request id: on the response once the proxy ran, on the request Next forwards. */
function requestIdOfResponse(response: ServerResponse) {
  const id = response.getHeader('x-request-id') ?? response.req.headers['x-request-id'];
  return typeof id === 'string' ? id : undefined;
}

/** The fields of a line logged inside a request: the ids its transaction and error events carry. */
function activeRequestLogFields(): RequestLogFields {
  const span = Sentry.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  const response = (Sentry.getIsolationScope() as ScopeOfRequest)[responseOfScope];
  return { request_id: response && requestIdOfResponse(response), trace_id: traceId, span_id: spanId };
}

/**
 * One transaction per request from Sentry's own HTTP server instrumentation (Node's diagnostics channel), named after
 * Next's route when the response ends. Spec §8 drops 404 transactions only; the SDK's default would drop 3xx, 401 and
 * 403 too.
 */
const requestTransactions = Sentry.httpIntegration({
  ignoreStatusCodes: [404],
  onSpanCreated(span, request, response) {
    const requestScope: ScopeOfRequest = Sentry.getIsolationScope();
    requestScope[responseOfScope] = response as unknown as ServerResponse;
    // An unsampled request's transaction is never sent (SENTRY_TRACES_SAMPLE_RATE below 1): nothing to name or tag.
    if (!spanIsSampled(span)) return;
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

/**
 * One request, one transaction. A span that ends after its request's transaction was sent (the client left mid-render:
 * the transaction ends when the connection closes, and the render, the page cache's writes and their Redis commands go
 * on) is sent by the SDK as a transaction of its own, marked `sentry.parent_span_already_sent` (@sentry/core's
 * deferSegmentSpanCapture). The app's own spans start only under an open transaction; this drops the rest, such as the
 * SDK's Redis command spans.
 */
const orphanSpansDropped: Integration = {
  name: 'OrphanSpansDropped',
  processEvent: (event) =>
    event.type === 'transaction' && event.contexts?.trace?.data?.['sentry.parent_span_already_sent'] ? null : event,
};

/**
 * The SDK's defaults the server leaves out: `Http` (replaced by `requestTransactions`) and `Dedupe`, a server default
 * since SDK 11.2, which drops an error event identical to the one before it. In a browser that is one visitor repeating
 * an action; on a server it is another request failing, an occurrence the operator counts (event volume, alerts).
 */
const leftOutDefaults = new Set(['Http', 'Dedupe']);

/**
 * What an app runs on, for its error events: the foundation's version and the versions of Next.js, React and the SDK
 * it pins (its peer dependencies, pinned exactly). The SDK's `Modules` reads the app's package.json, which names only
 * the foundation (apps/web gets the framework through it), so it alone would not say which Next.js failed.
 */
const frameworkModules: Integration = {
  name: 'FrameworkModules',
  processEvent: (event) =>
    event.type === 'transaction'
      ? event
      : {
          ...event,
          modules: {
            ...foundationManifest.peerDependencies,
            [foundationManifest.name]: foundationManifest.version,
            ...event.modules,
          },
        },
};

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

export function startServerReporting(env: ReportingEnv, logLevels: LogSeverityLevel[]): void {
  if (!reportingOn(env)) {
    serverLogger().info(
      'Error reporting is off: no SENTRY_DSN or NEXT_PUBLIC_SENTRY_DSN is set. Set them to report errors and traces to Sentry (see docs/observability.md).',
    );
    return;
  }
  Sentry.init({
    ...serverOptions(env),
    // No OpenTelemetry pipeline: the SDK's own spans, and only the Next spans that measure the app (nextSpans.ts).
    enableOpenTelemetrySetup: false,
    integrations: (defaults) => [
      ...defaults
        .filter((i) => !leftOutDefaults.has(i.name))
        .map((i) => (errorContextOnly.has(i.name) ? onErrorsOnly(i) : i)),
      requestTransactions,
      orphanSpansDropped,
      frameworkModules,
      // The logger's lines at SENTRY_LOG_LEVEL and above, as Sentry logs linked to the active trace (SDK 11 has no
      // enableLogs switch: an integration that captures logs is the switch); never as events (errors are reported once,
      // by the SDK's own hooks).
      Sentry.pinoIntegration({ log: { levels: logLevels }, error: { levels: [] } }),
      // Last, so that it sees the URLs every other integration added.
      ...(env.collectPersonalData ? [] : [urlRedaction]),
    ],
    transport: serverTransport,
    // The init options type only knows the Node transport's options; the offline transport adds createStore.
    transportOptions: serverTransportOptions as Sentry.NodeOptions['transportOptions'],
  });
  traceNextSpans();
  continueTraceparentTraces();
  setRequestLogFields(activeRequestLogFields);
  traceCacheCalls();
  // Graceful shutdown sends what is pending before the process exits
  // (packages/foundation/src/server/preload/drain.mts).
  processGlobals[flushReports] = (timeoutMs: number) => Sentry.flush(timeoutMs);
}
