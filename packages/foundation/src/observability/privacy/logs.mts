// What of a request the server's log lines leave out while personal data is off; server/log.mts applies it. TypeScript
// that Node runs as it is (`.mts`), since the preload loads the logger outside Next's bundle.
import type { IncomingHttpHeaders } from 'node:http';
import { redactedUrl } from './urls.mts';

/**
 * What never reaches a log line unless an operator turns personal data on (SENTRY_COLLECT_PII=1, as for events):
 * cookies, credentials and bodies, on any object logged directly or one level down (`req.headers.cookie`,
 * `err.headers.authorization`).
 */
export const redactedLogPaths = [
  'headers.cookie',
  'headers.authorization',
  'headers["proxy-authorization"]',
  'headers["set-cookie"]',
  'body',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headers["proxy-authorization"]',
  '*.headers["set-cookie"]',
  '*.body',
  '*.cookies',
];

/** The Referer names another page, with whatever its query held. */
export function withRedactedReferer(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return { ...headers, referer: redactedUrl(headers.referer ?? '') };
}
