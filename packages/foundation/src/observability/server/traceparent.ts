// A request that arrives with a W3C traceparent and no sentry-trace (a caller traced with OpenTelemetry, not Sentry)
// continues the caller's trace. The SDK reads only sentry-trace and baggage from a request (its HTTP server
// instrumentation, @sentry/core integrations/http/server-subscription.js), so on its own it would start a new trace.
import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage } from 'node:http';

/** version-traceid-parentid-flags, lowercase hex; versions after 00 may append fields. */
const traceparentFormat = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const allZeros = /^0+$/;

/**
 * The sentry-trace value that says what a traceparent says: the trace, the caller's span, and the caller's sampling
 * decision, which the SDK follows as it follows a sentry-trace's. Undefined for a value the W3C Trace Context spec
 * says to ignore (version ff, extra fields on version 00, an all-zero id, several headers joined by a comma).
 */
export function sentryTraceFromTraceparent(traceparent: string): string | undefined {
  const [, version, traceId, parentId, flags, extra] = traceparentFormat.exec(traceparent.trim()) ?? [];
  if (!version || !traceId || !parentId || !flags) return undefined;
  if (version === 'ff' || (version === '00' && extra !== undefined)) return undefined;
  if (allZeros.test(traceId) || allZeros.test(parentId)) return undefined;
  const sampled = (Number.parseInt(flags, 16) & 1) === 1;
  return `${traceId}-${parentId}-${sampled ? 1 : 0}`;
}

/**
 * Gives a request with a valid traceparent and no sentry-trace the equivalent sentry-trace header. Node publishes
 * `http.server.request.start` before it emits the request, and the SDK reads the headers when the request is emitted.
 */
export function continueTraceparentTraces(): void {
  subscribe('http.server.request.start', (message) => {
    const { headers } = (message as { request: IncomingMessage }).request;
    if (headers['sentry-trace'] !== undefined || typeof headers.traceparent !== 'string') return;
    const sentryTrace = sentryTraceFromTraceparent(headers.traceparent);
    if (sentryTrace) headers['sentry-trace'] = sentryTrace;
  });
}
