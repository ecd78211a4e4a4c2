// What the SDK collects itself, in every runtime: nothing personal unless SENTRY_COLLECT_PII=1.
import type { NodeOptions } from '@sentry/nextjs';

type DataCollection = NonNullable<NodeOptions['dataCollection']>;

/** Request headers that say nothing about who the user is or what they hold. */
const harmlessHeaders = [
  'accept',
  'accept-language',
  'content-length',
  'content-type',
  'host',
  'referer',
  'user-agent',
  'x-request-id',
];

/**
 * By default nothing personal leaves the app: no cookies, credential headers, bodies, IP addresses, user fields, local
 * variables, nor the query of a URL the SDK collects itself (`urlQueryParams: true` would keep every value but those of
 * keys that look secret, such as `token`: `?email=…` went out). The URLs it copies as they are go through
 * privacy/events.ts. SENTRY_COLLECT_PII=1 restores the SDK's own collection.
 */
export function dataCollection(collectPersonalData: boolean): DataCollection {
  if (collectPersonalData) return {};
  return {
    userInfo: false,
    cookies: false,
    httpHeaders: {
      request: { allow: harmlessHeaders },
      response: { allow: ['content-type', 'content-length', 'x-request-id'] },
    },
    httpBodies: [],
    urlQueryParams: false,
    stackFrameVariables: false,
  };
}
