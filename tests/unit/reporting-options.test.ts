import type { ErrorEvent } from '@sentry/nextjs';
import { describe, expect, it } from 'vitest';
import { EnvError } from '../../packages/foundation/src/config/settings.mts';
import { browserSettings, parseSettings, sampleRate } from '../../packages/foundation/src/config/settings.mts';
import { serverReportingEnv } from '../../packages/foundation/src/observability/reportingEnv';

/**
 * The server's reporting environment from variables, as the server parses them
 * (packages/foundation/src/config/settings.mts).
 */
const reportingOf = (env: Record<string, string | undefined>) => serverReportingEnv(parseSettings(env));
import {
  browserOptions,
  browserTracingOptions,
  replayOptions,
  serverOptions,
  sidecarDsn,
  withRequestIdTag,
} from '../../packages/foundation/src/observability/options';
import { dataCollection } from '../../packages/foundation/src/observability/privacy/dataCollection';
import { redactedBreadcrumb, redactedSpan } from '../../packages/foundation/src/observability/privacy/events';

const env = reportingOf({ SENTRY_DSN: 'https://key@ingest.example/42' });

describe('reporting options carry the spec values (§1, §9)', () => {
  it('samples every transaction, 10% of sessions and every session with an error', () => {
    expect(serverOptions(env).tracesSampleRate).toBe(1);
    expect(browserOptions(env)).toMatchObject({
      tracesSampleRate: 1,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
    });
  });

  it('caps breadcrumbs at 100 and sets the page-load timeouts', () => {
    expect(serverOptions(env).maxBreadcrumbs).toBe(100);
    expect(browserOptions(env).maxBreadcrumbs).toBe(100);
    expect(browserTracingOptions({ resourceSpans: false })).toMatchObject({
      idleTimeout: 1000,
      finalTimeout: 30_000,
      childSpanTimeout: 15_000,
    });
  });

  it('makes no resource spans unless NEXT_PUBLIC_SENTRY_RESOURCE_SPANS=1 was set at build', () => {
    const atBuild = (value: string | undefined) => browserTracingOptions(browserSettings({ resourceSpans: value }));
    // The ops the SDK gives a page load's resources (FACTS: `ignoreResourceSpans`).
    const everyResourceSpan = ['resource.script', 'resource.link', 'resource.css', 'resource.img', 'resource.other'];
    for (const off of [undefined, '', '0', 'false']) {
      expect(atBuild(off).ignoreResourceSpans).toEqual(expect.arrayContaining(everyResourceSpan));
    }
    for (const on of ['1', 'true']) expect(atBuild(on).ignoreResourceSpans).toEqual([]);
    expect(() => atBuild('yes')).toThrow(
      'NEXT_PUBLIC_SENTRY_RESOURCE_SPANS must be 1 or 0 (got "yes"); unset it to use the default 0.',
    );
  });

  it('masks all text and inputs and blocks media in replays', () => {
    expect(replayOptions).toEqual({ maskAllText: true, maskAllInputs: true, blockAllMedia: true });
  });

  it('sends no tunnel: envelopes go to the DSN', () => {
    expect(browserOptions(env)).not.toHaveProperty('tunnel');
    expect(serverOptions(env)).not.toHaveProperty('tunnel');
  });
});

describe('development with Spotlight and no DSN (npm run dev)', () => {
  it('sends to the sidecar as its DSN, so that outgoing calls and pages carry the trace, each envelope once', () => {
    const dev = serverOptions(reportingOf({ SENTRY_SPOTLIGHT: 'http://localhost:8969/stream' }));
    expect(dev).toMatchObject({ dsn: 'http://spotlight@localhost:8969/0', spotlight: false });
  });

  it("takes Spotlight's default address when told only to use it", () => {
    expect(sidecarDsn(true)).toBe('http://spotlight@localhost:8969/0');
  });

  it('keeps a DSN that is set, and Spotlight beside it', () => {
    const both = serverOptions(reportingOf({ SENTRY_DSN: 'https://key@ingest.example/42', SENTRY_SPOTLIGHT: '1' }));
    expect(both).toMatchObject({ dsn: 'https://key@ingest.example/42', spotlight: true });
  });

  it('sets no DSN when neither is set', () => {
    expect(serverOptions(reportingOf({})).dsn).toBeUndefined();
  });
});

describe('reporting environment', () => {
  it('is production unless overridden', () => {
    expect(reportingOf({}).environment).toBe('production');
    expect(reportingOf({ SENTRY_ENVIRONMENT: 'staging' }).environment).toBe('staging');
    expect(reportingOf({ NEXT_PUBLIC_SENTRY_ENVIRONMENT: 'preview' }).environment).toBe('preview');
  });

  it('uses SENTRY_DSN, falling back to NEXT_PUBLIC_SENTRY_DSN; none means off', () => {
    expect(reportingOf({}).dsn).toBeUndefined();
    expect(reportingOf({ NEXT_PUBLIC_SENTRY_DSN: 'https://a@b.example/1' }).dsn).toBe('https://a@b.example/1');
    expect(
      reportingOf({ SENTRY_DSN: 'https://s@server.example/2', NEXT_PUBLIC_SENTRY_DSN: 'https://a@b.example/1' }).dsn,
    ).toBe('https://s@server.example/2');
  });

  it('rejects a malformed DSN with a message that names the variable', () => {
    expect(() => reportingOf({ SENTRY_DSN: 'not a url' })).toThrow(EnvError);
    expect(() => reportingOf({ SENTRY_DSN: 'https://ingest.example/1' })).toThrow(/SENTRY_DSN is not a Sentry DSN/);
  });

  it('takes the release from SENTRY_RELEASE', () => {
    expect(reportingOf({ SENTRY_RELEASE: 'v1.2.3' }).release).toBe('v1.2.3');
  });
});

describe('trace sample rate: an operator may lower the spec’s 1', () => {
  const atBuild = <T>(rate: string | undefined, read: () => T): T => {
    const saved = process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE;
    if (rate === undefined) delete process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE;
    else process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE = rate;
    try {
      return read();
    } finally {
      if (saved === undefined) delete process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE;
      else process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE = saved;
    }
  };

  it('reads a number from 0 to 1; unset or blank leaves the spec value', () => {
    expect(sampleRate('SENTRY_TRACES_SAMPLE_RATE', undefined)).toBeUndefined();
    expect(sampleRate('SENTRY_TRACES_SAMPLE_RATE', ' ')).toBeUndefined();
    expect(sampleRate('SENTRY_TRACES_SAMPLE_RATE', '0')).toBe(0);
    expect(sampleRate('SENTRY_TRACES_SAMPLE_RATE', ' 0.25 ')).toBe(0.25);
    expect(sampleRate('SENTRY_TRACES_SAMPLE_RATE', '1')).toBe(1);
    expect(sampleRate('SENTRY_TRACES_SAMPLE_RATE', '1e-3')).toBe(0.001);
    expect(reportingOf({}).tracesSampleRate).toBe(1);
  });

  it('refuses anything else with one sentence that names the variable and the fix', () => {
    for (const bad of ['1.5', '-0.1', '10%', 'abc', 'NaN', 'Infinity', '0x1', '1e1']) {
      expect(() => reportingOf({ SENTRY_TRACES_SAMPLE_RATE: bad })).toThrow(EnvError);
    }
    expect(() => reportingOf({ SENTRY_TRACES_SAMPLE_RATE: '10%' })).toThrow(
      'SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1, e.g. 0.1 to keep one trace in ten (got "10%"); unset it to keep every trace.',
    );
    expect(() => atBuild('2', () => browserSettings())).toThrow(/^NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE must be/);
  });

  it('gives the server SENTRY_TRACES_SAMPLE_RATE, else the browser build’s rate, else 1', () => {
    expect(serverOptions(reportingOf({ SENTRY_TRACES_SAMPLE_RATE: '0.1' })).tracesSampleRate).toBe(0.1);
    expect(serverOptions(reportingOf({ NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE: '0.2' })).tracesSampleRate).toBe(0.2);
    expect(
      serverOptions(reportingOf({ SENTRY_TRACES_SAMPLE_RATE: '0', NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE: '0.2' }))
        .tracesSampleRate,
    ).toBe(0);
  });

  it('gives the browser the rate inlined at build, and keeps replays at the spec’s rates', () => {
    expect(atBuild(undefined, () => browserOptions(browserSettings()).tracesSampleRate)).toBe(1);
    expect(atBuild('0.05', () => browserOptions(browserSettings()))).toMatchObject({
      tracesSampleRate: 0.05,
      replaysSessionSampleRate: 0.1,
      replaysOnErrorSampleRate: 1,
    });
  });
});

describe('privacy', () => {
  it('collects nothing personal unless SENTRY_COLLECT_PII=1', () => {
    expect(dataCollection(false)).toMatchObject({
      userInfo: false,
      cookies: false,
      httpBodies: [],
      stackFrameVariables: false,
    });
    expect(serverOptions(env).dataCollection).toEqual(dataCollection(false));
    expect(reportingOf({ SENTRY_COLLECT_PII: '1' }).collectPersonalData).toBe(true);
    expect(dataCollection(true)).toEqual({});
  });

  it('sends no query of a URL the SDK collects itself, and redacts the URLs of breadcrumbs, unless turned on', () => {
    // `true` would keep every value but those of keys that look secret (`token`, `session`): `email` and `q` went out.
    expect(dataCollection(false).urlQueryParams).toBe(false);
    expect(serverOptions(env).beforeBreadcrumb).toBe(redactedBreadcrumb);
    expect(browserOptions(env).beforeBreadcrumb).toBe(redactedBreadcrumb);
    const personal = reportingOf({ SENTRY_DSN: 'https://key@ingest.example/42', SENTRY_COLLECT_PII: '1' });
    expect(serverOptions(personal)).not.toHaveProperty('beforeBreadcrumb');
  });

  it('redacts the spans of every runtime, standalone ones included, unless turned on', () => {
    expect(serverOptions(env).beforeSendSpan).toBe(redactedSpan);
    expect(browserOptions(env).beforeSendSpan).toBe(redactedSpan);
    // Called only when marked as taking the static shape, which `traceLifecycle: 'static'` sends.
    expect((redactedSpan as unknown as { _static?: boolean })._static).toBe(true);
    const personal = reportingOf({ SENTRY_DSN: 'https://key@ingest.example/42', SENTRY_COLLECT_PII: '1' });
    expect(serverOptions(personal)).not.toHaveProperty('beforeSendSpan');
  });
});

describe('withRequestIdTag', () => {
  it('tags a server event with the request id header', () => {
    const event: ErrorEvent = { type: undefined, request: { headers: { 'x-request-id': 'abc' } } };
    expect(withRequestIdTag(event).tags).toEqual({ request_id: 'abc' });
  });
  it('leaves an event without one alone', () => {
    const event: ErrorEvent = { type: undefined };
    expect(withRequestIdTag(event)).toBe(event);
  });
});
