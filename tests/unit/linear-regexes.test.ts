import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Client, Event, SpanJSON } from '@sentry/core';
import { getNamedRouteRegex } from 'next/dist/shared/lib/router/utils/route-regex';
import { unstable_doesMiddlewareMatch } from 'next/experimental/testing/server';
import ts from 'typescript';
import { appFolders } from '@web-foundation/testing/apps';
import { describe, expect, it } from 'vitest';
import { sentryTraceFromTraceparent } from '../../packages/foundation/src/observability/server/traceparent';
import { consoleRecord } from '../../packages/foundation/src/observability/server/log.mts';
import { withRedactedReferer } from '../../packages/foundation/src/observability/privacy/logs.mts';
import {
  redactedBreadcrumb,
  redactedSpan,
  urlRedaction,
} from '../../packages/foundation/src/observability/privacy/events';
import { redactedUrl, redactedUrlsIn } from '../../packages/foundation/src/observability/privacy/urls.mts';
import { cachedPages } from '../../packages/foundation/src/server/cachedPages';
import { hasDotSegment } from '../../packages/foundation/src/server/dotSegments.mts';
import { requestIdFor } from '../../packages/foundation/src/server/requestId.mts';
import { bearerMatches, revalidationRequest } from '../../packages/foundation/src/server/revalidation';
import { pageOfData, proxyDecision } from '../../packages/foundation/src/server/routing';
import { trustedProxies } from '../../packages/foundation/src/config/trustedProxies.mts';
import { bodyNetwork } from '../../packages/foundation/src/server/preload/networks.mts';
import { acceptsBrotli } from '../../packages/foundation/src/server/preload/precompressed.mts';

// Issue 44: no input is slow. A regex that retries from every position and reads to the end each time is quadratic:
// the redaction's user-info rule was one, and it ran several times per request. Every regex in src/ runs here
// on 16 KB of what makes a backtracking engine retry (runs of letters, `a-`, `a+`, `a.`, `a:`, slashes), without and
// with `@`, `?` or `#` at the end and at both ends; so does every function that applies one to request data.

/**
 * The longest one pass may take: a linear pass over 16 KB takes well under a millisecond, a quadratic one hundreds
 * (docs/reliability-and-security.md). Counted in this thread's own CPU time, one run: other processes on a loaded
 * machine do not lengthen it, and a quadratic rule pays its retries whatever the machine does.
 */
const boundMs = 50;
const size = 16 * 1024;

const runs = ['a', 'a-', 'a+', 'a.', 'a:', '/', '//a', 'a=&', 'A', 'aB1', '%2e', '\\', ' ', '0;', '\u001b[1'];
const ends = ['', '@', '?', '#'];
const inputs = runs.flatMap((run) => {
  const body = run.repeat(Math.ceil(size / run.length)).slice(0, size);
  return ends.flatMap((end) => (end ? [body + end, end + body + end] : [body]));
});

/** The CPU time, in milliseconds, this thread spends on one pass. */
function cpuMs(pass: () => unknown): number {
  const started = process.threadCpuUsage();
  pass();
  const { user, system } = process.threadCpuUsage(started);
  return (user + system) / 1000;
}

/** Each input the pass took longer than the bound on, named by its shape. */
function slowInputs(pass: (input: string) => unknown): string[] {
  return inputs
    .filter((input) => cpuMs(() => pass(input)) >= boundMs)
    .map((input) => `${JSON.stringify(input.slice(0, 6))}… (${input.length})`);
}

/** Every regex literal in the source files below `dir`, with where it is. */
function regexLiterals(dir: string): { where: string; regex: RegExp }[] {
  const found: { where: string; regex: RegExp }[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(?:mts|ts|tsx)$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
        const text = node.getText(source);
        const end = text.lastIndexOf('/');
        const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
        found.push({
          where: `${path}:${line + 1} ${text}`,
          regex: new RegExp(text.slice(1, end), text.slice(end + 1)),
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe('every regex in apps/*/src/ and packages/foundation/src/ runs in linear time', () => {
  const literals = [
    ...readdirSync('apps').flatMap((app) => regexLiterals(`apps/${app}/src`)),
    ...regexLiterals('packages/foundation/src'),
  ];

  it('finds the regexes (the redaction among them)', () => {
    expect(literals.length).toBeGreaterThan(30);
    expect(literals.some(({ where }) => where.includes('privacy/urls.mts'))).toBe(true);
  });

  it.each(literals.map(({ where, regex }) => [where, regex] as const))('%s', (_, regex) => {
    // What the code does with one: exec or test (the first match) or replace and split (every match, with `g`).
    expect(slowInputs((input) => input.replace(regex, ''))).toEqual([]);
  });

  it("Next's regexes for every app's proxy matcher and for the app's dynamic routes", async () => {
    for (const app of appFolders()) {
      const { config } = (await import(resolve(app, 'src/proxy.ts'))) as { config: { matcher: string[] } };
      expect(
        slowInputs((input) => unstable_doesMiddlewareMatch({ config, url: `http://h/${input}` })),
        app,
      ).toEqual([]);
    }
    for (const route of ['/examples/on-demand/[slug]', '/examples/docs/[...path]', '/examples/[id]']) {
      const regex = new RegExp(getNamedRouteRegex(route, { prefixRouteKeys: false }).re.source);
      const prefix = route.slice(0, route.indexOf('['));
      expect(
        slowInputs((input) => regex.exec(`${prefix}${input}`)),
        route,
      ).toEqual([]);
    }
  });
});

describe('every function that applies a regex to request data runs in linear time', () => {
  const pages = cachedPages({
    routes: { '/examples/generated': {} },
    dynamicRoutes: {
      '/examples/on-demand/[slug]': {
        routeRegex: getNamedRouteRegex('/examples/on-demand/[slug]', { prefixRouteKeys: false }).re.source,
        fallback: null,
      },
    },
  });
  const process = (event: Event) => urlRedaction.processEvent!(event, {}, {} as Client);
  const span = (url: string): SpanJSON => ({
    span_id: 'a',
    trace_id: 'b',
    start_timestamp: 1,
    status: 'ok',
    description: `GET ${url}`,
    data: {
      'url.full': `http://h${url}`,
      'url.path': url,
      'http.target': url,
      'lcp.url': url,
      'sentry.transaction': url,
    },
  });

  it.each<[string, (input: string) => unknown]>([
    ['redactedUrl', (input) => redactedUrl(input)],
    ['redactedUrl, after a host', (input) => redactedUrl(`http://h/${input}`)],
    ['redactedUrl, a query', (input) => redactedUrl(`/a?${input}`)],
    ['redactedUrlsIn', (input) => redactedUrlsIn(input)],
    ['redactedUrlsIn, a span name', (input) => redactedUrlsIn(`GET /${input}`)],
    [
      'an event, a transaction and its spans',
      (input) =>
        process({
          transaction: `GET /${input}`,
          request: { url: `http://h/${input}`, headers: { referer: `/${input}` } },
          contexts: { trace: { trace_id: 'b', span_id: 'a', data: span(`/${input}`).data } },
          spans: [span(`/${input}`)],
        }),
    ],
    ['redactedSpan (beforeSendSpan)', (input) => redactedSpan(span(`/${input}`))],
    [
      'redactedBreadcrumb',
      (input) =>
        redactedBreadcrumb({
          message: input,
          data: { url: input, from: input, 'url.fragment': input, arguments: [input] },
        }),
    ],
    [
      'a log line: its Referer, a console line',
      (input) => [withRedactedReferer({ referer: input }), consoleRecord([input])],
    ],
    ['dot segments', (input) => hasDotSegment(`/_next/data/${input}.json?${input}`)],
    [
      'the proxy: page data, slug rules',
      (input) => [
        pageOfData(`/_next/data/b/${input}.json`),
        proxyDecision('GET', `/examples/on-demand/${input}`, pages),
      ],
    ],
    ['the request id', (input) => requestIdFor(input)],
    ['an Accept-Encoding header', (input) => [acceptsBrotli(input), acceptsBrotli(`${input},br;q=${input}`)]],
    [
      "a trusted proxy's X-Forwarded-For",
      (input) => [
        bodyNetwork('10.0.0.1', input, trustedProxies('10.0.0.0/8')),
        bodyNetwork('10.0.0.1', `1.2.3.4,${input}`, trustedProxies('10.0.0.0/8')),
        bodyNetwork('10.0.0.1', `${input},1.2.3.4`, trustedProxies('10.0.0.0/8')),
      ],
    ],
    ['a traceparent', (input) => sentryTraceFromTraceparent(`00-${input}`)],
    [
      'the revalidation webhook',
      (input) => [
        bearerMatches(`Bearer ${input}`, 'secret'),
        revalidationRequest(JSON.stringify({ path: `/${input}` }), pages, {}),
      ],
    ],
  ])('%s', (_, pass) => {
    expect(slowInputs(pass)).toEqual([]);
  });
});
