import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSigned } from '@web-foundation/testing/services';
import { afterEach, describe, expect, it } from 'vitest';
import { checkTimeoutMs, uploadFailure } from '../../packages/foundation/scripts/source-map-upload.mts';

// Issue 53: with upload on, a Sentry that cannot take the source maps stops `npm run build` with one sentence, before
// the compile, instead of a build that exits 0 without its maps (and, for a silent server, 4.7 minutes later). The
// build runs for real, in the team's app, into a build directory of its own that it never gets to write.

const app = 'apps/web';
const distDir = '.next-upload-check';
const servers: (Server | HttpsServer)[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A stand-in for Sentry's API on a loopback port, over HTTPS with `tls`; its URL. */
async function sentryApi(answer: RequestListener, tls?: { key: Buffer; cert: Buffer }): Promise<string> {
  const server = tls ? createHttpsServer(tls, answer) : createServer(answer);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback port nothing listens on. */
async function refusingUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** `npm run build` in the app with upload on, against `sentryUrl`: how it ended, what it printed, how long it took. */
function build(
  sentryUrl: string,
  env: Record<string, string> = {},
): Promise<{ status: number | null; output: string; seconds: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['../../packages/foundation/scripts/build.mjs'], {
    cwd: app,
    env: {
      ...process.env,
      NEXT_DIST_DIR: distDir,
      SENTRY_URL: sentryUrl,
      SENTRY_ORG: 'acme',
      SENTRY_PROJECT: 'web',
      SENTRY_AUTH_TOKEN: 'sntryu_test-token',
      ...env,
    },
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve) =>
    child.on('exit', (status) => resolve({ status, output, seconds: (performance.now() - started) / 1000 })),
  );
}

const wayOut = 'or unset SENTRY_AUTH_TOKEN to build without source maps.';

describe('a build with upload on, when Sentry cannot take the maps', () => {
  it.each([
    ['refuses the connection', refusingUrl, /: nothing answers there \(connection refused\); set SENTRY_URL to/],
    [
      'answers 500',
      () => sentryApi((_, response) => response.writeHead(500).end()),
      /: it answered 500; retry when it works again, /,
    ],
    [
      'refuses the token',
      () => sentryApi((_, response) => response.writeHead(401).end()),
      /: it refuses SENTRY_AUTH_TOKEN \(401\); set a valid token, /,
    ],
    [
      'knows no such organization',
      () => sentryApi((_, response) => response.writeHead(404).end()),
      /: it has no organization acme \(404\); set SENTRY_ORG to your organization's slug/,
    ],
  ])('stops before the compile when Sentry %s, with one sentence', async (_, start, cause) => {
    const url = await start();
    const { status, output, seconds } = await build(url);
    expect(status).toBe(1);
    expect(output.trim()).toMatch(new RegExp(`^Cannot upload source maps to Sentry at ${url}: `));
    expect(output).toMatch(cause);
    expect(output.trim().endsWith(wayOut)).toBe(true);
    expect(output.trim().split('\n')).toHaveLength(1);
    expect(seconds).toBeLessThan(10);
    expect(existsSync(`${app}/${distDir}`)).toBe(false);
  });

  it('stops within its time-out when Sentry never answers, not minutes later', async () => {
    let asked = '';
    const url = await sentryApi((request) => (asked = `${request.method} ${request.url}`));
    const { status, output, seconds } = await build(url);
    expect(asked).toBe('GET /api/0/organizations/acme/chunk-upload/');
    expect(status).toBe(1);
    expect(output.trim()).toBe(
      `Cannot upload source maps to Sentry at ${url}: it did not answer within 10 s; retry when it answers, ${wayOut}`,
    );
    expect(seconds).toBeGreaterThanOrEqual(checkTimeoutMs / 1000);
    expect(seconds).toBeLessThan(checkTimeoutMs / 1000 + 5);
    expect(existsSync(`${app}/${distDir}`)).toBe(false);
  }, 20_000);

  it('names a SENTRY_URL that is not a URL, as it names any other setting', async () => {
    const { status, output } = await build('sentry.example.com');
    expect(status).toBe(1);
    expect(output.trim()).toBe(
      'SENTRY_URL must be a URL (http:// or https://) with a host, e.g. https://sentry.example.com; the value set is not.',
    );
  });

  it('names a certificate it does not trust, and NODE_EXTRA_CA_CERTS trusts it', async () => {
    const certificate = selfSigned();
    const url = await sentryApi((_, response) => response.writeHead(500).end(), certificate);
    const untrusted = await build(url);
    expect(untrusted.output.trim()).toMatch(
      /: its certificate is not trusted \(DEPTH_ZERO_SELF_SIGNED_CERT\); set NODE_EXTRA_CA_CERTS to the PEM file of /,
    );
    const dir = mkdtempSync(join(tmpdir(), 'sentry-ca-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), certificate.cert);
      const trusted = await build(url, { NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') });
      expect(trusted.output).toMatch(/: it answered 500; /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('asks with the token, and never prints it', async () => {
    let authorization: string | undefined;
    const url = await sentryApi((request, response) => {
      authorization = request.headers.authorization;
      response.writeHead(403).end();
    });
    const { output } = await build(url);
    expect(authorization).toBe('Bearer sntryu_test-token');
    expect(output).toMatch(/: SENTRY_AUTH_TOKEN may not upload to organization acme \(403\); set a token of/);
    expect(output).not.toContain('sntryu_test-token');
  });
});

describe('uploadFailure: an error of Sentry’s upload after the check passed, as the sentence that stops the build', () => {
  const target = { url: 'https://user:secret@sentry.example.com/', org: 'acme', authToken: 'sntryu_secret' };
  it.each([
    ['Failed to create release: 500 Internal Server Error', 'retry when it works again'],
    ['Failed to create release: Network error', 'retry when it works again'],
    ['Failed to upload files: 403 Forbidden', 'set SENTRY_AUTH_TOKEN to a token with the project:releases scope'],
    ['Failed to create release: 404 Not Found', 'set SENTRY_ORG and SENTRY_PROJECT to slugs that exist there'],
  ])('%s', (message, remedy) => {
    expect(uploadFailure(new Error(message), target)).toBe(
      `Cannot upload source maps to Sentry at https://sentry.example.com: the upload failed midway (${message}); ` +
        `${remedy}, ${wayOut}`,
    );
  });
});
