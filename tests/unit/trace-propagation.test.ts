import { describe, expect, it } from 'vitest';
import { parseSettings } from '../../packages/foundation/src/config/settings.mts';
import { serverReportingEnv } from '../../packages/foundation/src/observability/reportingEnv';
import { browserOptions, serverOptions } from '../../packages/foundation/src/observability/options';
import { sentryTraceFromTraceparent } from '../../packages/foundation/src/observability/server/traceparent';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';

describe('outgoing trace headers', () => {
  it('add a W3C traceparent beside sentry-trace and baggage, on the server and in the browser', () => {
    const env = serverReportingEnv(parseSettings({ SENTRY_DSN: 'https://key@ingest.example/42' }));
    expect(serverOptions(env).propagateTraceparent).toBe(true);
    expect(browserOptions(env).propagateTraceparent).toBe(true);
    // The browser's stay on its own origin: the SDK's default targets, left as they are.
    expect(browserOptions(env)).not.toHaveProperty('tracePropagationTargets');
  });
});

describe('an incoming traceparent without sentry-trace', () => {
  it("continues the caller's trace under the caller's span, with its sampling decision", () => {
    expect(sentryTraceFromTraceparent(`00-${traceId}-${spanId}-01`)).toBe(`${traceId}-${spanId}-1`);
    expect(sentryTraceFromTraceparent(`00-${traceId}-${spanId}-00`)).toBe(`${traceId}-${spanId}-0`);
    // Only the sampled bit counts; other flags (random trace id: 02) do not.
    expect(sentryTraceFromTraceparent(`00-${traceId}-${spanId}-03`)).toBe(`${traceId}-${spanId}-1`);
    expect(sentryTraceFromTraceparent(` 00-${traceId}-${spanId}-01 `)).toBe(`${traceId}-${spanId}-1`);
  });

  it('accepts fields a later version appends, and nothing the W3C spec says to ignore', () => {
    expect(sentryTraceFromTraceparent(`01-${traceId}-${spanId}-01-later`)).toBe(`${traceId}-${spanId}-1`);
    for (const ignored of [
      `00-${traceId}-${spanId}-01-extra`,
      `ff-${traceId}-${spanId}-01`,
      `00-${'0'.repeat(32)}-${spanId}-01`,
      `00-${traceId}-${'0'.repeat(16)}-01`,
      `00-${traceId.toUpperCase()}-${spanId}-01`,
      `00-${traceId}-${spanId}`,
      `00-${traceId}-${spanId}-01, 00-${traceId}-${spanId}-01`,
      '',
    ]) {
      expect(sentryTraceFromTraceparent(ignored), ignored).toBeUndefined();
    }
  });
});
