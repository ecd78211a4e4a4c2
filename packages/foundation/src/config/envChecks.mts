// The checks every variable of the server's environment goes through, the foundation's (settings.mts, redis.mts)
// and the product's (an app's src/product.ts). Each one returns the value to use or throws an EnvError whose message
// is one sentence: the variable, what it must be, and what to set. The server prints it as "Configuration error: …"
// and does not start (packages/foundation/src/server/startup.ts). A message never repeats the value: it may hold a
// password.

export class EnvError extends Error {
  override name = 'EnvError';
}

/** A 1/0 switch (also true/false); unset or empty is 0. */
export function flag(name: string, value: string | undefined): boolean {
  if (value === undefined || value === '' || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  throw new EnvError(`${name} must be 1 or 0 (got ${JSON.stringify(value)}); unset it to use the default 0.`);
}

export interface UrlRule {
  /** The schemes it takes, e.g. ['http:', 'https:']. */
  protocols: string[];
  /** A value to show in the message, e.g. 'http://backend.internal:8080'. */
  example: string;
  /** Used when the variable is unset or empty; without one, the variable is required. */
  fallback?: string;
}

/** A URL with a host, in one of `protocols`; required unless the rule has a fallback. */
export function url(name: string, value: string | undefined, rule: UrlRule): string {
  const text = value?.trim();
  const schemes = rule.protocols.map((p) => `${p}//`).join(' or ');
  if (!text) {
    if (rule.fallback !== undefined) return rule.fallback;
    throw new EnvError(`${name} is not set: set it to a URL (${schemes}), e.g. ${rule.example}.`);
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    parsed = undefined;
  }
  if (!parsed || !rule.protocols.includes(parsed.protocol) || !parsed.hostname) {
    throw new EnvError(`${name} must be a URL (${schemes}) with a host, e.g. ${rule.example}; the value set is not.`);
  }
  return text;
}

export interface IntegerRule {
  min: number;
  max: number;
  /** Used when the variable is unset or empty; without one, the variable is required. */
  fallback?: number;
}

/** A whole number from `min` to `max`; required unless the rule has a fallback. */
export function integer(name: string, value: string | undefined, rule: IntegerRule): number {
  const text = value?.trim();
  const range = `a whole number from ${rule.min} to ${rule.max}`;
  if (!text) {
    if (rule.fallback !== undefined) return rule.fallback;
    throw new EnvError(`${name} is not set: set it to ${range}.`);
  }
  const parsed = Number(text);
  if (!/^-?\d+$/.test(text) || parsed < rule.min || parsed > rule.max) {
    const fix = rule.fallback === undefined ? 'set one' : `unset it to use the default ${rule.fallback}`;
    throw new EnvError(`${name} must be ${range} (got ${JSON.stringify(value)}); ${fix}.`);
  }
  return parsed;
}

/** A secret (a signing key, a token) of at least `minLength` characters; required. Its value never appears. */
export function secret(name: string, value: string | undefined, { minLength }: { minLength: number }): string {
  if (!value)
    throw new EnvError(`${name} is not set: set it to ${minLength} characters or more (\`openssl rand -hex 32\`).`);
  if (value.length < minLength) {
    throw new EnvError(
      `${name} must be at least ${minLength} characters (\`openssl rand -hex 32\`); the value set is shorter.`,
    );
  }
  return value;
}
