import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@web-foundation/testing';

// Issue 53: when Sentry's API passes the check before the compile and fails during the upload after it, `npm run build`
// stops with one sentence, as it does when the check fails (tests/unit/source-map-upload.test.ts), where it used to
// exit 0 with its maps deleted. One real build of the team's app, into a directory of its own (26 s on a quiet
// machine).
const app = 'apps/web';
const distDir = '.next-upload-failure';

test('an upload that fails after the check stops the build with one sentence, and nothing is left to serve', async () => {
  test.setTimeout(180_000);
  // Sentry's API as far as the check and the organization's region go; every other call (the release first) fails.
  const asked: string[] = [];
  const api = createServer((request, response) => {
    asked.push(`${request.method} ${request.url}`);
    const answer = request.method === 'GET' && /^\/api\/0\/organizations\/acme\/(chunk-upload\/)?$/.test(request.url!);
    response.writeHead(answer ? 200 : 500, { 'content-type': 'application/json' }).end(answer ? '{}' : '');
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  // Sentry's CLI keeps its state there; not in the home directory of whoever runs the tests.
  const cliState = mkdtempSync(join(tmpdir(), 'sentry-cli-'));
  try {
    const build = spawn(process.execPath, ['../../packages/foundation/scripts/build.mjs'], {
      cwd: app,
      env: {
        ...process.env,
        NEXT_DIST_DIR: distDir,
        BUILD_SKIP_TYPE_CHECK: '1',
        SENTRY_URL: url,
        SENTRY_ORG: 'acme',
        SENTRY_PROJECT: 'web',
        SENTRY_AUTH_TOKEN: 'sntryu_test-token',
        SENTRY_CONFIG_DIR: cliState,
      },
    });
    let output = '';
    for (const stream of [build.stdout, build.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
    const status = await new Promise<number | null>((resolve) => build.on('exit', resolve));

    expect(asked[0]).toBe('GET /api/0/organizations/acme/chunk-upload/');
    expect(asked).toContain('POST /api/0/organizations/acme/releases/');
    expect(status).toBe(1);
    expect(output.trim().split('\n').at(-1)).toBe(
      `Cannot upload source maps to Sentry at ${url}: the upload failed midway (Failed to create release: 500 ` +
        'Internal Server Error); retry when it works again, or unset SENTRY_AUTH_TOKEN to build without source maps.',
    );
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toContain('Build error occurred');

    // What is on disk: the compile's output with its maps, never uploaded and never deleted, and no standalone server,
    // so `npm start` builds anew rather than serving it.
    const dir = `${app}/${distDir}`;
    const maps = (sub: string) =>
      readdirSync(`${dir}/${sub}`, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.map'));
    expect(maps('static').length).toBeGreaterThan(0);
    expect(maps('server').length).toBeGreaterThan(0);
    expect(existsSync(`${dir}/standalone`)).toBe(false);
  } finally {
    api.close();
    rmSync(cliState, { recursive: true, force: true });
    rmSync(`${app}/${distDir}`, { recursive: true, force: true });
  }
});
