// What the app's server code reads of its environment: the foundation's settings (./settings.mts, which the server
// preload reads too), the shared page cache's Redis, and the product's own variables (./productEnv.ts), validated
// together at start. Each variable is documented in README.md (Configuration) and .env.example.
import { keyNamespace, keyNamespacePattern, parseRedisUrl } from '../server/pageCacheEntry.mjs';
import { EnvError, flag } from './envChecks.mts';
import { parseProductEnv, type ProductEnv } from './productEnv';
import { inlinedBuildValues, parseSettings, processEnvironment, serverSettings, type Settings } from './settings.mts';

export { EnvError, flag };

export interface ServerEnv extends Settings {
  /** REDIS_URL: every instance shares one page cache through this Redis; unset, each keeps its own on disk. */
  redisUrl: string | undefined;
  /** With REDIS_URL: REDIS_KEY_PREFIX, else the environment, as the namespace of this deployment's keys there. */
  redisKeyNamespace: string | undefined;
  /** The product's own settings (./productEnv.ts). */
  product: ProductEnv;
}

/**
 * A redis:// or rediss:// URL that the Redis client can use (parsed as it parses it); user and password may be in it,
 * and never appear in a message.
 */
export function redisUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  const parsed = parseRedisUrl(text);
  if ('problem' in parsed) {
    throw new EnvError(
      `REDIS_URL must be a redis:// or rediss:// URL with a host and, if any, a database number, e.g. redis://:password@redis.internal:6379/0 (the value set ${parsed.problem}); unset it to keep the page cache on each instance.`,
    );
  }
  return text;
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

function redisSettings(source: Record<string, string | undefined>): Pick<ServerEnv, 'redisUrl' | 'redisKeyNamespace'> {
  const url = redisUrl(source.REDIS_URL);
  return { redisUrl: url, redisKeyNamespace: url ? redisKeyNamespace(source) : undefined };
}

/** The foundation's own variables; throws an EnvError that says which variable is wrong and how to fix it. */
export function parseFoundationEnv(source: Record<string, string | undefined>): Omit<ServerEnv, 'product'> {
  return { ...parseSettings(source, inlinedBuildValues()), ...redisSettings(source) };
}

/** Every variable, the foundation's and the product's, from one source: a bad one stops start-up alike. */
export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  return { ...parseFoundationEnv(source), product: parseProductEnv(source) };
}

let cached: ServerEnv | undefined;
/** Every variable of the app's server, parsed once; the first call checks them all (src/server/startup.ts). */
export function serverEnv(): ServerEnv {
  const source = processEnvironment();
  cached ??= { ...serverSettings(), ...redisSettings(source), product: parseProductEnv(source) };
  return cached;
}
