// Several instances of production builds behind a real nginx, all on loopback: the deployment tests' cluster.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preload } from '../../foundation/scripts/standalone.mjs';
import { appHost, builtDir, e2eDistDir, e2eServerEnv, referenceApp, serverDir, type AppFolder } from './e2e-env.mts';
import { freePort, killedOnExit as track, until } from './processes.ts';

export const nginxBinary = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

export interface Instance {
  port: number;
  /** The serving process (the standalone server runs in the process started). */
  pid: number;
  origin: string;
  health(): Promise<{ buildId: string; deploymentId: string | null }>;
  /** What the server printed so far (its log lines: packages/foundation/src/observability/server/log.mts). */
  output(): string;
  /** Signals the server (unless it has exited) and resolves with its exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * A copy of the build's standalone directory in a temporary place of its own, as a machine or container of a deploy
 * holds it: instances started from separate copies share no files (Next's filesystem cache among them).
 */
export function copyOfBuild(
  distDir: string = e2eDistDir,
  app: AppFolder = referenceApp,
): { dir: string; remove(): void } {
  const place = mkdtempSync(join(tmpdir(), 'instance-'));
  cpSync(`${builtDir(distDir, app)}/standalone`, place, { recursive: true });
  // The server's folder in the copy (it keeps the repository's layout).
  return { dir: join(place, app), remove: () => rmSync(place, { recursive: true, force: true }) };
}

/**
 * Starts the standalone server of the build in `distDir`, as `npm start` would, on a free loopback port. `dir` is
 * where the standalone directory is: the build's own (serverDir), or a copy of it elsewhere (copyOfBuild). `env` adds to the tests' server
 * environment.
 */
export async function startInstance(
  distDir: string = e2eDistDir,
  dir: string = serverDir(distDir),
  env: Record<string, string> = {},
): Promise<Instance> {
  const port = await freePort();
  const origin = `http://${appHost}:${port}`;
  const child = track(
    spawn('node', ['--import', `./${preload}`, 'server.js'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        ...e2eServerEnv,
        NEXT_DIST_DIR: distDir,
        PORT: String(port),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  for (const stream of [child.stdout, child.stderr])
    stream?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const health = async () =>
    (await (await fetch(`${origin}/api/health`)).json()) as Awaited<ReturnType<Instance['health']>>;
  await until(`${origin}/api/health`, async () => (await fetch(`${origin}/api/health`)).ok);
  return {
    port,
    pid: child.pid!,
    origin,
    health,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Starts the standalone server in `dir` with `env` added to the tests' server environment (a variable set to
 * undefined is left out), for a start that must fail: waits for it to exit on its own (killed after 30 s), and returns
 * its exit code, what it printed, and the messages of its fatal log lines.
 */
export async function startExpectingExit(
  env: Record<string, string | undefined>,
  dir = serverDir(e2eDistDir),
): Promise<{ code: number | null; output: string; fatal: string[] }> {
  const child = track(
    spawn('node', ['--import', `./${preload}`, 'server.js'], {
      cwd: dir,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ...e2eServerEnv, PORT: String(await freePort()), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream?.on('data', (chunk: Buffer) => (output += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
  clearTimeout(timer);
  const fatal = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level?: string; msg?: string })
    .filter((line) => line.level === 'fatal')
    .map((line) => String(line.msg));
  return { code, output, fatal };
}

export interface Nginx {
  origin: string;
  /** Points the load balancer at other instances (a graceful `nginx -s reload`, as in a deploy). */
  route(upstreams: Instance[]): Promise<void>;
  /** Upstream address and status of every request nginx proxied, from its access log. */
  log(): { upstream: string; status: number; request: string }[];
  stop(): Promise<void>;
}

function nginxConfig(dir: string, port: number, upstreams: Instance[]): string {
  const servers = upstreams.map((i) => `    server 127.0.0.1:${i.port} max_fails=1 fail_timeout=30s;`).join('\n');
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
${process.getuid?.() === 0 ? 'user root;' : ''}
events { worker_connections 512; }
http {
  log_format upstream '$upstream_addr $status "$request"';
  access_log ${dir}/access.log upstream;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  upstream app {
${servers}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    include ${process.cwd()}/deploy/nginx/app-proxy.conf;
  }
}
`;
}

/** The pids of a process's children, from /proc (a field of /proc/<pid>/stat is the parent's pid). */
function childrenOf(pid: number): string[] {
  return readdirSync('/proc').filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid);
    } catch {
      return false;
    }
  });
}

/** Starts Debian's nginx on a free loopback port, balancing round-robin over `upstreams`. */
export async function startNginx(upstreams: Instance[]): Promise<Nginx> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'nginx-'));
  mkdirSync(join(dir, 'tmp'));
  chmodSync(dir, 0o755);
  const conf = join(dir, 'nginx.conf');
  const args = ['-e', join(dir, 'error.log'), '-p', dir, '-c', conf];
  writeFileSync(conf, nginxConfig(dir, port, upstreams));
  const test = spawnSync(nginxBinary, [...args, '-t'], { encoding: 'utf8' });
  if (test.status !== 0) throw new Error(`nginx rejected its configuration:\n${test.stderr}`);
  const child = track(spawn(nginxBinary, args, { stdio: 'ignore' }));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const origin = `http://${appHost}:${port}`;
  const log = (): ReturnType<Nginx['log']> => {
    const text = (() => {
      try {
        return readFileSync(join(dir, 'access.log'), 'utf8');
      } catch {
        return '';
      }
    })();
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [, upstream = '', status = '0', request = ''] = /^(\S+) (\d+) "(.*)"$/.exec(line) ?? [];
        return { upstream, status: Number(status), request };
      });
  };
  await until(`nginx on ${origin}`, async () => (await fetch(`${origin}/api/health`)).ok);
  return {
    origin,
    async route(next) {
      const ports = new Set(next.map((i) => i.port));
      writeFileSync(conf, nginxConfig(dir, port, next));
      const oldWorkers = new Set(childrenOf(child.pid!));
      const reload = spawnSync(nginxBinary, [...args, '-s', 'reload'], { encoding: 'utf8' });
      if (reload.status !== 0) throw new Error(`nginx reload failed:\n${reload.stderr}`);
      // Reload is asynchronous: the old worker goes on accepting connections, with the old upstreams, until the master
      // has started the new one and told it to quit. Fresh connections that happened to reach the new worker did not
      // prove it gone: a page loaded right after was once served by the previous configuration's upstream. So its
      // exit is awaited first.
      await until('nginx’s old worker to exit', async () => {
        const workers = childrenOf(child.pid!);
        return workers.length > 0 && workers.every((pid) => !oldWorkers.has(pid));
      });
      // Then fresh connections must reach only the new upstreams.
      await until('nginx to reload', async () => {
        for (let i = 0; i < 2 * next.length; i++) {
          await fetch(`${origin}/api/health`, { headers: { connection: 'close' } });
        }
        const recent = log().slice(-2 * next.length);
        return recent.every((entry) => ports.has(Number(entry.upstream.split(':').pop())));
      });
    },
    log,
    async stop() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
