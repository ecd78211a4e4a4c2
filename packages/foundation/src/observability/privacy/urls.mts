// The one place that decides what of a URL may leave the app while personal data is off (SENTRY_COLLECT_PII unset):
// Sentry events, spans, breadcrumbs and replays, and every log line, take their URLs through here. TypeScript that Node
// runs as it is (`.mts`), because the server's preload (packages/foundation/src/server/preload.mts) loads it outside
// Next's bundle; the server's and the browser's bundles import the same file.

/**
 * A query key that says what was asked without saying who asked: a short name (`q`, `page_size`, `pageSize`, `ids[]`,
 * `utm-source`, `v2`), its words lowercase or camelCase, digits only at its end. Next's router writes a bare token
 * (`?TOKEN`) back as a key (`?TOKEN=`), and a short token is no longer than a name: what names rarely look like
 * (a capital first, capitals together, digits within) is taken for one.
 */
const plainKey = /^(?=.{1,24}$)[a-z_][a-z_.-]*(?:[A-Z][a-z_.-]+)*\d{0,3}(?:\[\])?$/;

/**
 * User-info: what follows two slashes, up to the authority's last `@`. Anywhere in the URL, not only at its start: the
 * SDK writes an odd request target after the host (`GET HTTP://user:pw@h/x` becomes `http://hostHTTP://user:pw@h/x`,
 * `GET //user:pw@h/x` becomes `http://host//user:pw@h/x`). No scheme in the rule: it stays as it is either way, and
 * trying one from every letter of a long path made the rule quadratic. Linear: each try reads up to the next slash.
 */
const userInfo = /(?<=[/\\]{2})[^/\\]*@/g;

/**
 * User-info straight after a scheme, with no slashes or any number of them: `https:user:pw@host/x`, which browsers
 * read as `https://user:pw@host/x`. Anchored, so one try; each reads up to the authority's end.
 */
const schemeUserInfo = /^([a-z][a-z\d+.-]*:[/\\]*)[^/\\]*@/i;

/** Schemes whose URL is its content (`data:text/html,<p>…`, `javascript:…`): only the scheme may leave. */
const contentScheme = /^\s*(data|javascript):/i;

/**
 * The URL without what may identify a person: no fragment (`#access_token=…`), no user-info (`user:password@`), and
 * of the query only the keys of `key=value` pairs whose key is a plain name (`/search?q=&page=`). A pair without `=`
 * is a bare token (`?eyJhbGci…`) and goes whole. Takes an absolute URL, an absolute-form or origin-form request target,
 * a relative URL or anything else; never throws.
 */
export function redactedUrl(url: unknown): string {
  if (typeof url !== 'string') return '';
  const content = contentScheme.exec(url);
  if (content) return `${content[1]!.toLowerCase()}:`;
  const fragment = url.indexOf('#');
  const withoutFragment = fragment < 0 ? url : url.slice(0, fragment);
  const query = withoutFragment.indexOf('?');
  const base = query < 0 ? withoutFragment : withoutFragment.slice(0, query);
  const origin = base.includes('@') ? base.replace(schemeUserInfo, '$1').replace(userInfo, '') : base;
  if (query < 0) return origin;
  const keys: string[] = [];
  for (const pair of withoutFragment.slice(query + 1).split('&')) {
    const equals = pair.indexOf('=');
    const key = pair.slice(0, equals);
    if (equals > 0 && plainKey.test(key)) keys.push(`${key}=`);
  }
  return keys.length ? `${origin}?${keys.join('&')}` : origin;
}

/**
 * What looks like a URL or a path in free text: from a `/` up to a space, a double quote or an angle bracket. Not up
 * to a single quote or a backtick: browsers leave both unencoded in a path (`/it's?token=…`). A scheme before the `/`
 * stays as it is, as in redactedUrl; a rule that took it in tried one from every letter, quadratic on `a+a+…?`.
 */
const urlInText = /\/[^\s"<>]*/g;

/** Free text (a message Next or a library wrote, a span name) with each URL in it redacted as redactedUrl does. */
export function redactedUrlsIn(text: unknown): string {
  if (typeof text !== 'string') return '';
  if (!/[?#@]/.test(text)) return text;
  return text.replace(urlInText, (url) => redactedUrl(url));
}

/** A `Host` or `X-Forwarded-Host` value without user-info (`user:pw@host:3000` is `host:3000`); never throws. */
export function redactedHost(host: unknown): string {
  if (typeof host !== 'string') return '';
  return host.slice(host.lastIndexOf('@') + 1);
}

/** A URL as a log line carries it: whole when an operator turned personal data on, else redacted. */
export function loggedUrl(url: string, collectPersonalData: boolean): string {
  return collectPersonalData ? url : redactedUrl(url);
}
