import { expect, test } from '@playwright/test';

// Spec §2: the proxy's matcher applies to every path except static assets, image optimisation,
// the favicon, sitemap files and robots files. What it does: a request id on every matched request.
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

test('pages, API routes and 404s carry a fresh X-Request-Id', async ({ request }) => {
  for (const path of ['/', '/examples/42', '/examples/new', '/api', '/api/health', '/api/nope', '/no/such/page']) {
    const response = await request.get(path);
    expect(response.headers()['x-request-id'], path).toMatch(uuid);
  }
  const [a, b] = await Promise.all([request.get('/'), request.get('/')]);
  expect(a.headers()['x-request-id']).not.toBe(b.headers()['x-request-id']);
});

test('page data requests carry it too', async ({ request }) => {
  const { buildId } = (await (await request.get('/api/health')).json()) as { buildId: string };
  const response = await request.get(`/_next/data/${buildId}/examples/42.json`, { headers: { 'x-nextjs-data': '1' } });
  expect(response.status()).toBe(200);
  expect(response.headers()['x-request-id']).toMatch(uuid);
});

test('a safe inbound X-Request-Id is kept and reaches the page and API handler', async ({ request }) => {
  const id = 'edge-proxy.trace_42-A';
  const page = await request.get('/examples/7', { headers: { 'x-request-id': id } });
  expect(page.headers()['x-request-id']).toBe(id);
  expect(await page.text()).toContain(`<code data-testid="request-id">${id}</code>`);

  const api = await request.get('/api/nope', { headers: { 'x-request-id': id } });
  expect(api.headers()['x-request-id']).toBe(id);
  expect(((await api.json()) as { error: { requestId: string } }).error.requestId).toBe(id);
});

test('an unsafe inbound X-Request-Id is replaced', async ({ request }) => {
  for (const forged of ['a'.repeat(129), 'has spaces', '<script>', 'id;drop']) {
    const response = await request.get('/api/nope', { headers: { 'x-request-id': forged } });
    const id = response.headers()['x-request-id'];
    expect(id).toMatch(uuid);
    expect(((await response.json()) as { error: { requestId: string } }).error.requestId).toBe(id);
  }
});

test('excluded paths do not pass through the proxy', async ({ page, request }) => {
  await page.goto('/examples');
  const asset = await page.evaluate(
    () => document.querySelector<HTMLScriptElement>('script[src^="/_next/static/"]')!.src,
  );
  const excluded = [
    new URL(asset).pathname,
    '/_next/image?url=%2Fhero.png&w=640&q=75',
    '/favicon.ico',
    '/robots.txt',
    '/sitemap.xml',
    '/sitemap-0.xml',
    '/sitemap_index.xml',
  ];
  for (const path of excluded) {
    const response = await request.get(path);
    expect(response.headers()['x-request-id'], path).toBeUndefined();
  }
});

test('the favicon, robots.txt and sitemap.xml are real files', async ({ request }) => {
  const favicon = await request.get('/favicon.ico');
  expect(favicon.status()).toBe(200);
  expect((await favicon.body()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
  const robots = await request.get('/robots.txt');
  expect(await robots.text()).toContain('User-agent: *');
  const sitemap = await request.get('/sitemap.xml');
  expect(await sitemap.text()).toContain('<urlset');
});
