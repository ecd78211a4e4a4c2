// A product's backend, as small as it gets: a plain HTTP server on loopback that answers JSON and records every request
// it receives, headers included, so that a test can see what the app sent it (apps/guide/tests/product-tracing.spec.ts).
import http, { type IncomingHttpHeaders } from 'node:http';
import { freePort } from './processes.ts';

export interface BackendRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface Backend {
  origin: string;
  /** Every request received so far, oldest first. */
  received: BackendRequest[];
  /** Answer every request with this status from now on (503: the backend is down), or normally again (undefined). */
  failWith(status: number | undefined): void;
  stop(): Promise<void>;
}

/** Starts the backend (on `port`, else a free one): `answers` maps a path to the JSON it answers with 200, others 404. */
export async function startBackend(answers: Record<string, unknown>, port?: number): Promise<Backend> {
  const received: BackendRequest[] = [];
  let failure: number | undefined;
  const server = http.createServer((request, response) => {
    received.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers });
    const path = new URL(request.url ?? '/', 'http://backend').pathname;
    const status = failure ?? (path in answers ? 200 : 404);
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(status === 200 ? answers[path] : { error: `backend answered ${status}` }));
  });
  port ??= await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    failWith: (status) => (failure = status),
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
