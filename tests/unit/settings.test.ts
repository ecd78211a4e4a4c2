import { describe, expect, it } from 'vitest';
import { EnvError } from '../../packages/foundation/src/config/envChecks.mts';
import { buildSettings, parseSettings } from '../../packages/foundation/src/config/settings.mts';
import { forwardedLogLevels } from '../../packages/foundation/src/observability/server/logForwarding';

// Every setting the server reads, parsed once (packages/foundation/src/config/settings.mts): by the preload and by the
// app alike.

describe('parseSettings', () => {
  it('gives an operator who sets nothing the documented defaults', () => {
    expect(parseSettings({})).toEqual({
      distDir: '.next',
      hostname: '',
      logLevel: 'info',
      sentryLogLevel: 'warn',
      logRequests: false,
      dsn: undefined,
      environment: 'production',
      release: 'unknown',
      spotlight: false,
      collectPersonalData: false,
      tracesSampleRate: 1,
      drainMs: 5000,
      timeoutMs: 10_000,
      hookTimeoutMs: 5000,
      enableDiagnostics: false,
      revalidateSecret: undefined,
      trustedProxies: undefined,
    });
  });

  it('takes durations in seconds', () => {
    const env = { SHUTDOWN_DRAIN_SECONDS: '0', SHUTDOWN_TIMEOUT_SECONDS: '2.5', SHUTDOWN_HOOK_TIMEOUT_SECONDS: ' 1 ' };
    expect(parseSettings(env)).toMatchObject({ drainMs: 0, timeoutMs: 2500, hookTimeoutMs: 1000 });
  });

  it('falls back on what the build fixed, and an operator overrides it', () => {
    const build = {
      release: 'abc123',
      environment: 'staging',
      dsn: 'https://key@ingest.example/7',
      tracesSampleRate: '0.5',
    };
    expect(parseSettings({}, build)).toMatchObject({
      release: 'abc123',
      environment: 'staging',
      dsn: 'https://key@ingest.example/7',
      tracesSampleRate: 0.5,
    });
    const set = { SENTRY_RELEASE: 'r2', SENTRY_ENVIRONMENT: 'eu', SENTRY_DSN: 'https://k@i.example/9' };
    expect(parseSettings({ ...set, SENTRY_TRACES_SAMPLE_RATE: '0.1' }, build)).toMatchObject({
      release: 'r2',
      environment: 'eu',
      dsn: 'https://k@i.example/9',
      tracesSampleRate: 0.1,
    });
  });

  it('has one personal-data switch: SENTRY_COLLECT_PII, whatever the browser was built with', () => {
    for (const server of [undefined, '0', '1', 'true']) {
      for (const browser of [undefined, '0', '1']) {
        const env = { SENTRY_COLLECT_PII: server, NEXT_PUBLIC_SENTRY_COLLECT_PII: browser };
        expect(parseSettings(env).collectPersonalData, JSON.stringify(env)).toBe(server === '1' || server === 'true');
      }
    }
  });

  it('takes LOG_LEVEL and SENTRY_LOG_LEVEL in any case; the forwarded levels are that one and above', () => {
    expect(parseSettings({ LOG_LEVEL: 'WARN', SENTRY_LOG_LEVEL: ' Info ' })).toMatchObject({
      logLevel: 'warn',
      sentryLogLevel: 'info',
    });
    expect(forwardedLogLevels(parseSettings({}).sentryLogLevel)).toEqual(['warn', 'error', 'fatal']);
    expect(forwardedLogLevels('info')).toEqual(['info', 'warn', 'error', 'fatal']);
    expect(forwardedLogLevels('silent')).toEqual([]);
  });

  it('says which variable is wrong and what to set, never repeating a secret', () => {
    const wrong: [Record<string, string>, RegExp][] = [
      [
        { LOG_LEVEL: 'loud' },
        /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent \(got "loud"\); unset it to use the default info\.$/,
      ],
      [{ SENTRY_LOG_LEVEL: 'all' }, /^SENTRY_LOG_LEVEL must be one of/],
      [{ LOG_REQUESTS: 'yes' }, /^LOG_REQUESTS must be 1 or 0/],
      [{ SENTRY_COLLECT_PII: 'yes' }, /^SENTRY_COLLECT_PII must be 1 or 0/],
      [{ ENABLE_DIAGNOSTICS: 'on' }, /^ENABLE_DIAGNOSTICS must be 1 or 0/],
      [{ SHUTDOWN_TIMEOUT_SECONDS: '-1' }, /^SHUTDOWN_TIMEOUT_SECONDS must be a number of seconds, 0 or more/],
      [{ SENTRY_DSN: 'not a url' }, /^SENTRY_DSN is not a URL/],
      [{ SENTRY_TRACES_SAMPLE_RATE: '2' }, /^SENTRY_TRACES_SAMPLE_RATE must be a number from 0 to 1/],
      [{ REVALIDATE_SECRET: 'hunter2' }, /^REVALIDATE_SECRET must be at least 32 characters/],
    ];
    for (const [env, message] of wrong) {
      expect(() => parseSettings(env), JSON.stringify(env)).toThrow(EnvError);
      expect(() => parseSettings(env), JSON.stringify(env)).toThrow(message);
    }
    expect(() => parseSettings({ REVALIDATE_SECRET: 'hunter2' })).not.toThrow(/hunter2/);
  });
});

describe('buildSettings', () => {
  it('checks types at build unless BUILD_SKIP_TYPE_CHECK is 1, and names a wrong value', () => {
    expect(buildSettings({}).skipTypeCheck).toBe(false);
    expect(buildSettings({ BUILD_SKIP_TYPE_CHECK: '0' }).skipTypeCheck).toBe(false);
    expect(buildSettings({ BUILD_SKIP_TYPE_CHECK: '1' }).skipTypeCheck).toBe(true);
    expect(() => buildSettings({ BUILD_SKIP_TYPE_CHECK: 'yes' })).toThrow(/^BUILD_SKIP_TYPE_CHECK must be 1 or 0/);
  });

  it('uploads source maps only with SENTRY_ORG, SENTRY_PROJECT and SENTRY_AUTH_TOKEN, to SENTRY_URL or Sentry’s own', () => {
    const sentry = { SENTRY_ORG: 'acme', SENTRY_PROJECT: 'web', SENTRY_AUTH_TOKEN: 'token' };
    expect(buildSettings(sentry).upload).toEqual({
      url: 'https://sentry.io',
      org: 'acme',
      project: 'web',
      authToken: 'token',
    });
    expect(buildSettings({ ...sentry, SENTRY_URL: 'http://sentry.internal:9000/' }).upload?.url).toBe(
      'http://sentry.internal:9000/',
    );
    expect(buildSettings({ ...sentry, SENTRY_AUTH_TOKEN: '' }).upload).toBeUndefined();
    expect(buildSettings({ SENTRY_ORG: 'acme', SENTRY_PROJECT: 'web' }).upload).toBeUndefined();
  });

  it('names a SENTRY_URL that is not an http(s) address, with or without upload', () => {
    for (const value of ['sentry.example.com', 'ftp://sentry.example.com', 'https://']) {
      expect(() => buildSettings({ SENTRY_URL: value })).toThrow(
        'SENTRY_URL must be a URL (http:// or https://) with a host, e.g. https://sentry.example.com; the value set is not.',
      );
    }
  });
});
