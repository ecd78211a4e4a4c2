// The server's environment, declared and validated once. Each variable is documented in README.md (Configuration) and .env.example.

export interface ServerEnv {
  /** ENABLE_DIAGNOSTICS=1 serves /diagnostics and /api/diagnostics/* (operators checking a deployment's reporting). */
  enableDiagnostics: boolean;
  /** REDIS_URL: every instance shares one page cache through this Redis; unset, each keeps its own on disk. */
  redisUrl: string | undefined;
  /** REVALIDATE_SECRET: the bearer token of POST /api/revalidate; unset, that route answers 404. */
  revalidateSecret: string | undefined;
}

export class EnvError extends Error {
  override name = 'EnvError';
}

/** A 1/0 switch (also true/false); unset or empty is 0. */
export function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new EnvError(`${name} must be 1 or 0 (got ${JSON.stringify(value)}); unset it to use the default 0.`);
}

/** A redis:// or rediss:// URL with a host; user and password may be in it, and never appear in a message. */
export function redisUrl(value: string | undefined): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || !url.hostname) {
    throw new EnvError(
      'REDIS_URL must be a redis:// or rediss:// URL with a host, e.g. redis://:password@redis.internal:6379; unset it to keep the page cache on each instance.',
    );
  }
  return text;
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

/** Parses the variables; throws an EnvError that says which variable is wrong and how to fix it. */
export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  return {
    enableDiagnostics: flag('ENABLE_DIAGNOSTICS', source.ENABLE_DIAGNOSTICS),
    redisUrl: redisUrl(source.REDIS_URL),
    revalidateSecret: revalidateSecret(source.REVALIDATE_SECRET),
  };
}

let cached: ServerEnv | undefined;
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
