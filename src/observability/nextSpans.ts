// Next.js reports its own work as OpenTelemetry spans, which cost nothing until a tracer provider is registered. The
// SDK's OpenTelemetry set-up registers one that records every such span (five or more a request, plus one transaction
// per route module loaded at start-up) and runs its whole pipeline per request: the server's main cost under load
// (docs/performance.md). The server runs without it (`enableOpenTelemetrySetup: false`) and registers this small
// provider instead. It turns only the spans of the app's own time into Sentry spans under the request's transaction,
// answers every other span of Next's with a no-op, and hands the trace to Next's `clientTraceMetadata` so that the
// page's meta tags carry it to the browser.
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
import { spanIsSampled } from '@sentry/core';
import { getActiveSpan, getTraceData, startSpanManual, type Span } from '@sentry/nextjs';

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

const tracer: Tracer = {
  startSpan: () => noopSpan,
  // Next calls startActiveSpan(name, options, fn) and ends the span itself.
  startActiveSpan(name: string, ...rest: unknown[]) {
    const fn = rest.at(-1) as ActiveSpanCallback;
    const options = (rest.length > 1 ? rest[0] : undefined) as SpanOptions | undefined;
    const op = appSpanOp(options);
    if (!op) return fn(noopSpan);
    // Only under a request's sampled transaction (the SDK's HTTP server span): never a transaction of its own, and
    // nothing for an unsampled request, whose trace still propagates from the request's own (unsampled) span.
    const parent = getActiveSpan();
    if (!parent || !spanIsSampled(parent)) return fn(noopSpan);
    return startSpanManual({ name, op, attributes: options?.attributes, onlyIfParent: true }, (span) =>
      fn(asOtelSpan(span)),
    );
  },
} as Tracer;

/** Writes the active trace (sentry-trace, baggage) where Next asks, for the page's meta tags; reads nothing. */
const traceMetaPropagator: TextMapPropagator = {
  inject(_context: Context, carrier, setter) {
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
