// CSP violation reports. Browsers send them to the app's own /api/csp-report
// (packages/foundation/src/config/security.ts), never to Sentry: a report carries the page's URL with its query, its
// referrer and the blocked URL, and a browser cannot be told to leave them out. The route checks what arrived, redacts
// it unless personal data is on (privacy/cspReports.ts), and forwards it to the security endpoint of the server's DSN,
// at a bounded rate.
import { suppressTracing } from '@sentry/core';
import type { Logger } from 'pino';
import type { ReportingEnv } from '../reportingEnv';
import { redactedCspReports } from '../privacy/cspReports';
import { serverLogger } from './log.mts';
import { countedWarning, rateLimiter } from './rateLimits';

/** The two formats browsers send: report-uri's (one report) and report-to's (the Reporting API: a batch). */
export type CspReportFormat = 'application/csp-report' | 'application/reports+json';

type Fields = Record<string, unknown>;

/** Reports as a browser sent them: a report-uri body (`{"csp-report": {...}}`), or the entries of a report-to batch. */
export interface CspReports {
  format: CspReportFormat;
  reports: Fields[];
}

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The reports in a request's body, or the sentence a client gets back with a 400. */
export function cspReportsOf(contentType: string | undefined, body: string): CspReports | { problem: string } {
  const format = contentType?.split(';')[0]?.trim().toLowerCase();
  if (format !== 'application/csp-report' && format !== 'application/reports+json') {
    return {
      problem: `Send CSP violation reports as application/csp-report or application/reports+json (got ${JSON.stringify(contentType ?? '')}).`,
    };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return { problem: 'The body is not JSON.' };
  }
  if (format === 'application/csp-report') {
    return isFields(parsed) && isFields(parsed['csp-report'])
      ? { format, reports: [parsed] }
      : { problem: 'An application/csp-report body is one object: {"csp-report": {...}}.' };
  }
  const isViolation = (entry: unknown) => isFields(entry) && entry.type === 'csp-violation' && isFields(entry.body);
  return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isViolation)
    ? { format, reports: parsed as Fields[] }
    : { problem: 'An application/reports+json body is an array of {"type": "csp-violation", "body": {...}} reports.' };
}

/** The body to send in the format the reports arrived in. */
export function cspReportsBody({ format, reports }: CspReports): string {
  return JSON.stringify(format === 'application/csp-report' ? reports[0] : reports);
}

/**
 * Sentry's security endpoint of the DSN's project, which takes CSP violation reports in both formats, tagged with the
 * environment and release. Undefined when the DSN is not one.
 */
export function securityReportUrl(dsn: string, environment: string, release: string | undefined): string | undefined {
  let url: URL;
  try {
    url = new URL(dsn);
  } catch {
    return undefined;
  }
  const [, pathPrefix, projectId] = /^(.*)\/(\d+)$/.exec(url.pathname) ?? [];
  if (!projectId || !url.username) return undefined;
  const query = new URLSearchParams({ sentry_key: url.username, sentry_environment: environment });
  if (release) query.set('sentry_release', release);
  return `${url.origin}${pathPrefix}/api/${projectId}/security/?${query}`;
}

/**
 * Reports forwarded per instance: at most this many a second on average, and this many at once (a report-to batch,
 * or a burst of page views that something blocked). Each one is an event against the Sentry project's quota.
 */
export const cspReportsPerSecond = 10;
export const cspReportBurst = 50;

/** A forward that has not been answered by then is abandoned: the browser's answer never waits for it. */
export const forwardTimeoutMs = 2000;

/** Sends one body to the endpoint: the browser's user agent, and nothing of the request (no cookie, no client IP). */
async function post(endpoint: string, format: CspReportFormat, body: string, userAgent: string | undefined) {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': format, ...(userAgent ? { 'User-Agent': userAgent } : {}) },
    body,
    signal: AbortSignal.timeout(forwardTimeoutMs),
  });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`Sentry answered ${response.status}`);
}

/** A failed fetch's reason: its message, and its cause's ("fetch failed: connect ECONNREFUSED …"). */
function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

export type CspReportForwarder = (received: CspReports, userAgent: string | undefined) => void;

/**
 * Forwards reports to the security endpoint of the server's DSN: the destination comes from the configuration only,
 * never from a request. Without a DSN, nothing is forwarded. Never throws and never waits: failures and reports beyond
 * the rate are counted and logged, at most a line a minute each.
 */
export function cspReportForwarder(
  env: ReportingEnv,
  {
    send = post,
    take = rateLimiter(cspReportsPerSecond, cspReportBurst),
    log = serverLogger(),
  }: { send?: typeof post; take?: (wanted: number) => number; log?: Pick<Logger, 'warn'> } = {},
): CspReportForwarder {
  const endpoint = env.dsn && securityReportUrl(env.dsn, env.environment, env.release);
  if (!endpoint) return () => {};
  const dropped = countedWarning((count) =>
    log.warn(
      `Dropped ${count} CSP violation reports: more than ${cspReportsPerSecond} a second (${cspReportBurst} at once) arrived at this instance.`,
    ),
  );
  const failed = countedWarning((count, last) =>
    log.warn(`${count} CSP violation reports did not reach Sentry's security endpoint (the last: ${last}).`),
  );
  return (received, userAgent) => {
    const granted = take(received.reports.length);
    if (granted < received.reports.length) dropped(received.reports.length - granted);
    if (granted === 0) return;
    const admitted = { format: received.format, reports: received.reports.slice(0, granted) };
    const reports = env.collectPersonalData ? admitted : redactedCspReports(admitted);
    // Untraced: the route has answered and its transaction is sent, so the SDK would record this fetch as a
    // transaction of its own, a second one for every report.
    suppressTracing(() => send(endpoint, reports.format, cspReportsBody(reports), userAgent)).catch((error: unknown) =>
      failed(granted, failureReason(error)),
    );
  };
}
