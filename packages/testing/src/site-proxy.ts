// A loopback proxy in front of an app instance, for browsers whose driver cannot intercept requests (classic
// WebDriver): every request of the page passes through it, where a test sees it, fails it or holds it, and can switch
// the instance behind it (a deploy). Each proxy listens on a port of its own, so each test gets an origin of its own:
// nothing the browser stored for one test (storage, cookies, the SDK's session) is seen by the next.
import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { appHost } from './e2e-env.mts';
import { freePort } from './processes.ts';

/** One request that reached the proxy. */
export interface ProxiedRequest {
  method: string;
  /** Path without the query (assets carry Next's `?dpl=` token: compare paths). */
  path: string;
  /** What the browser fetches it for (Fetch Metadata's `Sec-Fetch-Dest`): `script`, `empty` for a fetch or a prefetch. */
  destination: string;
  /** A document request: a navigation of the page, not a script, data or prefetch request. */
  document: boolean;
  /** What the proxy did with it. */
  outcome: 'forwarded' | 'failed' | 'held';
  /** The status the app answered with, once it has answered a forwarded request. */
  status?: number;
  /** When it arrived (`Date.now()`), and the page that asked (its Referer): the record attached to a failed test. */
  at: number;
  referrer: string;
}

/**
 * What to do with a request: fail it at once (503, as from an instance that is gone), hold it unanswered (until
 * failHeld or the end of the test), or forward it after a delay.
 */
export type Fault = 'fail' | 'hold' | { delayMs: number } | undefined;

/** The path of the probe script the proxy adds to every page (below), and where it reports. */
const probeScript = '/__engine-probe.js';
const probeReport = '/__engine-probe/csp';
const probeConsoleReport = '/__engine-probe/console';

/**
 * Runs in every document before the page's own scripts: it records each CSP violation, each `console.error` call and
 * each uncaught error, sent to the proxy so that they survive full navigations. A script file of the page's own
 * origin, so the app's policy (`script-src 'self'`) allows it unchanged; sendBeacon, so that the SDK's fetch
 * instrumentation does not see it.
 */
const probe = `document.addEventListener('securitypolicyviolation', (e) => navigator.sendBeacon(${JSON.stringify(probeReport)},
  JSON.stringify({ directive: e.violatedDirective, blocked: e.blockedURI, document: e.documentURI, sample: e.sample })));
(() => {
  // In a scope of its own: a top-level name here would shadow the page's globals (React calls \`reportError\`).
  const send = (text) => navigator.sendBeacon(${JSON.stringify(probeConsoleReport)}, text);
  const describe = (value) => (value instanceof Error ? value.name + ': ' + value.message : String(value));
  const consoleError = console.error;
  console.error = function (...args) {
    send(args.map(describe).join(' '));
    return consoleError.apply(this, args);
  };
  addEventListener('error', (e) => send('uncaught ' + (e.error ? describe(e.error) : e.message)));
  addEventListener('unhandledrejection', (e) => send('unhandled rejection ' + describe(e.reason)));
})();
`;

export interface SiteProxy {
  origin: string;
  /** Every request so far, in the order they arrived. */
  readonly requests: ProxiedRequest[];
  /** Paths of the document requests so far. */
  documents(): string[];
  /** Every CSP violation any document reported so far, as `directive blocked on document`. */
  readonly cspViolations: string[];
  /** Every `console.error` call and uncaught error of any document so far, as text. */
  readonly consoleErrors: string[];
  /** Sends later requests to another instance (a load balancer switched to a new release). */
  routeTo(upstream: string): void;
  /** Decides, for each later request, whether it fails or waits; `undefined` forwards it. */
  setFault(fault: (request: ProxiedRequest) => Fault): void;
  /** Resolves at the first later request that matches. */
  next(match: (request: ProxiedRequest) => boolean): Promise<ProxiedRequest>;
  /** Answers the held requests that match with 503, as a load balancer whose instance stopped answering would. */
  failHeld(match: (request: ProxiedRequest) => boolean): void;
  /** Ends every held request with a network error. */
  releaseHeld(): void;
  close(): Promise<void>;
}

/** What the request is for: Fetch Metadata says so (Chromium, Firefox and WebKit send it). */
const destinationOf = (req: IncomingMessage) => req.headers['sec-fetch-dest']?.toString() ?? 'unknown';

export async function startSiteProxy(upstream: string): Promise<SiteProxy> {
  const port = await freePort();
  const requests: ProxiedRequest[] = [];
  const cspViolations: string[] = [];
  const consoleErrors: string[] = [];
  const held = new Map<ServerResponse, ProxiedRequest>();
  const sockets = new Set<Socket>();
  const waiters = new Set<{ match: (r: ProxiedRequest) => boolean; resolve: (r: ProxiedRequest) => void }>();
  let fault: (request: ProxiedRequest) => Fault = () => undefined;
  let target = new URL(upstream);

  const record = (entry: ProxiedRequest) => {
    requests.push(entry);
    for (const waiter of waiters) {
      if (!waiter.match(entry)) continue;
      waiters.delete(waiter);
      waiter.resolve(entry);
    }
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname === probeScript) {
      res.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' });
      return res.end(probe);
    }
    if (url.pathname === probeReport) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
        cspViolations.push(`${v.directive} ${v.blocked} on ${v.document}${v.sample ? ` (${v.sample})` : ''}`);
        res.writeHead(204).end();
      });
      return;
    }
    if (url.pathname === probeConsoleReport) {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        consoleErrors.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(204).end();
      });
      return;
    }
    const destination = destinationOf(req);
    const entry: ProxiedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      destination,
      document: destination === 'document',
      outcome: 'forwarded',
      at: Date.now(),
      referrer: req.headers.referer ? new URL(req.headers.referer).pathname : '',
    };
    const decision = fault(entry);
    if (decision === 'fail') {
      record({ ...entry, outcome: 'failed' });
      req.resume();
      return res.writeHead(503, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end('failed on purpose');
    }
    if (decision === 'hold') {
      const heldEntry = { ...entry, outcome: 'held' as const };
      record(heldEntry);
      req.resume();
      held.set(res, heldEntry);
      res.on('close', () => held.delete(res));
      return;
    }
    record(entry);
    if (decision) return void setTimeout(() => pass(req, res, entry), decision.delayMs);
    pass(req, res, entry);
  });

  /** Forwards the request to the instance behind the proxy, and its answer back. */
  function pass(req: IncomingMessage, res: ServerResponse, entry: ProxiedRequest) {
    // Uncompressed, so that the probe can be added to a page; loopback makes the size irrelevant.
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    const upstreamRequest = forward(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers },
      (answer) => {
        entry.status = answer.statusCode;
        // Nothing is cached, so that every request of the page reaches the proxy (a script served from the cache
        // after its prefetch could not be failed or held).
        const answerHeaders = { ...answer.headers, 'cache-control': 'no-store' };
        delete answerHeaders.etag;
        delete answerHeaders['last-modified'];
        if (!entry.document || !(answer.headers['content-type'] ?? '').startsWith('text/html')) {
          res.writeHead(answer.statusCode ?? 502, answerHeaders);
          answer.pipe(res);
          return;
        }
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const html = Buffer.concat(chunks)
            .toString('utf8')
            .replace(/<head(\s[^>]*)?>/i, `<head$1><script src="${probeScript}"></script>`);
          delete answerHeaders['content-length'];
          delete answerHeaders['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, answerHeaders);
          res.end(html);
        });
      },
    );
    upstreamRequest.on('error', () => res.destroy());
    req.pipe(upstreamRequest);
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    origin: `http://${appHost}:${port}`,
    requests,
    documents: () => requests.filter((r) => r.document).map((r) => r.path),
    cspViolations,
    consoleErrors,
    routeTo: (next) => (target = new URL(next)),
    setFault: (next) => (fault = next),
    next: (match) => new Promise((resolve) => waiters.add({ match, resolve })),
    failHeld(match) {
      for (const [res, entry] of held) {
        if (match(entry)) res.writeHead(503, { 'content-type': 'text/plain', 'cache-control': 'no-store' }).end();
      }
    },
    releaseHeld() {
      for (const res of held.keys()) res.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
