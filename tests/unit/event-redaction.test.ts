import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Breadcrumb, Client, Event, ReplayEvent, SpanJSON } from '@sentry/core';
import type { ReplayFrameEvent } from '@sentry/nextjs';
import { describe, expect, it } from 'vitest';
import {
  redactedBreadcrumb,
  redactedMetric,
  redactedSpan,
  urlRedaction,
  withoutPageQuery,
} from '../../packages/foundation/src/observability/privacy/events';
import { redactedRecordingEvent } from '../../packages/foundation/src/observability/privacy/replay';

const secrets = ['alice', 'bob', 'carol', 'hunter2', 'eyJhbGci', 'access_token', 'dave'];
const process = (event: Event) => urlRedaction.processEvent!(event, {}, {} as Client) as Event;

function expectNoSecret(value: unknown) {
  const text = JSON.stringify(value);
  for (const secret of secrets) expect(text).not.toContain(secret);
}

describe('urlRedaction: the URLs the SDK copies into events as they are', () => {
  it("an error's Host and X-Forwarded-Host, and a span's host attributes: no user-info (issue 55)", () => {
    const event = process({
      request: {
        headers: {
          host: 'user:hunter2@localhost:3000',
          'x-forwarded-host': 'alice:x@example.com',
          referer: 'data:,bob',
        },
      },
      contexts: {
        trace: {
          trace_id: 't',
          span_id: 's',
          data: { 'http.request.header.x_forwarded_host': ['carol:x@example.com'], 'server.address': 'dave@h' },
        },
      },
    });
    expect(event.request?.headers).toEqual({
      host: 'localhost:3000',
      'x-forwarded-host': 'example.com',
      referer: 'data:',
    });
    expect(event.contexts?.trace?.data).toEqual({
      'http.request.header.x_forwarded_host': ['example.com'],
      'server.address': 'h',
    });
    expectNoSecret(event);
  });

  it('a server error: request URL with user-info, Referer, transaction name, Next request path', () => {
    const event = process({
      transaction: 'GET http://user:hunter2@localhost:3000/api/diagnostics/server-error',
      request: {
        url: 'http://user:hunter2@localhost:3000/api/diagnostics/server-error?email=alice%40example.com',
        headers: { referer: 'http://localhost:3000/orders/7?email=bob%40example.com', 'x-request-id': 'r1' },
      },
      contexts: { nextjs: { request_path: '/diagnostics/ssr-error?email=carol%40example.com' } },
    });
    expectNoSecret(event);
    expect(event.request).toEqual({
      url: 'http://localhost:3000/api/diagnostics/server-error?email=',
      headers: { referer: 'http://localhost:3000/orders/7?email=', 'x-request-id': 'r1' },
    });
    expect(event.transaction).toBe('GET http://localhost:3000/api/diagnostics/server-error');
    expect(event.contexts?.nextjs).toEqual({ request_path: '/diagnostics/ssr-error?email=' });
  });

  it("a transaction: its attributes and its spans' names and attributes", () => {
    const event = process({
      type: 'transaction',
      transaction: '/examples/[id]',
      request: { url: 'http://localhost:3000/examples/42?eyJhbGciOiJIUzI1NiJ9#access_token=x', headers: {} },
      contexts: {
        trace: {
          trace_id: 't',
          span_id: 's',
          data: {
            'url.full': 'http://localhost:3000/examples/42#access_token=x',
            'http.request.header.referer': ['http://localhost:3000/?q=dave'],
          },
        },
      },
      spans: [
        {
          span_id: 'a',
          trace_id: 't',
          start_timestamp: 0,
          description: 'http://localhost:3000/examples/42?email=alice#access_token=x',
          op: 'browser.request',
          status: 'ok',
          data: { 'url.full': 'http://localhost:3000/examples/42#access_token=x' },
        },
        {
          span_id: 'b',
          trace_id: 't',
          start_timestamp: 0,
          description: 'GET /api/search',
          op: 'http.client',
          status: 'ok',
          data: { 'url.full': 'http://localhost:3000/api/search', 'url.fragment': 'access_token=x' },
        },
      ],
    });
    expectNoSecret(event);
    expect(event.request?.url).toBe('http://localhost:3000/examples/42');
    expect(event.contexts?.trace?.data).toEqual({
      'url.full': 'http://localhost:3000/examples/42',
      'http.request.header.referer': ['http://localhost:3000/?q='],
    });
    expect(event.spans?.map((span) => span.description)).toEqual([
      'http://localhost:3000/examples/42?email=',
      'GET /api/search',
    ]);
  });

  it("a browser event: the page's address and its Referer, as the browser spells it", () => {
    const event = process({
      request: {
        url: 'http://localhost:3000/examples/42?email=alice#access_token=x',
        headers: { Referer: 'https://mail.example/inbox?q=bob', 'User-Agent': 'Chrome' },
      },
    });
    expectNoSecret(event);
    expect(event.request?.headers).toEqual({ Referer: 'https://mail.example/inbox?q=', 'User-Agent': 'Chrome' });
  });

  it('a replay event: the pages it saw', () => {
    const replay = process({
      type: 'replay_event',
      urls: ['http://localhost:3000/examples/42?email=alice#access_token=x', '/examples/43?q=bob'],
    } as ReplayEvent) as ReplayEvent;
    expect(replay.urls).toEqual(['http://localhost:3000/examples/42?email=', '/examples/43?q=']);
  });

  it('leaves an event without URLs as it is', () => {
    const event: Event = { message: 'boom', tags: { a: 'b' } };
    expect(process(structuredClone(event))).toEqual(event);
  });
});

describe('withoutPageQuery', () => {
  it("keeps the SDK's attributes of a page load, not the query Next's instrumentation copies in", () => {
    const options = withoutPageQuery({
      name: '/examples/[id]',
      attributes: {
        'sentry.op': 'pageload',
        'sentry.origin': 'auto.pageload.nextjs.pages_router_instrumentation',
        'url.template': '/examples/[id]',
        id: '42',
        email: 'alice@example.com',
        eyJhbGciOiJIUzI1NiJ9: '',
      },
    });
    expect(options).toEqual({
      name: '/examples/[id]',
      attributes: {
        'sentry.op': 'pageload',
        'sentry.origin': 'auto.pageload.nextjs.pages_router_instrumentation',
        'url.template': '/examples/[id]',
      },
    });
  });
});

describe('redactedBreadcrumb', () => {
  it('navigations, requests and console lines', () => {
    const breadcrumbs: Breadcrumb[] = [
      { category: 'navigation', data: { from: '/examples/42?email=alice', to: '/examples/43#access_token=x' } },
      { category: 'fetch', data: { method: 'GET', url: '/api/search?q=bob', status_code: 200 } },
      { category: 'http', data: { url: 'http://user:hunter2@api.example/v1' } },
      {
        category: 'console',
        message: 'failed for /api/x?email=carol',
        data: { arguments: ['failed for /api/x?email=carol', { n: 1 }], logger: 'console' },
      },
    ].map(redactedBreadcrumb);
    expectNoSecret(breadcrumbs);
    expect(breadcrumbs[0]?.data).toEqual({ from: '/examples/42?email=', to: '/examples/43' });
    expect(breadcrumbs[1]?.data).toEqual({ method: 'GET', url: '/api/search?q=', status_code: 200 });
    expect(breadcrumbs[3]?.data?.arguments).toEqual(['failed for /api/x?email=', { n: 1 }]);
  });
});

describe('redactedRecordingEvent: what replay records of URLs itself', () => {
  it('the spans of navigations, requests and resources, and its own breadcrumbs', () => {
    const events = [
      {
        type: 5,
        timestamp: 1,
        data: {
          tag: 'performanceSpan',
          payload: {
            op: 'navigation.push',
            description: '/examples/43?email=alice#access_token=x',
            startTimestamp: 1,
            endTimestamp: 1,
            data: { previous: '/examples/42?q=bob' },
          },
        },
      },
      {
        type: 5,
        timestamp: 1,
        data: {
          tag: 'breadcrumb',
          payload: {
            category: 'ui.slowClickDetected',
            timestamp: 1,
            data: { url: 'http://localhost:3000/examples/42?email=carol' },
          },
        },
      },
    ] as ReplayFrameEvent[];
    expectNoSecret(events.map(redactedRecordingEvent));
    expect(events[0]?.data.payload).toMatchObject({
      description: '/examples/43?email=',
      data: { previous: '/examples/42?q=' },
    });
  });
});

describe('redactedSpan (beforeSendSpan): spans, the standalone INP span included', () => {
  const span = (fields: Partial<SpanJSON>): SpanJSON =>
    ({ span_id: 'a', trace_id: 'b', start_timestamp: 1, data: {}, ...fields }) as SpanJSON;

  it('an INP click span named after the page: its fragment and query', () => {
    const redacted = redactedSpan(
      span({
        description: 'body > button',
        data: {
          'sentry.op': 'ui.interaction.click',
          'sentry.transaction': '/examples/42?email=alice#access_token=hunter2',
          'sentry.segment.name': '/examples/42#access_token=hunter2',
          transaction: "/it's?q=bob#access_token=hunter2",
        },
      }),
    );
    expectNoSecret(redacted);
    expect(redacted.data).toEqual({
      'sentry.op': 'ui.interaction.click',
      'sentry.transaction': '/examples/42?email=',
      'sentry.segment.name': '/examples/42',
      transaction: "/it's?q=",
    });
    expect(redacted.description).toBe('body > button');
  });

  it("a span's name with a quote in its URL, and a server span's url.path as well as url.full", () => {
    const redacted = redactedSpan(
      span({
        description: "GET /o'k?eyJhbGciOiJ9#access_token=x",
        data: {
          'url.full': 'http://localhost:3000//user:hunter2@h/x',
          'url.path': '//user:hunter2@h/x',
          'http.target': 'HTTP://user:hunter2@h/x?email=carol',
        },
      }),
    );
    expectNoSecret(redacted);
    expect(redacted.description).toBe("GET /o'k");
    expect(redacted.data).toEqual({
      'url.full': 'http://localhost:3000//h/x',
      'url.path': '//h/x',
      'http.target': 'HTTP://h/x?email=',
    });
  });
});

// Issue 44: the browser SDK put the page's largest paint's address on the page load under names no list had
// (`lcp.url`, `browser.web_vital.lcp.url`, `ui.element.url`). The names come from the installed SDK itself: every
// attribute key its builds and its conventions' registry (@sentry/conventions) spell that says URL, URI or referrer.
describe('every attribute the installed SDK names as a URL', () => {
  const sentryDir = 'node_modules/@sentry';
  const sdkVersion = (JSON.parse(readFileSync(`${sentryDir}/nextjs/package.json`, 'utf8')) as { version: string })
    .version;
  /** The SDK's packages at the app's version (not the older copies that tools bring), and the attribute registry. */
  const packages = readdirSync(sentryDir).filter((name) => {
    const { version } = JSON.parse(readFileSync(`${sentryDir}/${name}/package.json`, 'utf8')) as { version: string };
    return version === sdkVersion || name === 'conventions';
  });
  const sources = packages.flatMap((name) =>
    readdirSync(`${sentryDir}/${name}`, { recursive: true, withFileTypes: true })
      // Not the packages' own node_modules: older copies of the SDK that a tool brings.
      .filter(
        (entry) =>
          entry.isFile() &&
          /\.m?js$/.test(entry.name) &&
          !entry.parentPath.includes('/node_modules/', sentryDir.length),
      )
      .map((entry) => join(entry.parentPath, entry.name)),
  );
  /** A quoted attribute key (lowercase words joined by dots), not a file name. */
  const attributeKey = /["'`]([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)+)["'`]/g;
  /** Says URL, URI or referrer anywhere, or is a URL's fragment or query on its own. */
  const urlLike = /ur[il]|href|referr?er|\.(?:fragment|query)$/;
  // The one the SDK spells from a header's name.
  const keys = new Set<string>(['http.request.header.referer']);
  for (const file of sources) {
    for (const [, key] of readFileSync(file, 'utf8').matchAll(attributeKey)) {
      if (urlLike.test(key!) && !/\.(?:c|m)?js$|\.map$|\.json$/.test(key!)) keys.add(key!);
    }
  }
  const urlKeys = [...keys].sort();
  const secretUrl = 'https://user:hunter2@cdn.example/avatar.png?X-Amz-Signature=alice&token=bob#access_token=carol';

  it("finds the SDK's URL attributes, the web vitals' and the fragment's among them", () => {
    expect(packages).toEqual(expect.arrayContaining(['browser', 'browser-utils', 'core', 'nextjs', 'node']));
    expect(urlKeys).toEqual(
      expect.arrayContaining([
        'lcp.url',
        'browser.web_vital.lcp.url',
        'ui.element.url',
        'url.full',
        'url.fragment',
        'http.url',
        'http.fragment',
      ]),
    );
  });

  it('redacts each in a span (beforeSendSpan), a transaction and its spans, a breadcrumb and a metric', () => {
    for (const key of urlKeys) {
      const data = () => ({ [key]: secretUrl, 'sentry.op': 'pageload' });
      const span = redactedSpan({ span_id: 'a', trace_id: 't', start_timestamp: 1, status: 'ok', data: data() });
      const event = process({
        type: 'transaction',
        contexts: { trace: { trace_id: 't', span_id: 's', data: data() } },
        spans: [{ span_id: 'a', trace_id: 't', start_timestamp: 0, status: 'ok', data: data() }],
      });
      const breadcrumb = redactedBreadcrumb({ category: 'http', data: data() });
      const metric = redactedMetric({
        name: 'ui.element.render_time',
        type: 'distribution',
        value: 1,
        attributes: data(),
      });
      for (const [where, value] of Object.entries({ span, event, breadcrumb, metric })) {
        const text = JSON.stringify(value);
        for (const secret of ['hunter2', 'alice', 'bob', 'carol'])
          expect(text, `${key} in a ${where}`).not.toContain(secret);
        expect(text, `${key} in a ${where}: the rest stays`).toContain('pageload');
      }
    }
  });

  it("keeps what a URL attribute says that no one's secret is", () => {
    const span = redactedSpan({
      span_id: 'a',
      trace_id: 't',
      start_timestamp: 1,
      status: 'ok',
      data: { 'lcp.url': secretUrl, 'browser.web_vital.lcp.url': secretUrl, 'url.fragment': 'access_token=carol' },
    });
    expect(span.data).toEqual({
      'lcp.url': 'https://cdn.example/avatar.png?token=',
      'browser.web_vital.lcp.url': 'https://cdn.example/avatar.png?token=',
    });
  });

  it("a server request's breadcrumb: its fragment and query fields go, whatever the SDK names them", () => {
    const breadcrumb = redactedBreadcrumb({
      category: 'http',
      type: 'http',
      data: {
        url: 'http://backend.example/greeting',
        'http.method': 'GET',
        status_code: 200,
        'url.query': 'email=alice',
        'url.fragment': 'access_token=carol',
        'http.query': 'email=alice',
        'http.fragment': 'access_token=carol',
      },
    });
    expect(breadcrumb.data).toEqual({ url: 'http://backend.example/greeting', 'http.method': 'GET', status_code: 200 });
  });
});
