// Security headers of every response, static assets included (next.config.ts `headers()`), from the settings that
// make them (packages/foundation/src/config/settings.mts, securitySettings).
import type { SecuritySettings } from './settings.mts';

export interface SecurityInputs extends SecuritySettings {
  /** `next dev`: React and Turbopack's dev runtime need inline scripts and eval, so scripts are relaxed there. */
  development: boolean;
  /** Where browsers report CSP violations (cspReportPath); none without a DSN, and none in development. */
  violationReports: string | undefined;
}

/** The Reporting-Endpoints name the policy's report-to directive refers to. */
export const violationReportGroup = 'csp-endpoint';

/**
 * The app's own route that takes violation reports and forwards them to Sentry redacted (src/pages/api/csp-report.ts):
 * a report holds the page's URL with its query, which the browser cannot be told to leave out.
 */
export const cspReportPath = '/api/csp-report';

const origin = (url: string | undefined) => {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * The Content-Security-Policy, the same for every response, so static pages stay prerendered.
 *
 * Scripts may come only from the app's own origin: no inline script, no eval. That holds because the production
 * build emits no inline executable script (next.config.ts turns off Turbopack's shared runtime, which would inline a
 * per-page bootstrap) and `__NEXT_DATA__` is JSON, which CSP does not govern. No nonce and no 'strict-dynamic': they
 * would need a per-request render of every page.
 */
export function contentSecurityPolicy({
  browserDsn,
  spotlight,
  development,
  violationReports,
}: SecurityInputs): string {
  const connect = ["'self'", origin(browserDsn), origin(spotlight)].filter(Boolean).join(' ');
  // Both: report-to where the browser has the Reporting API (it then ignores report-uri), report-uri elsewhere.
  const reports = violationReports ? [`report-uri ${violationReports}`, `report-to ${violationReportGroup}`] : [];
  return [
    "default-src 'self'",
    development ? "script-src 'self' 'unsafe-inline' 'unsafe-eval'" : "script-src 'self'",
    // Pages render style attributes (next/image's among them). CSS cannot run script; scripts stay strict.
    "style-src 'self' 'unsafe-inline'",
    `connect-src ${connect}`,
    // Replay's compression worker is a static file of the app's own
    // (packages/foundation/src/observability/browser/replay.ts): no blob: URL.
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
    ...reports,
  ].join('; ');
}

export function securityHeaders(inputs: SecurityInputs): { key: string; value: string }[] {
  return [
    { key: 'Content-Security-Policy', value: contentSecurityPolicy(inputs) },
    { key: 'X-Content-Type-Options', value: 'nosniff' },
    { key: 'Referrer-Policy', value: 'strict-origin-when-cross-origin' },
    {
      key: 'Permissions-Policy',
      value: 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
    },
    { key: 'X-Frame-Options', value: 'DENY' },
    ...(inputs.violationReports
      ? [{ key: 'Reporting-Endpoints', value: `${violationReportGroup}="${inputs.violationReports}"` }]
      : []),
  ];
}

/**
 * The paths the security headers go on, through an unnamed group (next.config.ts says why): every path, but in
 * development not Next's own files under `/_next/static/development/`. Next's dev server loads one of them,
 * `_clientMiddlewareManifest.js`, as a script while serving it as JSON, and `nosniff` made Chromium refuse it, with an
 * error in the console on every page load.
 */
export function securedPaths(development: boolean): string {
  return development ? '/((?!_next/static/development/).*)' : '/(.*)';
}

/** HSTS only for requests a TLS-terminating proxy marked as HTTPS: a plain-HTTP answer must not pin HTTPS. */
export function hstsHeader({ hstsMaxAgeSeconds }: SecurityInputs) {
  return hstsMaxAgeSeconds > 0
    ? [{ key: 'Strict-Transport-Security', value: `max-age=${hstsMaxAgeSeconds}; includeSubDomains` }]
    : [];
}

/**
 * Reports only with a browser DSN, as the browser's own reporting. In development violations go nowhere: Spotlight
 * takes envelopes only, and the browser's console shows them.
 */
export function securityInputs(
  { browserDsn, spotlight, hstsMaxAgeSeconds }: SecuritySettings,
  { development = false }: { development?: boolean } = {},
): SecurityInputs {
  return {
    browserDsn,
    spotlight,
    hstsMaxAgeSeconds,
    development,
    violationReports: browserDsn && !development ? cspReportPath : undefined,
  };
}
