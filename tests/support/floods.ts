// Bounded floods of connections that a client opens and never uses as a server hopes, and what they leave behind in
// the serving process (Linux /proc). Every flood stops by itself; loopback only.
import { readdirSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { Worker } from 'node:worker_threads';

/** A process's open file descriptors and resident memory (MB). */
export function processUse(pid: number): { fds: number; rssMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  return { fds: readdirSync(`/proc/${pid}/fd`).length, rssMb: rssKb / 1024 };
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

export interface HeldBodies {
  /** The status of every answer received so far, by count. */
  statuses(): Record<string, number>;
  /** Connections the server has closed. */
  closed(): number;
  /** Closes every connection still open. */
  release(): Promise<void>;
}

/**
 * `count` connections, each sending a POST that declares `declared` bytes and sends one fewer, and then holding it.
 * Resolves once every connection has sent what it sends.
 */
export async function holdBodies(
  port: number,
  host: string,
  path: string,
  { count, declared }: { count: number; declared: number },
): Promise<HeldBodies> {
  const sockets: Socket[] = [];
  const statuses: Record<string, number> = {};
  let closed = 0;
  const body = Buffer.alloc(declared - 1, 'x');
  await inParallel(count, 50, async () => {
    const socket = connect(port, host);
    sockets.push(socket);
    socket.on('error', () => undefined);
    socket.once('data', (chunk: Buffer) => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(chunk.toString('latin1'))?.[1] ?? 'other';
      statuses[status] = (statuses[status] ?? 0) + 1;
    });
    socket.once('close', () => closed++);
    await new Promise<void>((sent) => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: ${host}:${port}\r\nContent-Length: ${declared}\r\n\r\n`);
      socket.write(body, () => sent());
      socket.once('close', () => sent());
    });
  });
  return {
    statuses: () => ({ ...statuses }),
    closed: () => closed,
    async release() {
      await Promise.all(
        sockets.map(
          (socket) =>
            new Promise<void>((gone) => {
              if (socket.destroyed) return gone();
              socket.once('close', () => gone());
              socket.destroy();
            }),
        ),
      );
    },
  };
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
