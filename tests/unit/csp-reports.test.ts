import { afterEach, describe, expect, it, vi } from 'vitest';
import { redactedCspReports } from '../../packages/foundation/src/observability/privacy/cspReports';
import {
  cspReportForwarder,
  cspReportsBody,
  cspReportsOf,
  securityReportUrl,
  type CspReports,
} from '../../packages/foundation/src/observability/server/cspReports';
import type { ReportingEnv } from '../../packages/foundation/src/observability/reportingEnv';

afterEach(() => {
  vi.useRealTimers();
});

const secret = 's3cr3t-value';
const page = `https://shop.example/orders/7?email=${secret}&${secret}#access_token=${secret}`;
const policy = "default-src 'self'; report-uri /api/csp-report; report-to csp-endpoint";

/** What Firefox sends to report-uri, with a secret in every URL and in the sample. */
const reportUri = {
  'csp-report': {
    'document-uri': page,
    referrer: `https://user:${secret}@shop.example/cart?ref=${secret}`,
    'blocked-uri': `https://blocked.example/pixel.png?id=${secret}`,
    'source-file': `https://shop.example/_next/static/chunks/app.js?v=${secret}`,
    'violated-directive': 'img-src',
    'effective-directive': 'img-src',
    'original-policy': policy,
    disposition: 'enforce',
    'status-code': 200,
    'line-number': 12,
    'column-number': 34,
    'script-sample': `fetch("/track?u=${secret}")`,
  },
};

/** What Chromium sends to report-to: a batch of one. */
const reportTo = [
  {
    age: 3,
    type: 'csp-violation',
    url: page,
    user_agent: 'Mozilla/5.0 Chrome/156',
    body: {
      documentURL: page,
      referrer: `https://shop.example/cart?ref=${secret}`,
      blockedURL: `https://blocked.example/pixel.png?id=${secret}`,
      sourceFile: `https://shop.example/_next/static/chunks/app.js?v=${secret}`,
      effectiveDirective: 'img-src',
      originalPolicy: policy,
      disposition: 'enforce',
      statusCode: 200,
      lineNumber: 12,
      columnNumber: 34,
      sample: `fetch("/track?u=${secret}")`,
    },
  },
];

const received = (format: CspReports['format'], body: unknown) => {
  const reports = cspReportsOf(format, JSON.stringify(body));
  if ('problem' in reports) throw new Error(reports.problem);
  return reports;
};

describe('cspReportsOf: what the route takes', () => {
  it('takes both formats browsers send, whatever the parameters of the content type', () => {
    expect(cspReportsOf('application/csp-report', JSON.stringify(reportUri))).toEqual({
      format: 'application/csp-report',
      reports: [reportUri],
    });
    expect(cspReportsOf('Application/Reports+JSON; charset=utf-8', JSON.stringify(reportTo))).toEqual({
      format: 'application/reports+json',
      reports: reportTo,
    });
  });

  it('answers anything else with a sentence', () => {
    const problems = [
      [undefined, '{}'],
      ['application/json', JSON.stringify(reportUri)],
      ['text/plain', JSON.stringify(reportUri)],
      ['application/csp-report', 'not json'],
      ['application/csp-report', ''],
      ['application/csp-report', '{"csp-report": "x"}'],
      ['application/csp-report', '[{"csp-report": {}}]'],
      ['application/csp-report', 'null'],
      ['application/reports+json', '[]'],
      ['application/reports+json', JSON.stringify(reportUri)],
      ['application/reports+json', '[{"type": "deprecation", "body": {}}]'],
      ['application/reports+json', '[{"type": "csp-violation", "body": "x"}]'],
      ['application/reports+json', JSON.stringify([...reportTo, null])],
    ] as const;
    for (const [contentType, body] of problems) {
      const result = cspReportsOf(contentType, body);
      expect(result, `${contentType} ${body}`).toEqual({ problem: expect.stringMatching(/\.$/) });
    }
  });
});

describe('redactedCspReports: what leaves the app while personal data is off', () => {
  it('a report-uri report: URLs redacted, the sample dropped, the rest kept', () => {
    const sent = cspReportsBody(redactedCspReports(received('application/csp-report', reportUri)));
    expect(JSON.parse(sent)).toEqual({
      'csp-report': {
        'document-uri': 'https://shop.example/orders/7?email=',
        referrer: 'https://shop.example/cart?ref=',
        'blocked-uri': 'https://blocked.example/pixel.png?id=',
        'source-file': 'https://shop.example/_next/static/chunks/app.js?v=',
        'violated-directive': 'img-src',
        'effective-directive': 'img-src',
        'original-policy': policy,
        disposition: 'enforce',
        'status-code': 200,
        'line-number': 12,
        'column-number': 34,
      },
    });
    expect(sent).not.toContain(secret);
  });

  it("a report-to batch: the entry's URL and the body's URLs redacted, the sample dropped, the rest kept", () => {
    const sent = cspReportsBody(redactedCspReports(received('application/reports+json', reportTo)));
    expect(JSON.parse(sent)).toEqual([
      {
        age: 3,
        type: 'csp-violation',
        url: 'https://shop.example/orders/7?email=',
        user_agent: 'Mozilla/5.0 Chrome/156',
        body: {
          documentURL: 'https://shop.example/orders/7?email=',
          referrer: 'https://shop.example/cart?ref=',
          blockedURL: 'https://blocked.example/pixel.png?id=',
          sourceFile: 'https://shop.example/_next/static/chunks/app.js?v=',
          effectiveDirective: 'img-src',
          originalPolicy: policy,
          disposition: 'enforce',
          statusCode: 200,
          lineNumber: 12,
          columnNumber: 34,
        },
      },
    ]);
    expect(sent).not.toContain(secret);
  });

  it('drops fields it does not know and values no browser sends, and keeps inline and eval as they are', () => {
    const odd = {
      'csp-report': {
        'blocked-uri': 'inline',
        'document-uri': { href: page },
        'line-number': [secret],
        'new-field': page,
      },
    };
    expect(redactedCspReports(received('application/csp-report', odd)).reports).toEqual([
      { 'csp-report': { 'blocked-uri': 'inline' } },
    ]);
    const oddEntry = [{ type: 'csp-violation', body: { blockedURL: 'eval' }, extra: secret }];
    expect(redactedCspReports(received('application/reports+json', oddEntry)).reports).toEqual([
      { type: 'csp-violation', body: { blockedURL: 'eval' } },
    ]);
  });
});

describe('securityReportUrl: the security endpoint of a DSN', () => {
  it("is the project's endpoint with the key, environment and release", () => {
    expect(securityReportUrl('https://key@o1.ingest.example/42', 'staging', 'v1.2.3+build 7')).toBe(
      'https://o1.ingest.example/api/42/security/?sentry_key=key&sentry_environment=staging&sentry_release=v1.2.3%2Bbuild+7',
    );
  });

  it('keeps a self-hosted DSN’s path, and is undefined for what is not a DSN', () => {
    expect(securityReportUrl('http://key@sentry.internal:9000/sentry/7', 'production', 'a;b')).toBe(
      'http://sentry.internal:9000/sentry/api/7/security/?sentry_key=key&sentry_environment=production&sentry_release=a%3Bb',
    );
    expect(securityReportUrl('not a DSN', 'production', 'r')).toBeUndefined();
    expect(securityReportUrl('https://o1.ingest.example/42', 'production', 'r')).toBeUndefined();
  });
});

describe('cspReportForwarder', () => {
  const env = (overrides: Partial<ReportingEnv> = {}): ReportingEnv => ({
    dsn: 'https://public@o1.ingest.example/42',
    environment: 'production',
    release: 'r1',
    spotlight: false,
    collectPersonalData: false,
    tracesSampleRate: 1,
    ...overrides,
  });
  const endpoint =
    'https://o1.ingest.example/api/42/security/?sentry_key=public&sentry_environment=production&sentry_release=r1';
  const sink = () => {
    const sent: { endpoint: string; format: string; body: string; userAgent: string | undefined }[] = [];
    const send = async (to: string, format: string, body: string, userAgent: string | undefined) => {
      sent.push({ endpoint: to, format, body, userAgent });
    };
    return { sent, send };
  };

  it("sends each report, redacted, in the format it came in, to the server's DSN only, with the browser's user agent", () => {
    const { sent, send } = sink();
    const forward = cspReportForwarder(env(), { send, log: { warn: vi.fn() } });
    forward(received('application/csp-report', reportUri), 'Firefox/150');
    forward(received('application/reports+json', reportTo), 'Chrome/156');
    expect(sent.map(({ endpoint, format, userAgent }) => [endpoint, format, userAgent])).toEqual([
      [endpoint, 'application/csp-report', 'Firefox/150'],
      [endpoint, 'application/reports+json', 'Chrome/156'],
    ]);
    expect(JSON.stringify(sent)).not.toContain(secret);
  });

  it('sends them as they came with SENTRY_COLLECT_PII=1', () => {
    const { sent, send } = sink();
    cspReportForwarder(env({ collectPersonalData: true }), { send })(
      received('application/reports+json', reportTo),
      'x',
    );
    expect(JSON.parse(sent[0]!.body)).toEqual(reportTo);
  });

  it('sends nothing without a DSN', () => {
    const { sent, send } = sink();
    cspReportForwarder(env({ dsn: undefined, spotlight: true }), { send })(
      received('application/csp-report', reportUri),
      'x',
    );
    expect(sent).toEqual([]);
  });

  it('drops the reports beyond the rate, counts them, and warns once', () => {
    vi.useFakeTimers();
    const { sent, send } = sink();
    const warn = vi.fn();
    let granted = 2;
    const take = (wanted: number) => {
      const now = Math.min(wanted, granted);
      granted -= now;
      return now;
    };
    const forward = cspReportForwarder(env(), { send, take, log: { warn } });
    forward(received('application/reports+json', [...reportTo, ...reportTo, ...reportTo]), 'x');
    for (let i = 0; i < 5; i++) forward(received('application/csp-report', reportUri), 'x');
    expect(sent.map(({ body }) => JSON.parse(body).length)).toEqual([2]);
    expect(warn.mock.calls).toEqual([
      [expect.stringMatching(/^Dropped 1 CSP violation reports: more than 10 a second/)],
    ]);
    vi.advanceTimersByTime(60_000);
    expect(warn.mock.calls[1]).toEqual([expect.stringMatching(/^Dropped 5 CSP violation reports/)]);
  });

  it('never throws when Sentry cannot be reached, and says so once a minute', async () => {
    const warn = vi.fn();
    const send = () => Promise.reject(new Error('fetch failed', { cause: new Error('connect ECONNREFUSED') }));
    const forward = cspReportForwarder(env(), { send, log: { warn } });
    expect(() => forward(received('application/csp-report', reportUri), 'x')).not.toThrow();
    forward(received('application/csp-report', reportUri), 'x');
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    expect(warn).toHaveBeenCalledWith(
      "1 CSP violation reports did not reach Sentry's security endpoint (the last: fetch failed: connect ECONNREFUSED).",
    );
  });
});
