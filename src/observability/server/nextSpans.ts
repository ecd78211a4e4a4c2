// Next.js reports its own work as OpenTelemetry spans, which cost nothing until a tracer provider is registered. The
// SDK's OpenTelemetry set-up registers one that records every such span (five or more a request, plus one transaction
// per route module loaded at start-up) and runs its whole pipeline per request: the server's main cost under load
// (docs/performance.md). The server runs without it (`enableOpenTelemetrySetup: false`) and registers this small
// provider instead. It turns only the spans of the app's own time into Sentry spans under the request's transaction,
// answers every other span of Next's with a no-op, and hands the trace to Next's `clientTraceMetadata` so that a
// server-rendered page's meta tags carry it to the browser.
import {
  INVALID_SPAN_CONTEXT,
  propagation,
  trace,
  type Context,
  type Span as OtelSpan,
  type SpanOptions,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import { getActiveSpan, getRootSpan, getTraceData, startSpanManual, type Span } from '@sentry/nextjs';

/** Next's span types (its `next.span_type` attribute) that measure the app's own code, and the op each becomes. */
export const appSpanOps: Readonly<Record<string, string>> = {
  'Render.getServerSideProps': 'function.nextjs',
  'Render.getStaticProps': 'function.nextjs',
  'Node.runHandler': 'function.nextjs',
  'Render.renderDocument': 'function.nextjs',
};

/** The op of a Next span worth a Sentry span, or undefined for Next's internal steps. */
export function appSpanOp(options: SpanOptions | undefined): string | undefined {
  const type = options?.attributes?.['next.span_type'];
  return typeof type === 'string' ? appSpanOps[type] : undefined;
}

/** What Next calls on a span it does not record: nothing happens. */
const noopSpan: OtelSpan = {
  spanContext: () => INVALID_SPAN_CONTEXT,
  setAttribute: () => noopSpan,
  setAttributes: () => noopSpan,
  addEvent: () => noopSpan,
  addLink: () => noopSpan,
  addLinks: () => noopSpan,
  setStatus: () => noopSpan,
  updateName: () => noopSpan,
  end: () => {},
  isRecording: () => false,
  recordException: () => {},
};

/** A Sentry span seen through the OpenTelemetry interface Next uses (the status codes are the same numbers). */
function asOtelSpan(span: Span): OtelSpan {
  const view: OtelSpan = {
    spanContext: () => span.spanContext(),
    setAttribute: (key, value) => (span.setAttribute(key, value), view),
    setAttributes: (attributes) => (span.setAttributes(attributes), view),
    addEvent: () => view,
    addLink: () => view,
    addLinks: () => view,
    setStatus: (status) => (span.setStatus(status), view),
    updateName: (name) => (span.updateName(name), view),
    end: (endTime) => span.end(endTime as Parameters<Span['end']>[0]),
    isRecording: () => span.isRecording(),
    recordException: () => {},
  };
  return view;
}

type ActiveSpanCallback = (span: OtelSpan) => unknown;

/**
 * The requests (their root spans) whose render ran getServerSideProps: a page that is its request's alone. Any other
 * render may be stored and served to every visitor (ISR, a fallback route's page, a static one), and it may run inside
 * any request: the image optimizer's for a local source, the revalidation webhook's, one whose `Host` or
 * `X-Forwarded-Host` names another path. With the rendering request's trace in it, one request (`sentry-trace: …-0`,
 * `baggage: sentry-environment=…`) would set every visitor's trace, drop their page loads and name another environment
 * and release. So only a render Next ran getServerSideProps for, sampled or not, carries the trace; every other page
 * carries none, and each browser starts a trace of its own.
 */
const serverRendered = new WeakSet<Span>();

const tracer: Tracer = {
  startSpan: () => noopSpan,
  // Next calls startActiveSpan(name, options, fn) and ends the span itself.
  startActiveSpan(name: string, ...rest: unknown[]) {
    const fn = rest.at(-1) as ActiveSpanCallback;
    const options = (rest.length > 1 ? rest[0] : undefined) as SpanOptions | undefined;
    const op = appSpanOp(options);
    if (!op) return fn(noopSpan);
    const parent = getActiveSpan();
    if (parent && options?.attributes?.['next.span_type'] === 'Render.getServerSideProps') {
      serverRendered.add(getRootSpan(parent));
    }
    // Only under a request's sampled transaction (the SDK's HTTP server span) that has not ended: never a transaction
    // of its own, and nothing for an unsampled request, whose trace still propagates from the request's own (unsampled)
    // span, or for one whose client left (its transaction is sent when the connection closes).
    if (!parent?.isRecording()) return fn(noopSpan);
    return startSpanManual({ name, op, attributes: options?.attributes, onlyIfParent: true }, (span) =>
      fn(asOtelSpan(span)),
    );
  },
} as Tracer;

/**
 * Writes the active trace (sentry-trace, baggage) where Next asks, for a server-rendered page's meta tags; reads
 * nothing. Next asks while it renders the document, in the render's own async context: the request's root span is the
 * one getServerSideProps ran under, or the page is not server-rendered.
 */
const traceMetaPropagator: TextMapPropagator = {
  inject(_context: Context, carrier, setter) {
    const span = getActiveSpan();
    if (!span || !serverRendered.has(getRootSpan(span))) return;
    for (const [key, value] of Object.entries(getTraceData())) if (value) setter.set(carrier, key, value);
  },
  extract: (context) => context,
  fields: () => ['sentry-trace', 'baggage'],
};

/** Registers the provider and the propagator; call once, after Sentry.init. */
export function traceNextSpans(): void {
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
  propagation.setGlobalPropagator(traceMetaPropagator);
}
