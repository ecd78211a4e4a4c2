// The processes and ports the tests and benches start, all on loopback. Node runs this file as it is
// (an app's tests/services.ts and bench/ import it outside any bundler).
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * Whether a loopback port is free now, on both loopback addresses: a server told `localhost` listens on ::1 alone, and
 * a browser's own server (Firefox's) on both.
 */
export async function bindable(port: number): Promise<boolean> {
  const freeOn = (host: string) =>
    new Promise<boolean>((resolve) => {
      const server = createServer();
      // No IPv6 on this machine: nothing can hold the port there.
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'EADDRNOTAVAIL'));
      server.listen(port, host, () => server.close(() => resolve(true)));
    });
  return (await freeOn('127.0.0.1')) && (await freeOn('::1'));
}

/**
 * The range freePort draws from: E2E_FREE_PORTS (`<first>-<last>`), by default 20000-31999, below the range Linux
 * hands out to clients (32768-60999) and above the runs' blocks (10000-19999, freePortBlock). The tests poll a server's
 * port while it starts, and the app's Redis client keeps reconnecting to a stopped Redis; a client connecting to a port
 * in the client range can get the same port as its own source and connect to itself (TCP simultaneous open), and the
 * server that starts (or restarts) next on it then fails with EADDRINUSE.
 */
export function freePortRange(setting = process.env.E2E_FREE_PORTS): { first: number; last: number } {
  const [, first, last] = (/^(\d+)-(\d+)$/.exec(setting || '20000-31999') ?? []).map(Number);
  if (!first || !last || first < 1024 || last > 65_535 || last - first < 99)
    throw new Error(
      `E2E_FREE_PORTS must be a range of at least 100 ports from 1024 to 65535, e.g. 20000-31999 (got ${JSON.stringify(setting)}).`,
    );
  return { first, last };
}
const freePorts = freePortRange();

/** A loopback port nothing listens on now, in E2E_FREE_PORTS (freePortRange). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = freePorts.first + Math.floor(Math.random() * (freePorts.last - freePorts.first + 1));
    if (await bindable(port)) return port;
  }
}

/**
 * A block of `size` loopback ports, every one free now, in 10000–19999: below Linux's client range (see freePortRange)
 * and apart from the ports freePort hands out. The blocks are tried in turn from the one `seed` names (modulo their
 * count).
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
