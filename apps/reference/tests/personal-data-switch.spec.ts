import type { Event } from '@sentry/core';
import { startInstance } from '@web-foundation/testing/cluster';
import { expect, test } from '@web-foundation/testing';

// Issue 39: the server's personal-data switch is SENTRY_COLLECT_PII, parsed once
// (packages/foundation/src/config/settings.mts). Its error events, its log lines, its access log and its CSP forwards
// agree for every combination of it and the browser's NEXT_PUBLIC_SENTRY_COLLECT_PII (which the server used to fall
// back on for its events only): the query arrives whole in all four when the switch is on, and in none of them when it
// is off.

const combinations = [
  { SENTRY_COLLECT_PII: undefined, NEXT_PUBLIC_SENTRY_COLLECT_PII: undefined, whole: false },
  { SENTRY_COLLECT_PII: undefined, NEXT_PUBLIC_SENTRY_COLLECT_PII: '1', whole: false },
  { SENTRY_COLLECT_PII: '1', NEXT_PUBLIC_SENTRY_COLLECT_PII: undefined, whole: true },
  { SENTRY_COLLECT_PII: '1', NEXT_PUBLIC_SENTRY_COLLECT_PII: '1', whole: true },
];

for (const { whole, ...switches } of combinations) {
  const named = Object.entries(switches)
    .map(([name, value]) => `${name}=${value ?? 'unset'}`)
    .join(', ');
  test(`${named}: the event, the log lines, the access log and the CSP forward all ${whole ? 'keep' : 'drop'} the query`, async ({
    ingest,
    token,
  }) => {
    const defined = Object.fromEntries(Object.entries(switches).filter(([, value]) => value !== undefined));
    const server = await startInstance(undefined, undefined, { ...defined, LOG_REQUESTS: '1' });
    try {
      const secret = `email${token.replaceAll('-', '')}`;
      const requestId = `switch-${token}`;
      const errorPath = `/api/diagnostics/server-error?email=${secret}`;
      const reported = ingest.waitForError((e: Event) => e.tags?.request_id === requestId);
      const forwarded = ingest.waitForCspViolation((v) => v.documentUrl.includes(token));
      expect((await fetch(`${server.origin}${errorPath}`, { headers: { 'x-request-id': requestId } })).status).toBe(
        500,
      );
      const documentUri = `${server.origin}/examples/${token}?email=${secret}`;
      const report = { 'csp-report': { 'document-uri': documentUri, 'blocked-uri': 'inline' } };
      const answer = await fetch(`${server.origin}/api/csp-report`, {
        method: 'POST',
        headers: { 'content-type': 'application/csp-report' },
        body: JSON.stringify(report),
      });
      expect(answer.status).toBe(204);

      const event = await reported;
      const { violation } = await forwarded;
      const lines = await linesOf(server.output, requestId);
      const accessLine = lines.find((line) => line.msg === 'request answered');
      const errorLine = lines.find((line) => line.level === 'error');
      expect(accessLine, 'an access-log line').toBeDefined();
      expect(errorLine, 'an error line').toBeDefined();

      const arrived = {
        event: JSON.stringify(event.request),
        'error line': JSON.stringify(errorLine),
        'access log': JSON.stringify(accessLine),
        'CSP forward': violation.documentUrl,
      };
      for (const [where, text] of Object.entries(arrived)) {
        expect(text.includes(secret), `${where}: ${text}`).toBe(whole);
      }
    } finally {
      await server.stop();
    }
  });
}

interface LogLine {
  msg?: string;
  level?: string;
  request_id?: string;
}

/** The server's JSON lines naming a request, once its access-log line is printed. */
async function linesOf(output: () => string, requestId: string): Promise<LogLine[]> {
  let lines: LogLine[] = [];
  await expect
    .poll(() => {
      lines = output()
        .split('\n')
        // The last piece may be a line still being written.
        .slice(0, -1)
        .filter((text) => text.includes(requestId))
        .map((text) => JSON.parse(text) as LogLine);
      return lines.some((line) => line.msg === 'request answered');
    })
    .toBe(true);
  return lines;
}
