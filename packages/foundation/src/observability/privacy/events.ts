// URLs in what the SDK sends, while personal data is off. The SDK drops the query of every URL it collects itself
// (`urlQueryParams: false` in dataCollection.ts: url.full, url.query, request.url and query_string on the server,
// fetch, XHR and resource spans in the browser). It copies others as they are: the page's address and the Referer,
// user-info in an absolute-form request target, fragments, span names, breadcrumbs and replays. Those go through
// redactedUrl here (urls.mts), field by field (an attribute's by its name), never by a walk over every string of an
// event.
import type { Breadcrumb, Event, Integration, Metric, ReplayEvent, SpanJSON, StartSpanOptions } from '@sentry/core';
import { redactedHost, redactedUrl, redactedUrlsIn } from './urls.mts';

/** The header both runtimes keep (harmlessHeaders in dataCollection.ts), as each runtime spells it. */
const refererHeaders = ['referer', 'Referer'] as const;

/** Headers that name the URL's authority, user-info and all (`Host: user:pw@host`), as each runtime spells them. */
const hostHeaders = ['host', 'Host', 'x-forwarded-host', 'X-Forwarded-Host'] as const;

/** A field whose name says it holds a host: `server.address`, `http.host`, `http.request.header.x_forwarded_host`. */
const hostNamed = /(?:^|[._-])host$|^server\.address$/i;

/**
 * A field whose name says it holds a URL: `url`, `url.full`, `url.path`, `http.url`, `lcp.url`,
 * `browser.web_vital.lcp.url`, `ui.element.url`, `mcp.resource.uri`, `http.request.header.referer`, `blockedURL`. Found
 * by its name, not from a list, so that a name an SDK upgrade adds is covered.
 */
const urlNamed = /(?:^|[._-])(?:url|uri)|(?:url|uri|href|referr?er)(?:$|[._-])/i;

/** A URL's fragment or query on its own (`url.fragment`, `http.fragment`, `http.query`): nothing in it is a name. */
const urlPartNamed = /(?:^|[._-])(?:fragment|query)$/i;

/** Fields that hold a request target or a URL without saying so: the server's raw target (`//user:pw@h/x`). */
const unnamedUrls = ['http.target'];

/** Fields that hold a name with a URL in it: a web vital's span is named after the page, fragment included. */
const urlNames = ['sentry.transaction', 'sentry.segment.name', 'transaction'];

/**
 * Every URL in a span's attributes, a breadcrumb's data or a metric's attributes the SDK does not redact itself, and
 * those of `unnamed` (names a caller knows hold one): each string value, or each string of an array value.
 */
function redactUrlFields(data: Record<string, unknown>, unnamed: readonly string[] = []): void {
  for (const key in data) {
    const value = data[key];
    if (urlPartNamed.test(key)) delete data[key];
    else if (urlNamed.test(key) || unnamedUrls.includes(key) || unnamed.includes(key)) data[key] = redactedValue(value);
    else if (hostNamed.test(key)) data[key] = redactedValue(value, redactedHost);
    else if (urlNames.includes(key) && typeof value === 'string') data[key] = redactedUrlsIn(value);
  }
}

function redactedValue(value: unknown, redacted: (value: string) => string = redactedUrl): unknown {
  if (typeof value === 'string') return redacted(value);
  if (Array.isArray(value)) return value.map((item) => (typeof item === 'string' ? redacted(item) : item));
  return value;
}

function redactEvent(event: Event): Event {
  const request = event.request;
  if (request?.url) request.url = redactedUrl(request.url);
  for (const name of refererHeaders) {
    const referer = request?.headers?.[name];
    if (referer) request.headers![name] = redactedUrl(referer);
  }
  for (const name of hostHeaders) {
    const host = request?.headers?.[name];
    if (host) request.headers![name] = redactedHost(host);
  }
  // An error's transaction is named after the request target: `GET http://user:password@host/path`.
  if (event.transaction) event.transaction = redactedUrlsIn(event.transaction);
  // Next's request error hook (onRequestError) names the path and query that failed.
  const nextjs = event.contexts?.nextjs;
  if (typeof nextjs?.request_path === 'string') nextjs.request_path = redactedUrl(nextjs.request_path);
  const traceData = event.contexts?.trace?.data;
  if (traceData) redactUrlFields(traceData);
  // Browser spans of the page's own requests are named after the URL (a navigation's document, a resource).
  for (const span of event.spans ?? []) {
    if (span.description) span.description = redactedUrlsIn(span.description);
    if (span.data) redactUrlFields(span.data);
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
  if (span.data) redactUrlFields(span.data);
  return span;
}

/**
 * The `beforeBreadcrumb` of every runtime while personal data is off: navigations (`from`, `to`), fetch, XHR and HTTP
 * requests (`url`, and on the server the fragment on its own) and console lines, which may quote a URL. Replay records
 * breadcrumbs after this runs.
 */
export function redactedBreadcrumb(breadcrumb: Breadcrumb): Breadcrumb {
  if (breadcrumb.message) breadcrumb.message = redactedUrlsIn(breadcrumb.message);
  const data = breadcrumb.data;
  if (!data) return breadcrumb;
  // A navigation's pages (`from`, `to`); a request's `url` and its fragment (`url.fragment`) are found by their names.
  redactUrlFields(data, ['from', 'to']);
  if (Array.isArray(data.arguments)) {
    data.arguments = data.arguments.map((argument: unknown) =>
      typeof argument === 'string' ? redactedUrlsIn(argument) : argument,
    );
  }
  return breadcrumb;
}

/**
 * The `beforeSendMetric` of every runtime while personal data is off: a metric's attributes may name a URL too
 * (`ui.element.url`, from the browser's element timing).
 */
export function redactedMetric(metric: Metric): Metric {
  if (metric.attributes) redactUrlFields(metric.attributes);
  return metric;
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
