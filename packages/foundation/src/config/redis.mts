// The Redis the shared page cache uses, from the environment: which variables name it, how they are checked, and the
// namespace of a deployment's keys there. Part of the server's settings (./settings.mts), which Node loads as they are
// in the preload: TypeScript with types Node strips, importing only such files.
import { EnvError } from './envChecks.mts';

type Env = Record<string, string | undefined>;

/** One address of a Sentinel or a Cluster node. */
export interface RedisAddress {
  host: string;
  port: number;
}

/** The Redis the page cache uses; `address` names it in log lines, never with a password. */
export type RedisTopology =
  | { kind: 'single'; url: string; caFile: string | undefined; address: string }
  | {
      kind: 'sentinel';
      primary: string;
      sentinels: RedisAddress[];
      password: string | undefined;
      sentinelPassword: string | undefined;
      address: string;
    }
  | { kind: 'cluster'; nodes: RedisAddress[]; password: string | undefined; address: string };

/** What the name of a deployment's keys may hold: REDIS_KEY_PREFIX, or the environment it defaults to. */
export const keyNamespacePattern = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * The namespace of a deployment's keys: REDIS_KEY_PREFIX, else the environment the server reports as (its settings'
 * `environment`), so that staging and production of one build on one Redis share nothing. Undefined when the value is
 * not a usable name (redisSettings says so at start).
 */
export function keyNamespace(env: Env, environment: string): string | undefined {
  const name = env.REDIS_KEY_PREFIX?.trim() || environment;
  return keyNamespacePattern.test(name) ? name : undefined;
}

/**
 * A Redis URL as @redis/client will read it (its RedisClient.parseURL, which tests/unit/page-cache.test.ts compares
 * with this): `{ address }` to name it in log lines, or `{ problem }`, a sentence that never repeats the URL (it may
 * hold a password).
 */
export function parseRedisUrl(text: string): { address: string } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: 'is not a URL' };
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    return { problem: 'does not start with redis:// or rediss://' };
  if (!url.hostname) return { problem: 'has no host' };
  if (url.port === '0') return { problem: 'has port 0' };
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    return { problem: 'has a user or password with a malformed percent-encoding' };
  }
  // The client SELECTs the path's number after connecting: anything but a database number fails every command.
  if (url.pathname.length > 1 && !/^\/\d{1,5}$/.test(url.pathname)) {
    return { problem: 'has a path that is not a database number (e.g. /0)' };
  }
  return { address: `${url.protocol}//${url.hostname}:${url.port || '6379'}` };
}

/**
 * `host:port` (an IPv6 host in brackets), as Sentinel and Cluster addresses are written; undefined if it is not one.
 */
function hostAndPort(text: string): RedisAddress | undefined {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/.exec(text.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (host === undefined || port < 1 || port > 65_535) return undefined;
  return { host, port };
}

/** A comma-separated list of `host:port`, or the sentence that says what is wrong with it (never its values). */
function addressList(name: string, text: string): { addresses: RedisAddress[] } | { problem: string } {
  const entries = text.split(',').filter((entry) => entry.trim());
  const addresses = entries.map(hostAndPort).filter((address) => address !== undefined);
  // An entry that is not an address makes the list wrong, not shorter.
  if (addresses.length === 0 || addresses.length < entries.length) {
    return { problem: `${name} must list host:port addresses separated by commas, e.g. 10.0.0.1:26379,10.0.0.2:26379` };
  }
  return { addresses };
}

const set = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);

/**
 * Which Redis the page cache uses, from the environment: one Redis (REDIS_URL, with REDIS_CA_FILE for a private CA),
 * a primary found through Sentinel (REDIS_SENTINELS, REDIS_SENTINEL_PRIMARY), or a Cluster (REDIS_CLUSTER_NODES);
 * REDIS_PASSWORD and REDIS_SENTINEL_PASSWORD give the last two their passwords. Undefined when none is set;
 * `{ problem }`, a sentence naming the variable and never a value, when the settings are unusable. `address` names it
 * in log lines.
 */
export function redisTopology(env: Env): RedisTopology | { problem: string } | undefined {
  const url = set(env.REDIS_URL);
  const sentinels = set(env.REDIS_SENTINELS);
  const clusterNodes = set(env.REDIS_CLUSTER_NODES);
  const password = set(env.REDIS_PASSWORD);
  const caFile = set(env.REDIS_CA_FILE);
  const chosen = [url && 'REDIS_URL', sentinels && 'REDIS_SENTINELS', clusterNodes && 'REDIS_CLUSTER_NODES'].filter(
    Boolean,
  );
  if (chosen.length > 1) {
    return { problem: `${chosen.join(' and ')} are both set: set one of them, for the one Redis the page cache uses.` };
  }
  if (caFile && !url?.startsWith('rediss://')) {
    return { problem: 'REDIS_CA_FILE is for a rediss:// REDIS_URL (TLS): set one, or unset REDIS_CA_FILE.' };
  }
  if (password && !sentinels && !clusterNodes) {
    return {
      problem:
        'REDIS_PASSWORD is for REDIS_SENTINELS or REDIS_CLUSTER_NODES; with REDIS_URL, give the password in the URL.',
    };
  }
  if (set(env.REDIS_SENTINEL_PASSWORD) && !sentinels) {
    return { problem: 'REDIS_SENTINEL_PASSWORD is for REDIS_SENTINELS: set them, or unset it.' };
  }
  if (url) {
    const parsed = parseRedisUrl(url);
    if ('problem' in parsed) {
      return {
        problem: `REDIS_URL must be a redis:// or rediss:// URL with a host and, if any, a database number, e.g. redis://:password@redis.internal:6379/0 (the value set ${parsed.problem}); unset it to keep the page cache on each instance.`,
      };
    }
    return { kind: 'single', url, caFile, address: parsed.address };
  }
  if (sentinels) {
    const list = addressList('REDIS_SENTINELS', sentinels);
    if ('problem' in list) return list;
    const primary = set(env.REDIS_SENTINEL_PRIMARY);
    if (!primary || !/^[A-Za-z0-9._-]{1,64}$/.test(primary)) {
      return {
        problem:
          'REDIS_SENTINEL_PRIMARY must name the primary the sentinels watch (the name in their `sentinel monitor` line, e.g. mymaster).',
      };
    }
    return {
      kind: 'sentinel',
      primary,
      sentinels: list.addresses,
      password,
      sentinelPassword: set(env.REDIS_SENTINEL_PASSWORD),
      address: `primary ${primary} of sentinels ${list.addresses.map(({ host, port }) => `${host}:${port}`).join(',')}`,
    };
  }
  if (clusterNodes) {
    const list = addressList('REDIS_CLUSTER_NODES', clusterNodes);
    if ('problem' in list) return list;
    return {
      kind: 'cluster',
      nodes: list.addresses,
      password,
      address: `cluster ${list.addresses.map(({ host, port }) => `${host}:${port}`).join(',')}`,
    };
  }
  return undefined;
}

/**
 * The Redis the page cache uses, checked as the client will read it; a password may be in the settings and never
 * appears in a message. REDIS_CA_FILE must be a readable PEM file of certificates.
 */
function redis(env: Env): RedisTopology | undefined {
  const topology = redisTopology(env);
  if (topology && 'problem' in topology) throw new EnvError(topology.problem);
  if (topology?.kind === 'single' && topology.caFile) {
    let pem: string;
    try {
      // Loaded when called, not imported: the browser's bundle imports the settings for its own.
      pem = process.getBuiltinModule('node:fs').readFileSync(topology.caFile, 'utf8');
    } catch (error) {
      throw new EnvError(
        `REDIS_CA_FILE names a file the server cannot read (${(error as NodeJS.ErrnoException).code}): give the path of the PEM file of the CA that signed Redis's certificate.`,
      );
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new EnvError(
        'REDIS_CA_FILE must be a PEM file of certificates (-----BEGIN CERTIFICATE-----): the CA that signed Redis’s certificate.',
      );
    }
  }
  return topology;
}

/** The shared page cache's Redis and its keys' namespace, or none; throws an EnvError that says what to set. */
export function redisSettings(
  env: Env,
  environment: string,
): { redis: RedisTopology | undefined; redisKeyNamespace: string | undefined } {
  const topology = redis(env);
  if (!topology) return { redis: undefined, redisKeyNamespace: undefined };
  const namespace = keyNamespace(env, environment);
  if (namespace) return { redis: topology, redisKeyNamespace: namespace };
  const name = env.REDIS_KEY_PREFIX?.trim() ? 'REDIS_KEY_PREFIX' : 'the environment (SENTRY_ENVIRONMENT)';
  throw new EnvError(
    `${name} names the page cache's keys in Redis, so it must match ${keyNamespacePattern} (1-64 letters, digits, . _ : -); set REDIS_KEY_PREFIX to such a name.`,
  );
}
