import { describe, expect, it } from 'vitest';
import {
  contentSecurityPolicy,
  hstsHeader,
  securedPaths,
  securityHeaders,
  securityInputs,
} from '../../packages/foundation/src/config/security';
import { securitySettings } from '../../packages/foundation/src/config/settings.mts';

/** The headers' inputs from the variables at build, as next.config.ts makes them. */
const atBuild = (env: Record<string, string>, options?: { development?: boolean }) =>
  securityInputs(securitySettings(env), options);

describe('security headers', () => {
  it('lets the page connect only to itself, the DSN origin and Spotlight', () => {
    const csp = contentSecurityPolicy(
      atBuild({
        NEXT_PUBLIC_SENTRY_DSN: 'https://key@o1.ingest.example/42',
        NEXT_PUBLIC_SENTRY_SPOTLIGHT: 'http://localhost:8969/stream',
      }),
    );
    expect(csp).toContain("connect-src 'self' https://o1.ingest.example http://localhost:8969;");
    expect(contentSecurityPolicy(atBuild({}))).toContain("connect-src 'self';");
  });

  it('lets scripts come only from the app itself in production: no inline script, no eval', () => {
    const csp = contentSecurityPolicy(atBuild({ NEXT_PUBLIC_SENTRY_DSN: 'https://key@o1.ingest.example/42' }));
    expect(csp.split('; ')).toEqual([
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "connect-src 'self' https://o1.ingest.example",
      "worker-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
      "form-action 'self'",
      'report-uri /api/csp-report',
      'report-to csp-endpoint',
    ]);
  });

  it("relaxes scripts, and only scripts, for next dev (React's dev build and hot reloading need eval)", () => {
    const production = contentSecurityPolicy(atBuild({}));
    const development = contentSecurityPolicy(atBuild({}, { development: true }));
    expect(development).toBe(
      production.replace("script-src 'self'", "script-src 'self' 'unsafe-inline' 'unsafe-eval'"),
    );
  });

  it("reports violations to the app's own /api/csp-report, which redacts them, not to Sentry's endpoint", () => {
    const inputs = atBuild({ NEXT_PUBLIC_SENTRY_DSN: 'https://key@o1.ingest.example/42' });
    expect(inputs.violationReports).toBe('/api/csp-report');
    const headers = new Map(securityHeaders(inputs).map(({ key, value }) => [key, value]));
    expect(headers.get('Content-Security-Policy')).toContain('; report-uri /api/csp-report; report-to csp-endpoint');
    expect(headers.get('Reporting-Endpoints')).toBe('csp-endpoint="/api/csp-report"');
    // The reports need nothing of connect-src: it stays the page's own origin and the DSN's, for the SDK.
    expect(headers.get('Content-Security-Policy')).toContain("connect-src 'self' https://o1.ingest.example;");
  });

  it('sends no report anywhere without a DSN, nor in development (Spotlight takes no CSP reports)', () => {
    const dsn = { NEXT_PUBLIC_SENTRY_DSN: 'https://key@o1.ingest.example/42' };
    for (const inputs of [
      atBuild({}),
      atBuild({ ...dsn, NEXT_PUBLIC_SENTRY_SPOTLIGHT: 'http://localhost:8969/stream' }, { development: true }),
    ]) {
      expect(inputs.violationReports).toBeUndefined();
      expect(contentSecurityPolicy(inputs)).not.toMatch(/report-/);
      expect(securityHeaders(inputs).map(({ key }) => key)).not.toContain('Reporting-Endpoints');
    }
  });

  it('sends HSTS for a year by default, never when HSTS_MAX_AGE=0', () => {
    expect(hstsHeader(atBuild({}))).toEqual([
      { key: 'Strict-Transport-Security', value: 'max-age=31536000; includeSubDomains' },
    ]);
    expect(hstsHeader(atBuild({ HSTS_MAX_AGE: '0' }))).toEqual([]);
    expect(() => atBuild({ HSTS_MAX_AGE: 'soon' })).toThrow(
      'HSTS_MAX_AGE must be a whole number of seconds, 0 to turn HSTS off (got "soon"); unset it to use the default 31536000.',
    );
  });
});

describe('the paths the security headers go on', () => {
  const matches = (source: string, path: string) => new RegExp(`^${source}$`).test(path);

  it('are every path in production', () => {
    expect(securedPaths(false)).toBe('/(.*)');
  });

  it("leave out next dev's own files, which it serves as JSON and loads as scripts, and nothing else", () => {
    const dev = securedPaths(true);
    expect(matches(dev, '/_next/static/development/_clientMiddlewareManifest.js')).toBe(false);
    for (const path of ['/', '/examples/42', '/_next/static/chunks/main.js', '/api/health']) {
      expect(matches(dev, path)).toBe(true);
    }
  });
});
