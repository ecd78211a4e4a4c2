// How the process reaches Redis (single, TLS, Sentinel, Cluster) and rides out its outages, so the handler only asks.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConnectionTimeoutError, createClient, createCluster, createSentinel, ErrorReply } from '@redis/client';
import type { CacheHandlerContext } from 'next/dist/server/lib/incremental-cache';
import { pageCacheRedis, processGlobals } from '../../processGlobals.mts';
import { keyPrefix } from './entry';
import type { OwnCopies } from './ownCopy';
import { serverSettings } from '../../config/settings.mts';
import { runningNextBuild } from '../../config/settings.mts';
import type { RedisTopology } from '../../config/redis.mts';

/** Longest any one Redis call may take before the page is served without it. */
export const callTimeoutMs = 500;
/** After a call timed out, Redis is left alone this long (a hung Redis would cost every request the timeout). */
export const pauseMs = 2000;

class RedisUnavailable extends Error {}

/** The connection's value on globalThis (packages/foundation/src/processGlobals.mts), with the type only it knows. */
const globals = processGlobals as typeof processGlobals & { [pageCacheRedis]?: SharedRedis };

/** Node's codes for a TLS certificate that does not verify against the CAs the client trusts. */
const certificateCodes = /^(?:UNABLE_TO_|SELF_SIGNED_|DEPTH_ZERO_|CERT_|ERR_TLS_CERT_)/;

/**
 * Why Redis is unavailable, in words an operator acts on. Over TLS, a certificate that does not verify says to give its
 * CA; a handshake that never completes (a Redis without TLS behind rediss:// waits for a command, answering nothing)
 * says to check that Redis speaks TLS.
 */
export function unavailableReason(error: unknown, tls = false): string {
  const fields = typeof error === 'object' && error ? (error as { code?: unknown; message?: unknown }) : undefined;
  const code = String(fields ? (fields.code ?? fields.message) : error);
  if (certificateCodes.test(code)) return `its TLS certificate does not verify: ${code}; give its CA in REDIS_CA_FILE`;
  if (tls && (error instanceof ConnectionTimeoutError || code.startsWith('ERR_SSL_'))) {
    return `no TLS handshake within ${connectTimeoutMs} ms: ${code}; if it runs without TLS, use redis://`;
  }
  return code;
}

/**
 * How long one attempt to connect may take: the client's own default. No request waits for a connection longer than
 * callTimeoutMs, so this only decides when a connection that hangs counts as failed; on the loaded test machine a
 * TLS handshake during an instance's start took over 2 s.
 */
const connectTimeoutMs = 5000;

/** Every topology's connections: attempts bounded as above, retried within pauseMs. */
const socket = {
  connectTimeout: connectTimeoutMs,
  reconnectStrategy: (retries: number) => Math.min(100 * 2 ** retries, pauseMs),
};

/** A Redis command as its words, the command's name first. */
export type Command = string[];

/** One client, whichever the topology. */
interface Client {
  handle: {
    readonly isReady: boolean;
    on(event: string, listener: (error: unknown) => void): unknown;
    connect(): Promise<unknown>;
    destroy(): unknown;
  };
  get(key: string): Promise<string | null>;
  send(command: Command): Promise<unknown>;
}

/**
 * The client of the topology the environment names, behind one interface: `get`, `send` (a command whose second word
 * is its key, if it has one) and `handle`, the client itself. A command while disconnected fails at once instead of
 * waiting in a queue for a Redis that may not come back.
 */
function clientFor(topology: RedisTopology): Client {
  if (topology.kind === 'sentinel') {
    // It follows the primary: on READONLY or a lost connection it asks the sentinels where the primary is now.
    const sentinel = createSentinel({
      name: topology.primary,
      sentinelRootNodes: topology.sentinels,
      nodeClientOptions: { password: topology.password, disableOfflineQueue: true, socket },
      sentinelClientOptions: { password: topology.sentinelPassword, socket },
    });
    return {
      handle: sentinel,
      get: (key) => sentinel.get(key),
      send: (command) => sentinel.sendCommand(false, command),
    };
  }
  if (topology.kind === 'cluster') {
    // The nodes given are where it learns the cluster's slots; every node it then finds gets `defaults`.
    const cluster = createCluster({
      rootNodes: topology.nodes.map(({ host, port }) => ({ socket: { host, port } })),
      defaults: { password: topology.password, disableOfflineQueue: true, socket },
    });
    return {
      handle: cluster,
      get: (key) => cluster.get(key),
      send: (command) => cluster.sendCommand(command[1], false, command),
    };
  }
  const client = createClient({
    url: topology.url,
    disableOfflineQueue: true,
    socket: { ...socket, ...(topology.caFile ? { ca: readFileSync(topology.caFile) } : {}) },
  });
  return { handle: client, get: (key) => client.get(key), send: (command) => client.sendCommand(command) };
}

/**
 * The process's connection and what it knows of Redis (packages/foundation/src/server/pageCache/status.ts reads the
 * last three).
 */
export interface SharedRedis extends OwnCopies {
  client: Client;
  tls: boolean;
  prefix: string;
  warned: boolean;
  pausedUntil: number;
  firstConnection: Promise<unknown> | undefined;
  evictionChecked: boolean;
  lastFailure: number;
  reconnectedAt: number;
  unavailableSince: number | undefined;
  refusingWritesSince: number | undefined;
  failedWrites: number;
  lost(reason?: string): void;
  back(now?: boolean): void;
  refused(reason: string): void;
  reconnect(): void;
  accepted(): void;
}

/** One connection per process, shared by every handler (Next makes one handler per request). */
function connectSharedRedis(topology: RedisTopology, namespace: string, distDir: string): SharedRedis {
  const address = topology.address;
  const redis: SharedRedis = {
    // Connected by open() below; a reconnection opens a new one.
    client: clientFor(topology),
    tls: topology.kind === 'single' && topology.url.startsWith('rediss://'),
    prefix: keyPrefix(namespace, readFileSync(join(distDir, 'BUILD_ID'), 'utf8').trim()),
    /** Entries written while Redis was unavailable, with their sizes, read until it is back; the oldest go first. */
    ownCopy: new Map(),
    ownCopyChars: 0,
    unavailableSince: undefined,
    warned: false,
    /** Since when Redis answers but refuses writes (out of memory, a read-only replica): pages are not shared. */
    refusingWritesSince: undefined,
    /** Writes that did not reach Redis, ever: POST /api/revalidate compares it before and after its page's write. */
    failedWrites: 0,
    pausedUntil: 0,
    firstConnection: undefined,
    evictionChecked: false,
    lastFailure: 0,
    reconnectedAt: 0,
    /**
     * One warning per outage, naming the host but never the credentials. Without a `reason` (a request found no
     * connection yet) the outage counts, and the warning waits for the client to say why.
     */
    lost: (reason) => {
      redis.unavailableSince ??= Date.now();
      if (redis.warned || reason === undefined) return;
      redis.warned = true;
      console.warn(
        `Page cache: Redis at ${address} is unavailable (${reason}); each instance renders and keeps pages on its own until it is back. Check the Redis settings (docs/scaling-out.md) and that Redis runs.`,
      );
    },
    /**
     * After a call that worked, or once the connection is ready again (`now`). Part of a Cluster may be down while the
     * rest answers: a Cluster counts as back once a call works pauseMs after the last that failed.
     */
    back: (now = false) => {
      if (redis.unavailableSince === undefined) return;
      if (!now && topology.kind === 'cluster' && Date.now() - redis.lastFailure < pauseMs) return;
      const seconds = ((Date.now() - redis.unavailableSince) / 1000).toFixed(1);
      redis.unavailableSince = undefined;
      redis.ownCopy.clear();
      redis.ownCopyChars = 0;
      if (!redis.warned) return;
      redis.warned = false;
      console.info(`Page cache: Redis at ${address} answers again after ${seconds} s; pages are shared again.`);
    },
    /** One warning per episode of refused writes, with Redis's own reason (OOM, READONLY, MISCONF). */
    refused: (reason) => {
      if (redis.refusingWritesSince !== undefined) return;
      redis.refusingWritesSince = Date.now();
      console.warn(
        `Page cache: Redis at ${address} refused a write (${reason}); pages regenerated here are not shared and POST /api/revalidate answers 503 until it takes writes again. Give Redis maxmemory with an evicting maxmemory-policy, or point REDIS_URL at the primary (docs/scaling-out.md).`,
      );
    },
    /**
     * A new connection (its address resolved again), as after a failover the address names the new primary while the
     * old one, now a replica, answers READONLY on the connection kept. At most once per pauseMs.
     */
    reconnect: () => {
      if (Date.now() - redis.reconnectedAt < pauseMs) return;
      redis.reconnectedAt = Date.now();
      const previous = redis.client.handle;
      open();
      void Promise.resolve(previous.destroy()).catch(() => {});
    },
    accepted: () => {
      if (redis.refusingWritesSince === undefined) return;
      const seconds = ((Date.now() - redis.refusingWritesSince) / 1000).toFixed(1);
      redis.refusingWritesSince = undefined;
      console.info(`Page cache: Redis at ${address} takes writes again after ${seconds} s; pages are shared again.`);
    },
  };
  function open(client = clientFor(topology)): void {
    redis.client = client;
    client.handle.on('error', (error) => {
      redis.lastFailure = Date.now();
      redis.lost(unavailableReason(error, redis.tls));
    });
    // A Cluster says `connect` once it knows its slots; the others `ready` on each connection.
    client.handle.on(topology.kind === 'cluster' ? 'connect' : 'ready', () => {
      redis.back(true);
      if (!redis.evictionChecked) void checkEviction(redis, address);
    });
    // A Sentinel or Cluster client that finds none of its nodes at start gives up: a new one tries again.
    redis.firstConnection = client.handle.connect().catch((error) => {
      if (redis.client !== client) return;
      redis.lastFailure = Date.now();
      redis.lost(unavailableReason(error, redis.tls));
      setTimeout(() => redis.client === client && open(), pauseMs).unref();
    });
  }
  open(redis.client);
  return redis;
}

/** The process's Redis connection, or undefined when the cache is Next's filesystem cache. */
export function redisFor(ctx: CacheHandlerContext): SharedRedis | undefined {
  // The build prerenders into its own directory; Redis is for the running instances.
  if (ctx.dev || runningNextBuild() || !ctx.serverDistDir) return undefined;
  // Parsed and checked once, at start (packages/foundation/src/server/startup.ts); a namespace comes with every Redis.
  const { redis: topology, redisKeyNamespace: namespace } = serverSettings();
  if (!topology || namespace === undefined) return undefined;
  return (globals[pageCacheRedis] ??= connectSharedRedis(topology, namespace, join(ctx.serverDistDir, '..')));
}

/**
 * Runs one Redis call within callTimeoutMs, or throws RedisUnavailable. A timeout pauses Redis for pauseMs: the
 * client's own abort does not reach a command already on the socket, so a stalled Redis would hold every request.
 */
export async function call<T>(redis: SharedRedis, command: (client: Client) => Promise<T>): Promise<T> {
  // The first connection is waited for (bounded), so that an instance's first requests share too.
  if (!redis.client.handle.isReady && redis.firstConnection) {
    await Promise.race([redis.firstConnection, new Promise((done) => setTimeout(done, callTimeoutMs))]);
    redis.firstConnection = undefined;
  }
  if (!redis.client.handle.isReady) {
    redis.lastFailure = Date.now();
    redis.lost();
    throw new RedisUnavailable('not connected');
  }
  if (Date.now() < redis.pausedUntil) throw new RedisUnavailable('paused');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    // After the timer, one more turn of the event loop: a reply that arrived while this process was starved of CPU is
    // read first (I/O before setImmediate), so a busy instance does not take a slow turn of its own for a Redis fault.
    const expire = () => reject(new RedisUnavailable(`no answer within ${callTimeoutMs} ms`));
    timer = setTimeout(() => setImmediate(expire), callTimeoutMs);
  });
  try {
    const result = await Promise.race([command(redis.client), timeout]);
    redis.back();
    return result;
  } catch (error) {
    // A reply that is an error (a foreign key of another type) is an answer: Redis is fine.
    if (error instanceof ErrorReply) throw error;
    if (error instanceof RedisUnavailable) redis.pausedUntil = Date.now() + pauseMs;
    redis.lastFailure = Date.now();
    redis.lost(unavailableReason(error, redis.tls));
    throw error instanceof RedisUnavailable ? error : new RedisUnavailable((error as Error).message);
  } finally {
    clearTimeout(timer);
  }
}

/** A setting of CONFIG GET's answer: a [name, value] list (RESP2) or a map (RESP3). */
function configValue(reply: unknown, name: string): unknown {
  return Array.isArray(reply) ? reply[1] : (reply as Record<string, unknown> | null | undefined)?.[name];
}

/**
 * Once per process: a warning when Redis would keep every page any visitor makes the app generate (no maxmemory) or
 * refuse new ones when full (noeviction, Redis's default). A managed Redis may forbid CONFIG: then it says so.
 */
async function checkEviction(redis: SharedRedis, address: string): Promise<void> {
  redis.evictionChecked = true;
  let maxmemory: number;
  let policy: unknown;
  try {
    maxmemory = Number(configValue(await call(redis, (c) => c.send(['CONFIG', 'GET', 'maxmemory'])), 'maxmemory'));
    policy = configValue(await call(redis, (c) => c.send(['CONFIG', 'GET', 'maxmemory-policy'])), 'maxmemory-policy');
  } catch (error) {
    console.info(
      `Page cache: could not read the memory settings of Redis at ${address} (${(error as Error).message}); make sure it has maxmemory and an evicting maxmemory-policy such as allkeys-lru (docs/scaling-out.md).`,
    );
    return;
  }
  const problems = [
    ...(maxmemory === 0 ? ['has no maxmemory, so it keeps every page until it expires and grows without bound'] : []),
    ...(policy === 'noeviction' ? ['evicts nothing (noeviction), so once full it refuses new pages'] : []),
  ];
  if (problems.length === 0) return;
  console.warn(
    `Page cache: Redis at ${address} ${problems.join(', and ')}. Run it as a cache: maxmemory <size> and maxmemory-policy allkeys-lru (docs/scaling-out.md).`,
  );
}

/**
 * Runs write commands together. An error reply (OOM, READONLY, MISCONF) is a write that did not happen, even though
 * Redis answered: counted and said once, as an outage is. Throws as call() does.
 */
export async function write(redis: SharedRedis, commands: Command[]): Promise<unknown[]> {
  try {
    const replies = await call(redis, (client) => Promise.all(commands.map((command) => client.send(command))));
    redis.accepted();
    return replies;
  } catch (error) {
    redis.failedWrites++;
    if (error instanceof ErrorReply) redis.refused(error.message);
    if (error instanceof ErrorReply && error.message.startsWith('READONLY')) redis.reconnect();
    throw error;
  }
}
