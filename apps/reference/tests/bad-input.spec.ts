import { appHost, appOrigin, appPort, ingestOrigin } from '@web-foundation/testing/env';
import { rawRequest } from '@web-foundation/testing/raw-http';
import { expect, test } from '@web-foundation/testing';

// Issue 5: a corpus of malformed and hostile requests. Each gets a deliberate 4xx (or a correct 2xx/3xx), never a 5xx,
// a hang, a stack trace or a file path; a forged request id is never echoed; the server stays up.

interface Case {
  label: string;
  request: string | Buffer;
  /** Statuses that are correct for this request; by default any 2xx-4xx. */
  allowed?: (status: number) => boolean;
}

const http = (method: string, target: string, headers: string[] = [], body = '') =>
  [`${method} ${target} HTTP/1.1`, `Host: ${appHost}:${appPort}`, 'Connection: close', ...headers, '', body].join(
    '\r\n',
  );
const get = (target: string, headers: string[] = []) => http('GET', target, headers);
const clientError = (status: number) => status >= 400 && status < 500;
const image = (query: string) => `/_next/image?${query}`;

function corpus(buildId: string): Case[] {
  const cases: Case[] = [];
  const add = (label: string, request: string | Buffer, allowed?: Case['allowed']) =>
    cases.push({ label, request, allowed });

  for (const path of [
    '/%',
    '/%zz',
    '/a%ZZb',
    '/examples/%E0%A4%A',
    '/api/%ff%fe',
    '/%%32%65',
    '/examples/docs/%',
    '/%00',
    '/%c0%af',
    '/api/%',
  ])
    add(`bad encoding ${path}`, get(path), clientError);
  for (const path of [
    '/%252e%252e/package.json',
    '/examples/%2e%2e/%2e%2e/package.json',
    '/api/..%2f..%2fpackage.json',
  ])
    add(`double or encoded dots ${path}`, get(path), clientError);
  for (const size of [8 * 1024, 16 * 1024, 100 * 1024]) {
    add(`path of ${size} bytes`, get(`/${'a'.repeat(size)}`), clientError);
    add(`query of ${size} bytes`, get(`/?q=${'b'.repeat(size)}`));
    add(`API query of ${size} bytes`, get(`/api/health?q=${'c'.repeat(size)}`));
  }
  add('a 20 KB header', get('/', [`X-Big: ${'d'.repeat(20 * 1024)}`]), clientError);
  add('a 100 KB header', get('/', [`X-Big: ${'d'.repeat(100 * 1024)}`]), clientError);
  add(
    '200 headers',
    get(
      '/',
      Array.from({ length: 200 }, (_, i) => `X-H${i}: v`),
    ),
  );
  add(
    '3000 headers',
    get(
      '/',
      Array.from({ length: 3000 }, (_, i) => `X-H${i}: v`),
    ),
    clientError,
  );
  add('two Host headers', get('/', [`Host: evil.example`]), clientError);
  add(
    'two Content-Length headers',
    http('POST', '/api/health', ['Content-Length: 1', 'Content-Length: 2'], 'x'),
    clientError,
  );
  add(
    'Content-Length and Transfer-Encoding',
    http('POST', '/api/health', ['Content-Length: 4', 'Transfer-Encoding: chunked'], '0\r\n\r\n'),
    clientError,
  );
  add('two X-Request-Id headers', get('/api/nope', ['X-Request-Id: one', 'X-Request-Id: two']));
  add(
    'NUL in the path',
    Buffer.from(`GET /a\0b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1'),
    clientError,
  );
  add(
    'NUL in a header',
    Buffer.from(`GET / HTTP/1.1\r\nHost: x\r\nX-A: a\0b\r\nConnection: close\r\n\r\n`, 'latin1'),
    clientError,
  );
  add(
    'control characters in the path',
    Buffer.from(`GET /a\x01\x7f HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 'latin1'),
    clientError,
  );
  add('a bare LF request', Buffer.from(`GET / HTTP/1.1\nHost: x\n\n`, 'latin1'));
  add('garbage', Buffer.from('\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 'latin1'), clientError);
  // Node reads a request line without a version as HTTP/0.9 and serves it: a correct answer.
  add('HTTP/0.9', 'GET /\r\n\r\n');
  add('HTTP/2 preface on HTTP/1', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', (s) => s === 0 || clientError(s));
  add('absolute-form to another host', http('GET', 'http://evil.example/api/health'));
  add('absolute-form page to another host', http('GET', 'http://evil.example/examples/new/'));
  add('absolute-form to the ingest', http('GET', `${ingestOrigin}/__ingest/health`));
  add('absolute-form file URL', http('GET', 'file:///etc/passwd'), clientError);
  add('OPTIONS *', http('OPTIONS', '*'));
  add('GET *', http('GET', '*'), clientError);

  for (const method of ['TRACE', 'TRACK', 'PROPFIND', 'MKCOL', 'LOCK', 'PURGE', 'FOO'])
    for (const path of ['/', '/api/health', '/examples/42']) add(`${method} ${path}`, http(method, path), clientError);
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
    for (const path of ['/', '/examples/new', '/examples/42', '/no/such/page'])
      add(`${method} ${path}`, http(method, path, ['Content-Length: 0']), clientError);
  for (const path of ['/', '/examples/42', '/api/health', '/api']) add(`OPTIONS ${path}`, http('OPTIONS', path));
  // Static assets and the image optimiser are read-only.
  for (const method of ['POST', 'PUT', 'DELETE'])
    for (const path of [image('url=%2Fhero.png&w=640&q=75'), '/_next/static/chunks/nope.js'])
      add(`${method} ${path}`, http(method, path, ['Content-Length: 0']), (s) => s === 405);

  const data = [
    '/_next/data/wrong/index.json',
    `/_next/data/${buildId}/nope.json`,
    `/_next/data/${buildId}/examples/%zz.json`,
    `/_next/data/${buildId}/../../package.json`,
    '/_next/data/../../package.json',
    `/_next/data/${buildId}/${'x'.repeat(5000)}.json`,
    `/_next/data/${buildId}/examples/42.json?id=${'9'.repeat(9000)}`,
    `/_next/data/${buildId}`,
    '/_next/data/',
    `/_next/data/${buildId}/api/health.json`,
  ];
  for (const path of data) add(`page data ${path.slice(0, 60)}`, get(path, ['x-nextjs-data: 1']));
  add(
    'page data with POST',
    http('POST', `/_next/data/${buildId}/examples/42.json`, ['x-nextjs-data: 1', 'Content-Length: 0']),
    clientError,
  );

  const secrets = [
    '/.env',
    '/.env.local',
    '/package.json',
    '/next.config.ts',
    '/tsconfig.json',
    '/.next/BUILD_ID',
    '/.git/config',
    '/src/proxy.ts',
    '/_next/static/../../package.json',
    '/_next/static/..%2f..%2fpackage.json',
    '/_next/static/%2e%2e/%2e%2e/package.json',
    '/_next/static/chunks/..%2F..%2F..%2Fpackage.json',
    '/_next/static/%2F..%2F..%2F.env',
    '/_next/server/pages/index.js',
    '/_next/static/chunks/main.js.map',
    '/_next/../package.json',
    '/public/robots.txt',
    '/node_modules/next/package.json',
  ];
  for (const path of secrets) {
    add(`no secret at ${path}`, get(path), clientError);
    add(`no secret at HEAD ${path}`, http('HEAD', path), clientError);
  }

  const images = [
    'url=http%3A%2F%2Fexample.com%2Fx.png&w=640&q=75',
    'url=https%3A%2F%2Fexample.com%2Fx.png&w=640&q=75',
    'url=file%3A%2F%2F%2Fetc%2Fpasswd&w=640&q=75',
    'url=data%3Aimage%2Fpng%3Bbase64%2CiVBORw0KGgo%3D&w=640&q=75',
    `url=${encodeURIComponent(`${ingestOrigin}/__ingest/health`)}&w=640&q=75`,
    'url=http%3A%2F%2F169.254.169.254%2Flatest%2Fmeta-data&w=640&q=75',
    `url=${encodeURIComponent(`${appOrigin}/hero.png`)}&w=640&q=75`,
    'url=%2F%2Fexample.com%2Fx.png&w=640&q=75',
    'url=%2Fhero.png&w=1&q=75',
    'url=%2Fhero.png&w=100000&q=75',
    'url=%2Fhero.png&w=-640&q=75',
    'url=%2Fhero.png&w=abc&q=75',
    'url=%2Fhero.png&w=640&q=0',
    'url=%2Fhero.png&w=640&q=101',
    'url=%2Fhero.png&w=640&q=abc',
    'url=%2Fhero.png&w=640&q=50',
    'url=%2Fhero.png&w=640',
    'url=%2Fhero.png&q=75',
    'w=640&q=75',
    'url=&w=640&q=75',
    'url=%2Fnope.svg&w=640&q=75',
    'url=%2Fnope.png&w=640&q=75',
    'url=%2F_next%2Fimage%3Furl%3D%252Fhero.png%26w%3D640%26q%3D75&w=640&q=75',
    'url=%2Fapi%2Fhealth&w=640&q=75',
    'url=%2Fhero.png&w=640&q=75&w=750',
    'url=%2F%5Cexample.com%2Fx.png&w=640&q=75',
    'url=%2F%25zz&w=640&q=75',
  ];
  for (const query of images) {
    add(`image ${query.slice(0, 60)}`, get(image(query), ['Accept: image/webp']), clientError);
    add(`image without Accept ${query.slice(0, 60)}`, get(image(query)), clientError);
  }

  const bodies: [string, string[], string][] = [
    ['text body', ['Content-Type: text/plain', 'Content-Length: 5'], 'hello'],
    ['broken JSON', ['Content-Type: application/json', 'Content-Length: 9'], '{"a": tru'],
    ['JSON that is not an object', ['Content-Type: application/json', 'Content-Length: 4'], 'null'],
    ['a body longer than Content-Length says', ['Content-Type: application/json', 'Content-Length: 2'], '{"a":1}'],
    ['XML', ['Content-Type: application/xml', 'Content-Length: 7'], '<a></a>'],
  ];
  for (const [label, headers, body] of bodies)
    for (const path of ['/api/health', '/api/nope', '/api'])
      add(`${label} to ${path}`, http('POST', path, headers, body));
  const big = `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`;
  for (const path of ['/api/health', '/api/nope']) {
    add(
      `2 MB JSON to ${path}`,
      http('POST', path, ['Content-Type: application/json', `Content-Length: ${big.length}`], big),
    );
  }

  const forged = [
    'a'.repeat(600),
    'evil\r\nSet-Cookie: x=1',
    'with spaces',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    'ü-not-ascii',
  ];
  for (const id of forged)
    for (const path of ['/', '/api/nope', '/no/such/page'])
      add(`forged X-Request-Id ${JSON.stringify(id.slice(0, 20))} to ${path}`, get(path, [`X-Request-Id: ${id}`]));
  return cases;
}

/** A Location that leaves the app: anything but a path (not `//host`) or the app's own origin. */
function offOrigin(headers: string): boolean {
  const location = /^location:\s*(\S+)/im.exec(headers)?.[1];
  if (location === undefined) return false;
  const samePath = location.startsWith('/') && !location.startsWith('//') && !location.startsWith('/\\');
  return !samePath && !location.startsWith(`http://${appHost}:${appPort}/`);
}

test('`rsc: 1` on a page gets the page, as any request does: no redirect a shared cache could keep (issue 55)', async ({
  request,
}) => {
  const asRsc = await request.get('/examples/42', { headers: { rsc: '1' }, maxRedirects: 0 });
  expect(asRsc.status()).toBe(200);
  expect(asRsc.headers()['location']).toBeUndefined();
  expect(asRsc.headers()['content-type']).toContain('text/html');
  expect(await asRsc.text()).toContain('<h1>Dynamic segment</h1>');
});

test('at least 200 hostile requests get deliberate answers and the server stays up', async ({ request }) => {
  test.setTimeout(120_000);
  const { buildId } = (await (await request.get('/api/health')).json()) as { buildId: string };
  const cases = corpus(buildId);
  expect(cases.length).toBeGreaterThanOrEqual(200);

  const outcomes: { label: string; status: number; problem?: string }[] = [];
  const queue = [...cases];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const { label, request: bytes, allowed } = next;
        const answer = await rawRequest(appPort, '127.0.0.1', bytes).catch((error: Error) => ({
          status: -1,
          headers: '',
          body: error.message,
        }));
        const problems = [
          answer.status === -1 && `no answer: ${answer.body}`,
          answer.status >= 500 && `status ${answer.status}`,
          answer.status !== -1 &&
            !(allowed ?? ((s: number) => s >= 200 && s < 500))(answer.status) &&
            `unexpected status ${answer.status}`,
          /\bat [\w.<>]+ \(|node_modules|\/work\/|\.next\/server|\.tsx?:\d+/.test(answer.body) &&
            'stack trace or file path in the body',
          /set-cookie: x=1|<script>alert/i.test(answer.headers) && 'forged header echoed',
          offOrigin(answer.headers) && 'redirect off the origin',
        ].filter(Boolean);
        outcomes.push({ label, status: answer.status, ...(problems.length ? { problem: problems.join('; ') } : {}) });
      }
    }),
  );

  const tally = outcomes.reduce<Record<string, number>>((counts, { status }) => {
    const key = status === 0 ? 'closed without answer' : String(status);
    counts[key] = (counts[key] ?? 0) + 1;
    return counts;
  }, {});
  console.log(`Hostile requests: ${outcomes.length}. Tally by status:`);
  console.table(tally);
  expect(outcomes.filter((o) => o.problem)).toEqual([]);
  expect((await request.get('/api/health')).status()).toBe(200);
});
