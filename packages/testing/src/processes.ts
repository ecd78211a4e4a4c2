// The processes and ports the tests and benches start, all on loopback. Node runs this file as it is
// (an app's tests/services.ts and bench/ import it outside any bundler).
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether a loopback port is free now. */
export function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A port nothing listens on now, below the range Linux hands out to clients (32768–60999). The tests poll a server's
 * port while it starts, and the app's Redis client keeps reconnecting to a stopped Redis; a client connecting to a port
 * in that range can get the same port as its own source and connect to itself (TCP simultaneous open), and the server
 * that starts (or restarts) next on it then fails with EADDRINUSE.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await bindable(port)) return port;
  }
}

/**
 * A block of `size` loopback ports, every one free now, in 10000–19999: below Linux's client range (see freePort) and
 * apart from the ports freePort hands out. The blocks are tried in turn from the one `seed` names (modulo their count).
 */
export async function freePortBlock(seed: number, size: number): Promise<number> {
  const blocks = Math.floor(10_000 / size);
  for (let tried = 0; tried < blocks; tried++) {
    const start = 10_000 + ((seed + tried) % blocks) * size;
    const ports = Array.from({ length: size }, (_, i) => start + i);
    if ((await Promise.all(ports.map(bindable))).every(Boolean)) return start;
  }
  throw new Error(`No block of ${size} free loopback ports in 10000-19999.`);
}

/** Children still running when the test worker or bench exits, however it ends, are killed with it. */
const children = new Set<ChildProcess>();
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/** Registers a child to die with this process; returns it. */
export function killedOnExit<Child extends ChildProcess>(child: Child): Child {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Resolves once `ok` resolves true (a throw counts as false), asking every `pollMs`; fails after `timeoutMs`. */
export async function until(
  what: string,
  ok: () => Promise<boolean>,
  { timeoutMs = 20_000, pollMs = 100 }: { timeoutMs?: number; pollMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ok().catch(() => false)) return;
    await new Promise((done) => setTimeout(done, pollMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}
