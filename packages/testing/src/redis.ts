// A real Redis (Debian's redis-server) on loopback for the shared page cache's tests: started, stopped, paused and
// restarted on the same port, as an operator or an outage would; over TLS with certificates of a private CA made at
// test time, as a primary and its replica watched by three sentinels, and as a three-primary Cluster.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createClient } from '@redis/client';
import { freePort, killedOnExit, until } from './processes.ts';

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

/** Starts redis-server with `args` and resolves once it prints `ready` (its own signal, not a connect loop). */
function spawnRedis(args: string[], ready = 'Ready to accept connections'): Promise<ChildProcess> {
  const started = killedOnExit(spawn(redisBinary, args, { stdio: ['ignore', 'pipe', 'pipe'] }));
  return new Promise((resolve, reject) => {
    let output = '';
    started.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(ready)) resolve(started);
    });
    started.on('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
  });
}

/** Kills a process (SIGKILL: an outage, not a shutdown) and resolves once it has exited. */
async function kill(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGCONT');
  child.kill('SIGKILL');
  await exited;
}

/** Certificates of a private CA for 127.0.0.1 and localhost, made by openssl in a directory of their own. */
export interface Certificates {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  remove(): void;
}

export function makeCertificates(): Certificates {
  const dir = mkdtempSync(join(tmpdir(), 'redis-tls-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  openssl(
    ...[
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=Test private CA',
    ],
    ...['-keyout', file('ca.key'), '-out', file('ca.pem')],
  );
  openssl(
    ...['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-subj', '/CN=localhost'],
    ...['-keyout', file('redis.key'), '-out', file('redis.csr')],
  );
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    ...['x509', '-req', '-in', file('redis.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key')],
    ...['-CAcreateserial', '-days', '1', '-extfile', file('san.ext'), '-out', file('redis.pem')],
  );
  return {
    dir,
    caFile: file('ca.pem'),
    certFile: file('redis.pem'),
    keyFile: file('redis.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * `password`: Redis requires it (requirepass), and `url` carries it, as a production REDIS_URL would. `tls`: it listens
 * only on TLS, with these certificates (`url` is rediss://). `args`: more of redis-server's options.
 */
export async function redisServer({
  password,
  tls,
  args = [],
}: { password?: string; tls?: Certificates; args?: string[] } = {}): Promise<Redis> {
  const port = await freePort();
  const url = `${tls ? 'rediss' : 'redis'}://${password ? `:${password}@` : ''}127.0.0.1:${port}`;
  const listen = tls
    ? ['--port', '0', '--tls-port', String(port), '--tls-auth-clients', 'no']
    : ['--port', String(port)];
  const tlsFiles = tls
    ? ['--tls-cert-file', tls.certFile, '--tls-key-file', tls.keyFile, '--tls-ca-cert-file', tls.caFile]
    : [];
  let child: ChildProcess | undefined;
  const redis: Redis = {
    port,
    url,
    async start() {
      child = await spawnRedis([
        ...listen,
        ...tlsFiles,
        ...['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        // A replica loads its primary's data from the socket, not through a dump.rdb in the working directory.
        ...['--repl-diskless-load', 'swapdb'],
        ...(password ? ['--requirepass', password, '--masterauth', password] : []),
        ...args,
      ]);
    },
    stop: () => kill(child),
    running: () => Boolean(child && child.exitCode === null && child.signalCode === null),
    pause: () => void child?.kill('SIGSTOP'),
    resume: () => void child?.kill('SIGCONT'),
    async command(...args) {
      const client = createClient({ url, ...(tls ? { socket: { tls: true, ca: readFileSync(tls.caFile) } } : {}) });
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
export async function startRedis(options: Parameters<typeof redisServer>[0] = {}): Promise<Redis> {
  const redis = await redisServer(options);
  await redis.start();
  return redis;
}

/**
 * A loopback TCP forwarder: the one address the app is given, sending each new connection to the Redis it points at
 * now, as a DNS name or a managed service's endpoint moves to a new primary. Connections already open stay where they
 * are, as they do after a failover.
 */
export interface Forwarder {
  port: number;
  url: string;
  point(target: Redis): void;
  close(): Promise<void>;
}

export async function startForwarder(target: Redis): Promise<Forwarder> {
  const port = await freePort();
  let targetPort = target.port;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    point: (next) => void (targetPort = next.port),
    async close() {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A primary and its replica, watched by three sentinels (quorum 2) that promote the replica a second after a loss. */
export interface SentinelSet {
  name: string;
  primary: Redis;
  replica: Redis;
  /** REDIS_SENTINELS. */
  sentinels: string;
  /** The primary's port now, as the sentinels say. */
  primaryPort(): Promise<number>;
  stop(): Promise<void>;
}

export async function startSentinels({
  password,
  sentinelPassword,
}: { password?: string; sentinelPassword?: string } = {}): Promise<SentinelSet> {
  const name = 'pages';
  const primary = await startRedis({ password });
  const replica = await startRedis({ password, args: ['--replicaof', '127.0.0.1', String(primary.port)] });
  const dir = mkdtempSync(join(tmpdir(), 'sentinels-'));
  const ports = [await freePort(), await freePort(), await freePort()];
  const sentinels = await Promise.all(
    ports.map((port) => {
      // Sentinel rewrites its configuration file: one each.
      const conf = join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor ${name} 127.0.0.1 ${primary.port} 2`,
          `sentinel down-after-milliseconds ${name} 1000`,
          `sentinel failover-timeout ${name} 5000`,
          ...(password ? [`sentinel auth-pass ${name} ${password}`] : []),
          ...(sentinelPassword
            ? [`requirepass ${sentinelPassword}`, `sentinel sentinel-pass ${sentinelPassword}`]
            : []),
          '',
        ].join('\n'),
      );
      return spawnRedis([conf, '--sentinel'], '+monitor master');
    }),
  );
  const ask = async (port: number, ...args: string[]): Promise<unknown> => {
    const client = createClient({ socket: { host: '127.0.0.1', port }, password: sentinelPassword });
    await client.connect();
    try {
      return await client.sendCommand(args);
    } finally {
      client.destroy();
    }
  };
  // Ready for a failover once every sentinel knows the other two and the replica.
  await until(
    'the sentinels to know each other and the replica',
    async () => {
      for (const port of ports) {
        // The client gives this reply as an object of fields.
        const fields = (await ask(port, 'SENTINEL', 'MASTER', name)) as Record<string, string>;
        const field = (key: string) => fields[key];
        if (field('num-other-sentinels') !== '2' || field('num-slaves') !== '1') return false;
      }
      return true;
    },
    { pollMs: 50 },
  );
  return {
    name,
    primary,
    replica,
    sentinels: ports.map((port) => `127.0.0.1:${port}`).join(','),
    async primaryPort() {
      const [, port] = (await ask(ports[0]!, 'SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name)) as string[];
      return Number(port);
    },
    async stop() {
      await Promise.all([...sentinels.map(kill), primary.stop(), replica.stop()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Three primaries, no replicas, each serving its slots while another is lost (cluster-require-full-coverage no). */
export interface Cluster {
  nodes: Redis[];
  /** REDIS_CLUSTER_NODES. */
  addresses: string;
  /** The node that holds `key`'s slot. */
  nodeOf(key: string): Promise<Redis>;
  stop(): Promise<void>;
}

export async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(join(tmpdir(), 'cluster-'));
  const nodes = await Promise.all(
    [0, 1, 2].map(async () => {
      // The bus port too is below Linux's ephemeral range (see freePort in processes.ts); a node's own file keeps its identity.
      const bus = await freePort();
      return startRedis({
        args: [
          ...['--cluster-enabled', 'yes', '--cluster-port', String(bus)],
          ...['--cluster-config-file', join(dir, `nodes-${bus}.conf`), '--cluster-node-timeout', '1000'],
          ...['--cluster-require-full-coverage', 'no'],
        ],
      });
    }),
  );
  execFileSync(
    join(dirname(redisBinary), 'redis-cli'),
    ['--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-yes'],
    { stdio: 'pipe' },
  );
  await until(
    'the cluster to be ok on every node',
    async () => {
      for (const node of nodes) {
        if (!String(await node.command('CLUSTER', 'INFO')).includes('cluster_state:ok')) return false;
      }
      return true;
    },
    { pollMs: 50 },
  );
  return {
    nodes,
    addresses: nodes.map((node) => `127.0.0.1:${node.port}`).join(','),
    async nodeOf(key) {
      const slot = Number(await nodes[0]!.command('CLUSTER', 'KEYSLOT', key));
      const shards = (await nodes[0]!.command('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
      const port = shards.find(([from, to]) => slot >= from && slot <= to)![2][1];
      return nodes.find((node) => node.port === Number(port))!;
    },
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
