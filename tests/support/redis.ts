// A real Redis (Debian's redis-server) on loopback for the shared page cache's tests: started, stopped, paused and
// restarted on the same port, as an operator or an outage would.
import { spawn, type ChildProcess } from 'node:child_process';
import { createClient } from '@redis/client';
import { freePort as freeLowPort, killedOnExit } from './processes.ts';

export const redisBinary = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

export interface Redis {
  port: number;
  url: string;
  /** Starts redis-server (again) on its port, empty, and resolves once it accepts connections. */
  start(): Promise<void>;
  /** Whether the process runs now. */
  running(): boolean;
  /** Stops it (SIGKILL: an outage, not a shutdown); resolves once it has exited. */
  stop(): Promise<void>;
  /** SIGSTOP: the process hangs with its connections open, as an overloaded or frozen Redis. */
  pause(): void;
  resume(): void;
  /** Runs one command with a client of the test's own. */
  command(...args: string[]): Promise<unknown>;
  /** How many times Redis ran each command since start (INFO commandstats). */
  commandCounts(): Promise<Record<string, number>>;
}

/** `password`: Redis requires it (requirepass), and `url` carries it, as a production REDIS_URL would. */
export async function redisServer({ password }: { password?: string } = {}): Promise<Redis> {
  const port = await freeLowPort();
  const url = `redis://${password ? `:${password}@` : ''}127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const redis: Redis = {
    port,
    url,
    async start() {
      const started = spawn(
        redisBinary,
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          ...(password ? ['--requirepass', password] : []),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = killedOnExit(started);
      // Its own readiness line, not a connect loop (see freeLowPort).
      await new Promise<void>((resolve, reject) => {
        let output = '';
        started.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ready to accept connections')) resolve();
        });
        started.on('exit', (code) =>
          reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)),
        );
      });
    },
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.on('exit', resolve));
      running.kill('SIGCONT');
      running.kill('SIGKILL');
      await exited;
    },
    running: () => Boolean(child && child.exitCode === null && child.signalCode === null),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async command(...args) {
      const client = createClient({ url });
      await client.connect();
      try {
        return await client.sendCommand(args);
      } finally {
        client.destroy();
      }
    },
    async commandCounts() {
      const info = String(await redis.command('INFO', 'commandstats'));
      const counts: Record<string, number> = {};
      for (const [, name, calls] of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) counts[name!] = Number(calls);
      return counts;
    },
  };
  return redis;
}

/** A Redis server, started. */
export async function startRedis(options: { password?: string } = {}): Promise<Redis> {
  const redis = await redisServer(options);
  await redis.start();
  return redis;
}
