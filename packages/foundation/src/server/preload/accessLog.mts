// LOG_REQUESTS=1: one line per answered request (off by default: docs/logging.md has its cost).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
// The target as it arrived: an absolute-form one (`GET http://user:password@host/path`) still carries its user-info.
import { loggedUrl } from '../../observability/privacy/urls.mts';

/** Logs the request's line once its answer is sent. */
export function logWhenAnswered(log: Logger, collectPersonalData: boolean, req: IncomingMessage, res: ServerResponse) {
  const started = performance.now();
  const url = loggedUrl(req.url ?? '', collectPersonalData);
  res.once('finish', () => {
    const requestId = res.getHeader('x-request-id');
    log.info(
      {
        method: req.method,
        url,
        status: res.statusCode,
        duration_ms: Math.round(performance.now() - started),
        ...(typeof requestId === 'string' ? { request_id: requestId } : {}),
      },
      'request answered',
    );
  });
}

/** Logs an upgrade the preload answered 404 (packages/foundation/src/server/preload/connections.mts). */
export function logRefusedUpgrade(log: Logger, collectPersonalData: boolean, req: IncomingMessage) {
  log.info(
    { method: req.method, url: loggedUrl(req.url ?? '', collectPersonalData), status: 404, duration_ms: 0 },
    'request answered',
  );
}
