// A proxy in front of a local plain-HTTP server, HTTPS by default, as a TLS-terminating proxy stands in front of the app
// in production. Chromium uses a Content-Security-Policy's report-to only from an https page to an https endpoint (it
// ignores Reporting-Endpoints otherwise), so the tests that prove report-to need TLS in front of the app, whose own
// route takes the reports. It can change a response's headers on the way back, and show a test what the browser sent,
// as Playwright's page.route cannot without intercepting every request of the page (Chromium then sends no report-uri
// report).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './processes.ts';

let certificate: { key: Buffer; cert: Buffer } | undefined;

/** A self-signed certificate for localhost and 127.0.0.1, made once per test worker with openssl. */
export function selfSigned(): { key: Buffer; cert: Buffer } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'tls-'));
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
        ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      ],
      { stdio: 'ignore' },
    );
    certificate = { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Front {
  /** https://<host>:<port>, or http:// */
  origin: string;
  stop(): Promise<void>;
}

/**
 * A server on a free loopback port that forwards every request to `target` (an http origin) and answers with its
 * response; `responseHeaders` may change the response's headers on the way back, `onRequest` sees each request as the
 * browser sent it. `tls: false` serves plain HTTP.
 */
export async function front(
  target: string,
  {
    tls = true,
    host = '127.0.0.1',
    responseHeaders = (headers) => headers,
    onRequest = () => {},
  }: {
    tls?: boolean;
    host?: string;
    responseHeaders?: (headers: IncomingHttpHeaders) => IncomingHttpHeaders;
    onRequest?: (request: http.IncomingMessage) => void;
  } = {},
): Promise<Front> {
  const port = await freePort();
  const forward: http.RequestListener = (request, response) => {
    onRequest(request);
    const upstream = http.request(
      new URL(request.url ?? '/', target),
      { method: request.method, headers: { ...request.headers, 'x-forwarded-proto': tls ? 'https' : 'http' } },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, responseHeaders({ ...answer.headers }));
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  };
  const server = tls ? https.createServer(selfSigned(), forward) : http.createServer(forward);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `${tls ? 'https' : 'http'}://${host}:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
