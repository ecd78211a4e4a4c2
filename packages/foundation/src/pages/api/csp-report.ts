import { maxRequestBodyBytes } from '../../config/requestBody';
import { cspReportForwarder, cspReportsOf, type CspReportForwarder } from '../../observability/server/cspReports';
import { serverReportingEnv } from '../../observability/reportingEnv';
import { apiRoute, readBody, sendJsonError } from '../../server/api';

let forward: CspReportForwarder | undefined;

/**
 * POST /api/csp-report: where the Content-Security-Policy sends browsers' violation reports (report-uri and report-to),
 * forwarded to Sentry redacted unless personal data is on (packages/foundation/src/observability/server/cspReports.ts).
 * 204 whether or not anything is forwarded: reporting off, a report over the rate limit or an unreachable Sentry is
 * none of the browser's business, and an error answer would only make it retry.
 */
export default apiRoute(['POST'], async (req, res) => {
  res.setHeader('Cache-Control', 'no-store');
  // The server preload refuses larger bodies before they are read; `next dev` runs without it.
  const body = await readBody(req, maxRequestBodyBytes);
  if (body === undefined) return sendJsonError(req, res, 413, `The body is larger than ${maxRequestBodyBytes} bytes.`);
  const received = cspReportsOf(req.headers['content-type'], body);
  if ('problem' in received) return sendJsonError(req, res, 400, received.problem);
  res.status(204).end();
  forward ??= cspReportForwarder(serverReportingEnv());
  forward(received, req.headers['user-agent']);
});
