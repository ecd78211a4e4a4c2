// Bounded floods of connections that a client opens and never uses as a server hopes, and what they leave behind in
// the serving process (Linux /proc). Every flood stops by itself; loopback only.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';
import { rawRequest } from './raw-http.ts';

/** A process's open file descriptors, resident memory and its peak (MB). */
export function processUse(pid: number): { fds: number; rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
  return { fds: readdirSync(`/proc/${pid}/fd`).length, rssMb: mb('VmRSS'), peakMb: mb('VmHWM') };
}

/** Resets a process's peak RSS to its current RSS (clear_refs 5), so that a peak read later is a test's own. */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** How long `GET /api/health` takes to answer 200, in ms, or Infinity when it fails. */
export async function healthMs(origin: string): Promise<number> {
  const started = performance.now();
  try {
    const response = await fetch(`${origin}/api/health`, { headers: { connection: 'close' } });
    await response.arrayBuffer();
    return response.status === 200 ? performance.now() - started : Infinity;
  } catch {
    return Infinity;
  }
}

/** The probe's thread: asks /api/health as healthMs does, one answer after another, until told to stop. */
const probeThread = `
const { parentPort, workerData: origin } = require('node:worker_threads');
let probing = true;
const times = [];
parentPort.once('message', () => (probing = false));
async function answerMs() {
  const started = performance.now();
  try {
    const response = await fetch(origin + '/api/health', { headers: { connection: 'close' } });
    await response.arrayBuffer();
    return response.status === 200 ? performance.now() - started : Infinity;
  } catch {
    return Infinity;
  }
}
(async () => {
  // Unmeasured: a thread's first fetch loads its HTTP client.
  await answerMs();
  parentPort.postMessage('ready');
  while (probing) times.push(await answerMs());
  parentPort.postMessage(times);
})();`;

/**
 * Asks `/api/health` again and again, from a thread of its own so that a flood this process sends meanwhile does not
 * delay the asking, until stopped; `stop` resolves with each answer's time in ms (Infinity for a failure). Resolves once
 * the thread has asked once, unmeasured.
 */
export async function probeHealth(origin: string): Promise<{ stop(): Promise<number[]> }> {
  const worker = new Worker(probeThread, { eval: true, workerData: origin });
  await new Promise((ready) => worker.once('message', ready));
  return {
    async stop() {
      const times = new Promise<number[]>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const result = await times;
      await worker.terminate();
      return result;
    },
  };
}

/** Runs `count` tasks, `concurrency` at a time. */
async function inParallel(count: number, concurrency: number, task: (index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Opens a connection, writes `bytes`, and resolves with what arrived once the server closes or `waitMs` has passed. */
function exchange(port: number, host: string, bytes: string, waitMs: number): Promise<string> {
  return new Promise((resolve) => {
    let answer = '';
    const socket = connect(port, host, () => socket.write(bytes));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('error', done);
    socket.on('close', done);
  });
}

/**
 * `cycles` WebSocket upgrades to a path no route takes, `concurrency` at a time: each connection asks, waits for the
 * server to close it (at most `waitMs`) and closes. Resolves with the count of each status line received ('none' when
 * the server answered nothing).
 */
export async function upgradeCycles(
  port: number,
  host: string,
  { cycles, concurrency = 20, waitMs = 200 }: { cycles: number; concurrency?: number; waitMs?: number },
): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const request =
    `GET /nope HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
    'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
  await inParallel(cycles, concurrency, async () => {
    const answer = await exchange(port, host, request, waitMs);
    const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 'none';
    statuses[status] = (statuses[status] ?? 0) + 1;
  });
  return statuses;
}

/** Closes every socket still open; resolves once all have closed. */
function closeAll(sockets: Socket[]): Promise<void> {
  return Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((gone) => {
          if (socket.destroyed) return gone();
          socket.once('close', () => gone());
          socket.destroy();
        }),
    ),
  ).then(() => undefined);
}

export interface HeldBodies {
  /** The status of every answer received so far, by count. */
  statuses(): Record<string, number>;
  /** Connections the server has closed. */
  closed(): number;
  /** Closes every connection still open. */
  release(): Promise<void>;
}

/**
 * `count` connections, each sending a `method` (POST unless told) with a body of `declared` bytes but the last one, or
 * only `sent` of them, and then holding it: with a Content-Length, or with `oneByteChunks` chunked one byte to a chunk
 * (six bytes on the wire each), without the last chunk. `localAddress` is the client's own loopback address (127.0.1.1
 * is another client than 127.0.0.1, of another /24 network); `headers` are sent too (a proxy's X-Forwarded-For).
 * Resolves once every connection has sent what it sends.
 */
export async function holdBodies(
  port: number,
  host: string,
  path: string,
  {
    count,
    declared,
    sent = declared - 1,
    method = 'POST',
    oneByteChunks = false,
    localAddress,
    headers = {},
  }: {
    count: number;
    declared: number;
    sent?: number;
    method?: string;
    oneByteChunks?: boolean;
    localAddress?: string;
    headers?: Record<string, string>;
  },
): Promise<HeldBodies> {
  const sockets: Socket[] = [];
  const statuses: Record<string, number> = {};
  let closed = 0;
  const framing = oneByteChunks ? 'Transfer-Encoding: chunked' : `Content-Length: ${declared}`;
  const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  const body = oneByteChunks ? Buffer.from('1\r\nx\r\n'.repeat(sent)) : Buffer.alloc(sent, 'x');
  await inParallel(count, 50, async () => {
    const socket = connect({ port, host, localAddress });
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'other';
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    socket.once('close', () => closed++);
    await new Promise<void>((written) => {
      socket.write(`${method} ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extra.join('')}${framing}\r\n\r\n`);
      socket.write(body, () => written());
      socket.once('close', () => written());
    });
  });
  return {
    statuses: () => ({ ...statuses }),
    closed: () => closed,
    release: () => closeAll(sockets),
  };
}

export interface SilentConnections {
  /** How long each connection the server has closed lived, in ms, from its connect to its close. */
  lifetimesMs(): number[];
  /** Connections that could not be opened (the client's own limits). */
  failed(): number;
  /** Closes every connection still open. */
  release(): Promise<void>;
}

/** `count` connections that say nothing, opened `concurrency` at a time. Resolves once each has connected or failed. */
export async function silentConnections(
  port: number,
  host: string,
  { count, concurrency = 200 }: { count: number; concurrency?: number },
): Promise<SilentConnections> {
  const sockets: Socket[] = [];
  const lifetimes: number[] = [];
  let failed = 0;
  await inParallel(
    count,
    concurrency,
    () =>
      new Promise<void>((opened) => {
        const socket = connect(port, host, () => {
          const connected = performance.now();
          socket.once('close', () => lifetimes.push(performance.now() - connected));
          opened();
        });
        sockets.push(socket);
        // Whatever the server says (Node answers 408 when it times a connection out) is read and dropped, so that its
        // close is seen.
        socket.resume();
        socket.on('error', () => {
          if (socket.connecting) failed++;
          opened();
        });
      }),
  );
  return {
    lifetimesMs: () => [...lifetimes],
    failed: () => failed,
    release: () => closeAll(sockets),
  };
}

/** `GET /api/health`'s status on a connection of its own, or 0 when the connection was closed or gave no answer. */
export async function healthOnNewConnection(port: number, host: string): Promise<number> {
  const request = `GET /api/health HTTP/1.1\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`;
  return (await rawRequest(port, host, request, 2000).catch(() => ({ status: 0 }))).status;
}

/**
 * POSTs `body` from the client address `localAddress` (another loopback address is another client), with `headers`;
 * its status. Fails when no answer has come 10 s after the last byte either way.
 */
export function postFrom(
  localAddress: string,
  {
    port,
    host,
    path,
    body,
    headers,
  }: { port: number; host: string; path: string; body: string; headers?: Record<string, string> },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, path, method: 'POST', localAddress, headers, agent: false, timeout: 10_000 },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`No answer to POST ${path} within 10 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * `count` clients that go away mid-body, `concurrency` at a time: each declares `declared` bytes, sends half and closes
 * its connection.
 */
export async function abortMidBody(
  port: number,
  host: string,
  path: string,
  { count, declared, concurrency = 50 }: { count: number; declared: number; concurrency?: number },
): Promise<void> {
  const half = Buffer.alloc(Math.floor(declared / 2), 'x');
  await inParallel(
    count,
    concurrency,
    () =>
      new Promise<void>((done) => {
        const socket = connect(port, host, () => {
          socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Length: ${declared}\r\n\r\n`);
          socket.write(half, () => setTimeout(() => socket.destroy(), 5));
        });
        socket.on('error', () => undefined);
        socket.once('close', () => done());
      }),
  );
}

export interface TrickledHeaders {
  /** How long each connection the server has closed lived, in ms, from its connect to its close. */
  lifetimesMs(): number[];
  /** Connections open now, as this client sees them. */
  open(): number;
  /** Connections opened so far, reopened ones included. */
  opened(): number;
  /** Stops reopening, and closes every connection still open. */
  release(): Promise<void>;
}

/**
 * `count` connections that send a request's headers one byte every `byteEveryMs`, the first `firstByteAfterMs` after
 * connecting, and never finish them, from `localAddresses` in turn (127.0.1.1 and 127.0.1.2 are two addresses of one
 * /24). With `reopenAfterMs`, a connection the server closes is opened again that long after, as an attacker keeping
 * connections held would. Resolves once each of the first `count` has connected or failed.
 */
export async function trickledHeaders(
  port: number,
  host: string,
  {
    count,
    byteEveryMs,
    firstByteAfterMs = 0,
    localAddresses = [undefined],
    reopenAfterMs,
  }: {
    count: number;
    byteEveryMs: number;
    firstByteAfterMs?: number;
    localAddresses?: (string | undefined)[];
    reopenAfterMs?: number;
  },
): Promise<TrickledHeaders> {
  const headers = `GET /api/health HTTP/1.1\r\nHost: ${host}:${port}\r\nX-Padding: `;
  const sockets = new Set<Socket>();
  const lifetimes: number[] = [];
  let opened = 0;
  let released = false;
  const open = (index: number) =>
    new Promise<void>((connected) => {
      opened++;
      const socket = connect({ port, host, localAddress: localAddresses[index % localAddresses.length] });
      sockets.add(socket);
      let sent = 0;
      let trickle: NodeJS.Timeout | undefined;
      const sendByte = () => {
        if (!socket.destroyed) socket.write(headers[sent++] ?? 'a');
      };
      socket.once('connect', () => {
        const connectedAt = performance.now();
        socket.once('close', () => lifetimes.push(performance.now() - connectedAt));
        trickle = setTimeout(() => {
          sendByte();
          trickle = setInterval(sendByte, byteEveryMs);
        }, firstByteAfterMs);
        connected();
      });
      // Whatever the server says (408 when Node times the headers out) is read and dropped, so that its close is seen.
      socket.resume();
      socket.on('error', () => connected());
      socket.once('close', () => {
        clearTimeout(trickle);
        clearInterval(trickle);
        sockets.delete(socket);
        if (!released && reopenAfterMs !== undefined) setTimeout(() => released || void open(index), reopenAfterMs);
      });
    });
  await inParallel(count, 200, open);
  return {
    lifetimesMs: () => [...lifetimes],
    open: () => sockets.size,
    opened: () => opened,
    release: () => {
      released = true;
      return closeAll([...sockets]);
    },
  };
}

/** `GET /api/health`'s status from the client address `localAddress`, on a connection of its own; 0 when refused. */
export function healthFrom(localAddress: string, { port, host }: { port: number; host: string }): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host, port, path: '/api/health', localAddress, agent: false, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(0));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}
