// URLs in what the SDK sends, while personal data is off. The SDK drops the query of every URL it collects itself
// (`urlQueryParams: false` in dataCollection.ts: url.full, url.query, request.url and query_string on the server,
// fetch, XHR and resource spans in the browser). It copies others as they are: the page's address and the Referer,
// user-info in an absolute-form request target, fragments, span names, breadcrumbs and replays. Those go through
// redactedUrl here (urls.mts), field by field, never by a walk over every string of an event.
import type { Breadcrumb, Event, Integration, ReplayEvent, SpanJSON, StartSpanOptions } from '@sentry/core';
import { redactedUrl, redactedUrlsIn } from './urls.mts';

/** The header both runtimes keep (harmlessHeaders in dataCollection.ts), as each runtime spells it. */
const refererHeaders = ['referer', 'Referer'] as const;

/**
 * Attributes that hold a URL or a request target the SDK copies as it is: the server's `url.path` is the raw target
 * (`//user:pw@h/x`); a web vital's span is named after the page, fragment included.
 */
const urlAttributes = [
  'url.full',
  'url.path',
  'http.target',
  'sentry.transaction',
  'sentry.segment.name',
  'transaction',
];

/** A span's or a transaction's attributes that hold a URL, or part of one, the SDK does not redact itself. */
function redactSpanData(data: Record<string, unknown>): void {
  for (const key of urlAttributes) if (typeof data[key] === 'string') data[key] = redactedUrlsIn(data[key]);
  // The fragment of a fetch or XHR URL (`#access_token=…`), on its own.
  delete data['url.fragment'];
  const referer = data['http.request.header.referer'];
  if (Array.isArray(referer)) data['http.request.header.referer'] = referer.map(redactedUrl);
}

function redactEvent(event: Event): Event {
  const request = event.request;
  if (request?.url) request.url = redactedUrl(request.url);
  for (const name of refererHeaders) {
    const referer = request?.headers?.[name];
    if (referer) request.headers![name] = redactedUrl(referer);
  }
  // An error's transaction is named after the request target: `GET http://user:password@host/path`.
  if (event.transaction) event.transaction = redactedUrlsIn(event.transaction);
  // Next's request error hook (onRequestError) names the path and query that failed.
  const nextjs = event.contexts?.nextjs;
  if (typeof nextjs?.request_path === 'string') nextjs.request_path = redactedUrl(nextjs.request_path);
  const traceData = event.contexts?.trace?.data;
  if (traceData) redactSpanData(traceData);
  // Browser spans of the page's own requests are named after the URL (a navigation's document, a resource).
  for (const span of event.spans ?? []) {
    if (span.description) span.description = redactedUrlsIn(span.description);
    if (span.data) redactSpanData(span.data);
  }
  // A replay's list of the pages it saw.
  const replay = event as Partial<ReplayEvent>;
  if (event.type === 'replay_event' && replay.urls) replay.urls = replay.urls.map(redactedUrl);
  return event;
}

/** Errors, transactions and replay events, after the SDK's own integrations have filled them (added last). */
export const urlRedaction: Integration = {
  name: 'UrlRedaction',
  processEvent: redactEvent,
};

/**
 * The `beforeSendSpan` of every runtime while personal data is off. A standalone span (the INP of a click) travels in
 * an envelope of its own, which the integration above never sees; spans of transactions pass here too.
 */
export function redactedSpan(span: SpanJSON): SpanJSON {
  if (span.description) span.description = redactedUrlsIn(span.description);
  if (span.data) redactSpanData(span.data);
  return span;
}

/**
 * The `beforeBreadcrumb` of every runtime while personal data is off: navigations (`from`, `to`), fetch, XHR and HTTP
 * requests (`url`) and console lines, which may quote a URL. Replay records breadcrumbs after this runs.
 */
export function redactedBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  if (breadcrumb.message) breadcrumb.message = redactedUrlsIn(breadcrumb.message);
  const data = breadcrumb.data;
  if (!data) return breadcrumb;
  for (const key of ['url', 'from', 'to']) if (typeof data[key] === 'string') data[key] = redactedUrl(data[key]);
  if (Array.isArray(data.arguments)) {
    data.arguments = data.arguments.map((argument: unknown) =>
      typeof argument === 'string' ? redactedUrlsIn(argument) : argument,
    );
  }
  return breadcrumb;
}

/** Attributes a page load or navigation starts with that the SDK names itself. */
const sdkAttribute = (key: string) => key.startsWith('sentry.') || key === 'url.template';

/**
 * The `beforeStartSpan` of browser tracing while personal data is off. Next's page-load instrumentation copies the
 * page's query and route parameters into the span's attributes, one per key (`email: "alice@…"`, a bare token as a
 * key): only the SDK's own go on. The path (`url.path`, added after this) still shows the route parameters.
 */
export function withoutPageQuery(options: StartSpanOptions): StartSpanOptions {
  if (!options.attributes) return options;
  const attributes = Object.fromEntries(Object.entries(options.attributes).filter(([key]) => sdkAttribute(key)));
  return { ...options, attributes };
}
