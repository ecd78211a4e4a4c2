import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { builtDir, referenceApp } from '@web-foundation/testing/env';

// Spec §2: paths equal to /api or beginning with /api/ are API routes; they always answer JSON.

test('/api describes the API', async ({ request }) => {
  const response = await request.get('/api');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/json');
  // Named by the app's own package.json: the reference app's here, a team's own in its app.
  const { name, version } = JSON.parse(readFileSync(`${referenceApp}/package.json`, 'utf8')) as Record<string, string>;
  expect(await response.json()).toEqual({ name, version });
});

test('/api/health reports status, build id, deployment id and uptime', async ({ request }) => {
  const response = await request.get('/api/health');
  expect(response.status()).toBe(200);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status: 'ok', buildId: expect.any(String), uptimeSeconds: expect.any(Number) });
  // Issue 6: built without BUILD_ID, the build is named after the git commit it was made at (and the uncommitted
  // changes of what the app's build reads, when there are some: issue 45), and Next's deploymentId is the same. A later
  // commit that changes nothing the build reads leaves it current, under its first name (issue 54).
  expect(body.buildId).toBe(readFileSync(`${builtDir()}/BUILD_ID`, 'utf8').trim());
  const [commit] = String(body.buildId).split('-dirty-');
  expect(execFileSync('git', ['cat-file', '-t', commit!], { encoding: 'utf8' }).trim()).toBe('commit');
  expect(body.deploymentId).toBe(body.buildId);
});

test('an unknown /api path answers a JSON 404', async ({ request }) => {
  for (const path of ['/api/nope', '/api/a/b/c', '/api/health/extra']) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toMatchObject({ error: { status: 404, message: expect.any(String) } });
  }
});

test('/api/ is /api: Next normalises the trailing slash with a permanent redirect', async ({ request }) => {
  const response = await request.get('/api/', { maxRedirects: 0 });
  expect(response.status()).toBe(308);
  expect(response.headers()['location']).toBe('/api');
});

test('a wrong method on a known API route answers a JSON 405 with Allow', async ({ request }) => {
  for (const [method, path] of [
    ['POST', '/api/health'],
    ['DELETE', '/api'],
  ] as const) {
    const response = await request.fetch(path, { method });
    expect(response.status()).toBe(405);
    expect(response.headers()['allow']).toBe('GET, HEAD');
    expect(response.headers()['content-type']).toContain('application/json');
    expect(await response.json()).toMatchObject({ error: { status: 405 } });
  }
});

test('an API route that throws answers a JSON 500 without the error details', async ({ request }) => {
  const response = await request.get('/api/diagnostics/server-error');
  expect(response.status()).toBe(500);
  expect(response.headers()['content-type']).toContain('application/json');
  const body = await response.text();
  expect(JSON.parse(body)).toMatchObject({ error: { status: 500, requestId: response.headers()['x-request-id'] } });
  expect(body).not.toContain('Diagnostics:');
  expect(body).not.toMatch(/\.js:\d+|node_modules|\/work\//);
});
