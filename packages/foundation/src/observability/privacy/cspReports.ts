// CSP violation reports as they may leave the app; server/cspReports.ts parses and forwards them.
import type { CspReports } from '../server/cspReports';
import { redactedUrl } from './urls.mts';

type Fields = Record<string, unknown>;

/**
 * What of a report's body may leave the app while personal data is off: URLs go through redactedUrl, the rest of
 * the listed fields as they are. Not listed, so dropped: the sample of the blocked code (`script-sample`, `sample`),
 * and any field a browser adds later, which could hold a URL.
 */
const reportUriFields: Record<string, 'url' | 'kept'> = {
  'document-uri': 'url',
  referrer: 'url',
  'blocked-uri': 'url',
  'source-file': 'url',
  'violated-directive': 'kept',
  'effective-directive': 'kept',
  'original-policy': 'kept',
  disposition: 'kept',
  'status-code': 'kept',
  'line-number': 'kept',
  'column-number': 'kept',
};
const reportToFields: Record<string, 'url' | 'kept'> = {
  documentURL: 'url',
  referrer: 'url',
  blockedURL: 'url',
  sourceFile: 'url',
  effectiveDirective: 'kept',
  originalPolicy: 'kept',
  disposition: 'kept',
  statusCode: 'kept',
  lineNumber: 'kept',
  columnNumber: 'kept',
};
/** A report-to entry around its body: the page's URL, and what the Reporting API says of the delivery. */
const reportToEntryFields: Record<string, 'url' | 'kept'> = {
  type: 'kept',
  url: 'url',
  age: 'kept',
  user_agent: 'kept',
};

function listedFields(fields: Fields, listed: Record<string, 'url' | 'kept'>): Fields {
  const kept: Fields = {};
  for (const [name, value] of Object.entries(fields)) {
    // Strings and numbers only: an object or array in a listed field is nothing a browser sends.
    if (typeof value !== 'string' && typeof value !== 'number') continue;
    if (listed[name] === 'url') kept[name] = redactedUrl(String(value));
    else if (listed[name] === 'kept') kept[name] = value;
  }
  return kept;
}

/** The reports as they may leave the app while personal data is off (SENTRY_COLLECT_PII unset). */
export function redactedCspReports({ format, reports }: CspReports): CspReports {
  return {
    format,
    reports: reports.map((report) =>
      format === 'application/csp-report'
        ? { 'csp-report': listedFields(report['csp-report'] as Fields, reportUriFields) }
        : { ...listedFields(report, reportToEntryFields), body: listedFields(report.body as Fields, reportToFields) },
    ),
  };
}
