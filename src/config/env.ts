// The server's environment, declared and validated once. Each variable is documented in README.md (Configuration) and .env.example.

export interface ServerEnv {
  /** ENABLE_DIAGNOSTICS=1 serves /diagnostics and /api/diagnostics/* (operators checking a deployment's reporting). */
  enableDiagnostics: boolean;
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

/** Parses the variables; throws an EnvError that says which variable is wrong and how to fix it. */
export function parseServerEnv(source: Record<string, string | undefined>): ServerEnv {
  return {
    enableDiagnostics: flag('ENABLE_DIAGNOSTICS', source.ENABLE_DIAGNOSTICS),
  };
}

let cached: ServerEnv | undefined;
export function serverEnv(): ServerEnv {
  cached ??= parseServerEnv(process.env);
  return cached;
}
