// Init options for every runtime, built from the spec's values (packages/foundation/src/config/specification.mts) and
// the reporting environment.
import { withStaticSpan } from '@sentry/core';
import type { BrowserOptions, ErrorEvent, NodeOptions } from '@sentry/nextjs';
import type { BrowserSettings } from '../config/browserSettings.mts';
import { reporting } from '../config/specification.mts';
import type { ReportingEnv } from './reportingEnv';
import { ignoredBrowserNoise, reportableEvent } from './filters';
import { dataCollection } from './privacy/dataCollection';
import { redactedBreadcrumb, redactedMetric, redactedSpan } from './privacy/events';

/**
 * Not-found answers are not transactions worth reporting (spec §8): any transaction whose response was 404.
 * Matched on the finished transaction, which is why every runtime uses `traceLifecycle: 'static'`.
 */
export const ignoredSpans: NonNullable<NodeOptions['ignoreSpans']> = [
  { name: /(?:)/, attributes: { 'http.response.status_code': 404 } },
  // The browser names a not-found page load after Next's /404 page.
  /^\/404$/,
];

/** Server events carry the proxy's request id as a tag, so an event and a log line can be matched (X-Request-Id). */
export function withRequestIdTag(event: ErrorEvent): ErrorEvent {
  const requestId = event.request?.headers?.['x-request-id'];
  if (!requestId) return event;
  return { ...event, tags: { ...event.tags, request_id: requestId } };
}

function sharedOptions(env: ReportingEnv) {
  return {
    dsn: env.dsn,
    environment: env.environment,
    release: env.release,
    tracesSampleRate: env.tracesSampleRate,
    // A W3C traceparent beside sentry-trace and baggage, so that a backend traced with OpenTelemetry joins the trace.
    propagateTraceparent: true,
    // Whole transactions, sent when they finish: only then is a 404 known (span streaming decides at span start).
    traceLifecycle: 'static' as const,
    maxBreadcrumbs: reporting.maxBreadcrumbs,
    attachStacktrace: true,
    dataCollection: dataCollection(env.collectPersonalData),
    // Spans as a transaction carries them (`traceLifecycle: 'static'`); a callback of the other shape is never called.
    ...(env.collectPersonalData
      ? {}
      : {
          beforeBreadcrumb: redactedBreadcrumb,
          beforeSendSpan: withStaticSpan(redactedSpan),
          beforeSendMetric: redactedMetric,
        }),
    ignoreSpans: ignoredSpans,
    beforeSend: reportableEvent,
  };
}

/** Spotlight's sidecar when `spotlight run` gives none: its default address. */
const defaultSidecarUrl = 'http://localhost:8969/stream';

/**
 * Spotlight's sidecar as a DSN (it takes envelopes at `/api/<project>/envelope/` too). The SDK adds trace headers to
 * outgoing calls, and trace meta tags to pages, only when it has a transport, which only a DSN gives it: with Spotlight
 * alone (`npm run dev`) the backend calls carried no `sentry-trace`, `traceparent` or `baggage`.
 */
export function sidecarDsn(spotlight: string | true): string {
  const sidecar = new URL(spotlight === true ? defaultSidecarUrl : spotlight);
  return `${sidecar.protocol}//spotlight@${sidecar.host}/0`;
}

/** Options of the Node server (instrumentation.ts). */
export function serverOptions(env: ReportingEnv): NodeOptions {
  const viaSidecar = !env.dsn && env.spotlight !== false ? sidecarDsn(env.spotlight) : undefined;
  return {
    ...sharedOptions(env),
    ...(viaSidecar ? { dsn: viaSidecar } : {}),
    beforeSend: (event) => reportableEvent(withRequestIdTag(event)),
    // With the sidecar as the DSN, Spotlight's own integration would show each envelope twice.
    spotlight: viaSidecar ? false : env.spotlight,
  };
}

/** Options of the browser (instrumentation-client.ts); integrations are added there. */
export function browserOptions(env: ReportingEnv): BrowserOptions {
  return {
    ...sharedOptions(env),
    ignoreErrors: [...ignoredBrowserNoise],
    replaysSessionSampleRate: reporting.replaysSessionSampleRate,
    replaysOnErrorSampleRate: reporting.replaysOnErrorSampleRate,
  };
}

/**
 * The page load's resource spans, by the SDK's op (`resource.` and the Resource Timing initiator type): every type the
 * browser names, except fetch and XMLHttpRequest, for which the SDK makes no resource span (they get `http.client`).
 */
export const resourceSpanOps = [
  'resource.script',
  'resource.link',
  'resource.css',
  'resource.img',
  'resource.image',
  'resource.icon',
  'resource.iframe',
  'resource.frame',
  'resource.audio',
  'resource.video',
  'resource.track',
  'resource.embed',
  'resource.object',
  'resource.input',
  'resource.body',
  'resource.beacon',
  'resource.ping',
  'resource.early-hints',
  'resource.navigation',
  'resource.other',
] as const;

/**
 * Options of browserTracingIntegration: the spec's timeouts (§9), and no resource spans unless the build asked for
 * them. The SDK builds them in the task that ends the page load, about 4 ms each on a slow phone
 * (docs/performance.md); the navigation's steps, paints, long animation frames and web vitals stay.
 */
export function browserTracingOptions(env: Pick<BrowserSettings, 'resourceSpans'>) {
  return {
    idleTimeout: reporting.idleTimeoutMs,
    finalTimeout: reporting.finalTimeoutMs,
    childSpanTimeout: reporting.childSpanTimeoutMs,
    ignoreResourceSpans: env.resourceSpans ? [] : [...resourceSpanOps],
  };
}

/** Options of replayIntegration: mask all text and inputs, block media (the SDK's defaults, stated). */
export const replayOptions = { maskAllText: true, maskAllInputs: true, blockAllMedia: true } as const;
