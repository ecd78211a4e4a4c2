// What the server reads of its environment: the foundation's settings (./settings.mts, which the server preload reads
// too) and the shared page cache's Redis, validated at start. The product's own variables are the app's (its
// src/product.ts), checked at the same start (../server/startup.ts). Each variable is documented in README.md
// (Configuration) and .env.example.
import { keyNamespace, keyNamespacePattern, redisTopology, type RedisTopology } from './redis';
import { EnvError, flag } from './envChecks.mts';
import { inlinedBuildValues, parseSettings, processEnvironment, serverSettings, type Settings } from './settings.mts';

export { EnvError, flag };

export interface ServerEnv extends Settings {
  /**
   * REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES: every instance shares one page cache through this Redis; unset,
   * each keeps its own on disk.
   */
  redis: RedisTopology | undefined;
  /** With Redis: REDIS_KEY_PREFIX, else the environment, as the namespace of this deployment's keys there. */
  redisKeyNamespace: string | undefined;
}

/**
 * The Redis the page cache uses (./redis.ts's redisTopology says which variables make it), checked as the
 * client will read it; a password may be in the settings and never appears in a message. REDIS_CA_FILE must be a
 * readable PEM file of certificates.
 */
export function redis(source: Record<string, string | undefined>): RedisTopology | undefined {
  const topology = redisTopology(source);
  if (topology && 'problem' in topology) throw new EnvError(topology.problem);
  if (topology?.kind === 'single' && topology.caFile) {
    let pem: string;
    try {
      // Loaded when called, not imported: pages that import this module for other settings reach the browser's bundle.
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

/** The namespace of this deployment's keys, or the sentence that says what to set instead. */
export function redisKeyNamespace(source: Record<string, string | undefined>): string {
  const namespace = keyNamespace(source);
  if (namespace) return namespace;
  const name = source.REDIS_KEY_PREFIX?.trim() ? 'REDIS_KEY_PREFIX' : 'the environment (SENTRY_ENVIRONMENT)';
  throw new EnvError(
    `${name} names the page cache's keys in Redis, so it must match ${keyNamespacePattern} (1-64 letters, digits, . _ : -); set REDIS_KEY_PREFIX to such a name.`,
  );
}

function redisSettings(source: Record<string, string | undefined>): Pick<ServerEnv, 'redis' | 'redisKeyNamespace'> {
  const topology = redis(source);
  return { redis: topology, redisKeyNamespace: topology ? redisKeyNamespace(source) : undefined };
}

/** The foundation's own variables; throws an EnvError that says which variable is wrong and how to fix it. */
export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  return { ...parseSettings(source, inlinedBuildValues()), ...redisSettings(source) };
}

let cached: ServerEnv | undefined;
/**
 * Every variable of the app's server, parsed once; the first call checks them all
 * (packages/foundation/src/server/startup.ts).
 */
export function serverEnv(): ServerEnv {
  cached ??= { ...serverSettings(), ...redisSettings(processEnvironment()) };
  return cached;
}
