// What the preload reads from the environment and the build, in one place. (The app reads its own settings in
// src/config/env.ts; this file is the preload's share until both read from one module.)
import { readFileSync } from 'node:fs';
import { parseSwitch } from '../../observability/server/log.mts';

type Env = Record<string, string | undefined>;

/** The part of the Next config the build resolved (next.config.ts) that the preload shares with the app. */
export interface BuiltConfig {
  env?: { APP_RELEASE?: string };
  experimental?: { proxyClientMaxBodySize?: unknown };
}

/** Where the build wrote its resolved config. */
export const builtConfigFile = (env: Env): string => `${env.NEXT_DIST_DIR || '.next'}/required-server-files.json`;

/** The config the build resolved, or undefined when there is no build there. */
export function readBuiltConfig(file: string): BuiltConfig | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).config;
  } catch {
    return undefined;
  }
}

/** What the logger is made with before Next loads: the release the build named, the environment the build inlined. */
export const logDefaults = (env: Env, built: BuiltConfig | undefined) => ({
  release: built?.env?.APP_RELEASE,
  environment: env.NEXT_PUBLIC_SENTRY_ENVIRONMENT?.trim(),
});

export interface PreloadSettings {
  /** The largest request body, from the build (src/config/requestBody.ts, which the build gave Next). */
  maxBodyBytes: number;
  /** LOG_REQUESTS=1: one access-log line per answered request. */
  logRequests: boolean;
  /** SENTRY_COLLECT_PII=1: the access log keeps request targets whole. */
  collectPersonalData: boolean;
  /** HOSTNAME as the operator set it (src/server/preload/listenAddress.mts). */
  hostname: string;
  drainMs: number;
  timeoutMs: number;
  hookTimeoutMs: number;
}

/** A duration variable in seconds, as milliseconds. */
function secondsInMs(env: Env, name: string, fallback: number): number {
  const value = env[name]?.trim();
  const parsed = value ? Number(value) : fallback;
  if (!Number.isFinite(parsed) || parsed < 0) {
    throw new Error(`${name} must be a number of seconds (got ${JSON.stringify(value)}).`);
  }
  return parsed * 1000;
}

/** The preload's settings; throws the sentence that tells the operator what to set. */
export function preloadSettings(env: Env, built: BuiltConfig | undefined, file: string): PreloadSettings {
  const maxBodyBytes = built?.experimental?.proxyClientMaxBodySize;
  if (typeof maxBodyBytes !== 'number' || !Number.isSafeInteger(maxBodyBytes)) {
    throw new Error(`no request body limit in ${file}: set NEXT_DIST_DIR to the build's folder.`);
  }
  return {
    maxBodyBytes,
    logRequests: parseSwitch('LOG_REQUESTS', env.LOG_REQUESTS),
    // Validated by the app at start-up (src/config/env.ts); a wrong value stops the server there.
    collectPersonalData: ['1', 'true'].includes(env.SENTRY_COLLECT_PII ?? ''),
    hostname: env.HOSTNAME?.trim() ?? '',
    drainMs: secondsInMs(env, 'SHUTDOWN_DRAIN_SECONDS', 5),
    timeoutMs: secondsInMs(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10),
    hookTimeoutMs: secondsInMs(env, 'SHUTDOWN_HOOK_TIMEOUT_SECONDS', 5),
  };
}
