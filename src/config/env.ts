// The server's environment, declared and validated once. Each variable is documented in README.md (Configuration) and .env.example.
// The product's own variables are declared in ./productEnv.ts and validated here with the foundation's.
import { keyNamespace, keyNamespacePattern, redisTopology, type RedisTopology } from '../server/pageCacheEntry.mjs';
import { EnvError, flag } from './envChecks';
import { parseProductEnv, type ProductEnv } from './productEnv';

export { EnvError, flag };

export interface ServerEnv {
  /** ENABLE_DIAGNOSTICS=1 serves /diagnostics and /api/diagnostics/* (operators checking a deployment's reporting). */
  enableDiagnostics: boolean;
  /**
   * REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES: every instance shares one page cache through this Redis; unset,
   * each keeps its own on disk.
   */
  redis: RedisTopology | undefined;
  /** With Redis: REDIS_KEY_PREFIX, else the environment, as the namespace of this deployment's keys there. */
  redisKeyNamespace: string | undefined;
  /** REVALIDATE_SECRET: the bearer token of POST /api/revalidate; unset, that route answers 404. */
  revalidateSecret: string | undefined;
  /** The product's own settings (./productEnv.ts). */
  product: ProductEnv;
}

/**
 * The Redis the page cache uses (pageCacheEntry.mjs's redisTopology says which variables make it), checked as the
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

/** Long enough not to be guessed: it lets anyone who holds it make the server regenerate pages. */
export const minRevalidateSecretLength = 32;

export function revalidateSecret(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < minRevalidateSecretLength) {
    throw new EnvError(
      `REVALIDATE_SECRET must be at least ${minRevalidateSecretLength} characters (e.g. \`openssl rand -hex 32\`); unset it to turn POST /api/revalidate off.`,
    );
  }
  return value;
}

/** The foundation's own variables; throws an EnvError that says which variable is wrong and how to fix it. */
export function parseFoundationEnv(source: Record<string, string | undefined>): Omit<ServerEnv, 'product'> {
  const topology = redis(source);
  return {
    enableDiagnostics: flag('ENABLE_DIAGNOSTICS', source.ENABLE_DIAGNOSTICS),
    redis: topology,
    redisKeyNamespace: topology ? redisKeyNamespace(source) : undefined,
    revalidateSecret: revalidateSecret(source.REVALIDATE_SECRET),
  };
}

/** Every variable, the foundation's and the product's, from one source: a bad one stops start-up alike. */
export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  return { ...parseFoundationEnv(source), product: parseProductEnv(source) };
}

let cached: ServerEnv | undefined;
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
