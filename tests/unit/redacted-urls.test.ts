import { describe, expect, it } from 'vitest';
import {
  redactedHost,
  redactedUrl,
  redactedUrlsIn,
} from '../../packages/foundation/src/observability/privacy/urls.mts';

const jwt =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('redactedUrl: the four leaks of issue 27', () => {
  it('an API error with query values: keeps the keys, drops the values', () => {
    expect(redactedUrl('/api/diagnostics/server-error?email=alice%40example.com&q=my+name')).toBe(
      '/api/diagnostics/server-error?email=&q=',
    );
    expect(redactedUrl('http://localhost:3000/api/diagnostics/server-error?email=alice@example.com&q=x')).toBe(
      'http://localhost:3000/api/diagnostics/server-error?email=&q=',
    );
  });

  it("a Referer: another page's query", () => {
    expect(redactedUrl('https://shop.example/orders/7?email=alice%40example.com&ref=mail')).toBe(
      'https://shop.example/orders/7?email=&ref=',
    );
  });

  it('an absolute-form request target: drops the user-info', () => {
    expect(redactedUrl('http://user:password@localhost:3000/api/health')).toBe('http://localhost:3000/api/health');
    expect(redactedUrl('http://user:password@localhost:3000/a?x=1')).toBe('http://localhost:3000/a?x=');
    expect(redactedUrl('HTTPS://token@host.example/')).toBe('HTTPS://host.example/');
    expect(redactedUrl('http://a@b:c%40d@host/p')).toBe('http://host/p');
    expect(redactedUrl('//user:password@host/p')).toBe('//host/p');
    expect(redactedUrl('http://user:password@host')).toBe('http://host');
  });

  it('a bare token (a pair without =): goes whole', () => {
    expect(redactedUrl(`/examples/42?${jwt}`)).toBe('/examples/42');
    expect(redactedUrl('/examples/42?secret')).toBe('/examples/42');
    expect(redactedUrl(`/examples/42?page=2&${jwt}`)).toBe('/examples/42?page=');
  });
});

describe('redactedUrl: what survives', () => {
  it('keeps only keys that are short plain names', () => {
    expect(redactedUrl('/a?page_size=1&ids[]=2&sort.by=3&utm-source=4')).toBe(
      '/a?page_size=&ids[]=&sort.by=&utm-source=',
    );
    // A token sent as a key, an address, an encoded key, a number, a UUID: none is a name.
    expect(redactedUrl(`/a?${jwt}=`)).toBe('/a');
    expect(redactedUrl('/a?alice@example.com=1&a%40b=2')).toBe('/a');
    expect(redactedUrl('/a?4242424242424242=1')).toBe('/a');
    expect(redactedUrl('/a?f47ac10b-58cc-4372-a567-0e02b2c3d479=1')).toBe('/a');
    expect(redactedUrl('/a?abcdefghijklmnopqrstuvwx=1&abcdefghijklmnopqrstuvwxy=1')).toBe(
      '/a?abcdefghijklmnopqrstuvwx=',
    );
  });

  it('drops the fragment', () => {
    expect(redactedUrl('http://localhost:3000/callback#access_token=abc&state=x')).toBe(
      'http://localhost:3000/callback',
    );
    expect(redactedUrl('/a?x=1#y=2')).toBe('/a?x=');
    expect(redactedUrl('/a#section')).toBe('/a');
  });

  it('leaves a URL with nothing to redact as it is, an @ in the path included', () => {
    for (const url of ['/', '/examples/42', 'http://localhost:3000/users/@alice', 'examples/42', '']) {
      expect(redactedUrl(url)).toBe(url);
    }
    expect(redactedUrl('https://host.example/@alice?tab=1')).toBe('https://host.example/@alice?tab=');
  });

  it('never throws on malformed input', () => {
    const cases: [unknown, string][] = [
      ['?', ''],
      ['#', ''],
      ['?=&&=x&', ''],
      ['/%E0%A4%A?%zz=1', '/%E0%A4%A'],
      ['http://[::1?x=1', 'http://[::1?x='],
      ['http://@/', 'http:///'],
      ['ftp://user:pw@files.example/a', 'ftp://files.example/a'],
      ['not a url at all?secret value', 'not a url at all'],
      [undefined, ''],
      [null, ''],
      [42, ''],
    ];
    for (const [input, expected] of cases) expect(redactedUrl(input as string)).toBe(expected);
  });
});

describe('redactedUrlsIn: URLs inside free text', () => {
  it('redacts each URL of a message Next writes, and nothing else', () => {
    expect(
      redactedUrlsIn(
        'API resolved without sending a response for /api/x?email=alice@example.com, this may result in stalled requests.',
      ),
    ).toBe('API resolved without sending a response for /api/x?email= this may result in stalled requests.');
    expect(redactedUrlsIn('GET http://user:password@localhost:3000/api/health')).toBe(
      'GET http://localhost:3000/api/health',
    );
    expect(redactedUrlsIn(`from /a?${jwt} to "http://h/b#access_token=1"`)).toBe('from /a to "http://h/b"');
  });

  it('leaves text without ?, # or @ untouched, and file paths in a stack', () => {
    expect(redactedUrlsIn('GET /examples/[id]')).toBe('GET /examples/[id]');
    const frame = 'at f (/app/node_modules/@sentry/core/build/esm/index.js:1:2)';
    expect(redactedUrlsIn(frame)).toBe(frame);
    expect(redactedUrlsIn(undefined as unknown as string)).toBe('');
  });
});

describe('issue 36: URL forms that got past the redaction', () => {
  it('a single quote or a backtick in a URL: the query and fragment after it go', () => {
    expect(redactedUrlsIn("GET /it's?email=alice%40example.com#access_token=abc")).toBe("GET /it's?email=");
    expect(redactedUrlsIn('GET /a`b?email=alice%40example.com#access_token=abc')).toBe('GET /a`b?email=');
    expect(redactedUrlsIn("resource http://h/o'k/x.js?token=abc")).toBe("resource http://h/o'k/x.js?token=");
    expect(redactedUrl("/it's?email=alice#access_token=abc")).toBe("/it's?email=");
  });

  it('a short bare token Next turned into a key (?TOKEN becomes ?TOKEN=): goes whole', () => {
    for (const token of ['TOKEN', 'k3JdX9aQ', 'Zm9vYmFy', 'aBCdef', '9f86d081', 'ABCDEFGH']) {
      expect(redactedUrl(`/examples/42?${token}=`), token).toBe('/examples/42');
      expect(redactedUrl(`/_next/data/b/examples/42.json?${token}=&page=2`), token).toBe(
        '/_next/data/b/examples/42.json?page=',
      );
    }
  });

  it('names stay names: lowercase, snake, kebab, camelCase, a number at the end, []', () => {
    const names = ['q', 'page', 'page_size', 'pageSize', 'utm-source', 'sort.by', 'ids[]', 'v2', '_ga', 'returnTo'];
    expect(redactedUrl(`/a?${names.map((n) => `${n}=1`).join('&')}`)).toBe(`/a?${names.map((n) => `${n}=`).join('&')}`);
  });

  it('scheme-like request lines, any case, ws: and protocol-relative: user-info goes wherever it is', () => {
    for (const target of [
      'HTTP://user:hunter2@h/x',
      'Http://user:hunter2@h/x',
      'ws://user:hunter2@h/x',
      '//user:hunter2@h/x',
    ]) {
      const scheme = target.slice(0, target.indexOf('//') + 2);
      // The SDK's url.full for such a line: its target written after the host.
      expect(redactedUrl(`http://localhost:3000${target}`), target).toBe(`http://localhost:3000${scheme}h/x`);
      expect(redactedUrl(target), target).toBe(`${scheme}h/x`);
      expect(redactedUrlsIn(`GET ${target}`), target).toBe(`GET ${scheme}h/x`);
    }
  });
});

describe('issue 55: URL shapes of round four', () => {
  it('user-info straight after a scheme, with or without slashes: it goes', () => {
    expect(redactedUrl('https:user:hunter2@host/x')).toBe('https:host/x');
    expect(redactedUrl('HTTPS:\\user:hunter2@host/x?email=a')).toBe('HTTPS:\\host/x?email=');
    expect(redactedUrl('http:/user:hunter2@host/x')).toBe('http:/host/x');
    expect(redactedUrl('https://user:hunter2@host/x')).toBe('https://host/x');
    // A path with an @ in it keeps it: no scheme before it.
    expect(redactedUrl('/people/@alice')).toBe('/people/@alice');
  });

  it('a data: or javascript: URL is its content: only the scheme leaves', () => {
    expect(redactedUrl('data:text/html,<p>card 4111111111111111</p>')).toBe('data:');
    expect(redactedUrl(' DATA:;base64,c2VjcmV0')).toBe('data:');
    expect(redactedUrl('javascript:alert(document.cookie)')).toBe('javascript:');
  });

  it('a Host or X-Forwarded-Host value loses its user-info', () => {
    expect(redactedHost('user:hunter2@localhost:3000')).toBe('localhost:3000');
    expect(redactedHost('a@b@example.com')).toBe('example.com');
    expect(redactedHost('localhost:3000')).toBe('localhost:3000');
    expect(redactedHost(undefined)).toBe('');
  });
});
