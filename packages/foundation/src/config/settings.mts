// Every setting the app reads from its environment, declared once: the variable, its default and its check. The
// server reads its own at run time: the server preload reads them here before Next loads (so this is TypeScript Node
// runs as it is, importing only such files), and the app's server code reads the same. What `next build` fixes into
// the bundles (the browser's NEXT_PUBLIC_* values, the build id) is read here too, through literal expressions that
// Next replaces, and so is what next.config.ts reads at build. README.md (Configuration) and .env.example list every
// variable, and tests/unit/configuration-docs.test.ts holds the three together. The product's variables are the app's
// own (its src/product.ts), checked at the same start (../server/startup.ts).
import {
  browserSettings,
  inlinedBuildValues,
  sampleRate,
  sentryDsn,
  spotlight,
  type BrowserSettings,
  type BuildValues,
  type ReportingSettings,
} from './browserSettings.mts';
import { EnvError, flag, url } from './envChecks.mts';
import { redisSettings, type RedisTopology } from './redis.mts';
import { reporting } from './specification.mts';
import { trustedProxies, type AddressBlock } from './trustedProxies.mts';

export { EnvError, flag };
export { browserSettings, inlinedBuildValues, sampleRate, sentryDsn, spotlight };
export type { BrowserSettings, BuildValues, ReportingSettings };

type Env = Record<string, string | undefined>;

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** The server's settings; the fields it shares with the browser's are described in ./browserSettings.mts. */
export interface Settings extends ReportingSettings {
  /** NEXT_DIST_DIR: where the build is. */
  distDir: string;
  /**
   * HOSTNAME as the operator set it: the address to listen on
   * (packages/foundation/src/server/preload/listenAddress.mts).
   */
  hostname: string;
  /** LOG_LEVEL: the server log's level. */
  logLevel: LogLevel;
  /** SENTRY_LOG_LEVEL: log lines at this level and above also go to Sentry as logs. */
  sentryLogLevel: LogLevel;
  /** LOG_REQUESTS=1: one access-log line per answered request. */
  logRequests: boolean;
  /** SHUTDOWN_DRAIN_SECONDS: after SIGTERM, how long /api/ready answers 503 before the server stops accepting. */
  drainMs: number;
  /** SHUTDOWN_TIMEOUT_SECONDS: then how long in-flight requests may run. */
  timeoutMs: number;
  /** SHUTDOWN_HOOK_TIMEOUT_SECONDS: then how long each onShutdown hook may run. */
  hookTimeoutMs: number;
  /** ENABLE_DIAGNOSTICS=1 serves /diagnostics and /api/diagnostics/* (errors raised on purpose). */
  enableDiagnostics: boolean;
  /** REVALIDATE_SECRET: the bearer token of POST /api/revalidate; unset, that route answers 404. */
  revalidateSecret: string | undefined;
  /**
   * REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES (./redis.mts): every instance shares one page cache through this
   * Redis; unset, each keeps its own on disk.
   */
  redis: RedisTopology | undefined;
  /** With Redis: REDIS_KEY_PREFIX, else the environment, as the namespace of this deployment's keys there. */
  redisKeyNamespace: string | undefined;
  /**
   * TRUSTED_PROXY_ADDRESSES (./trustedProxies.mts): the reverse proxies whose X-Forwarded-For names the client a body
   * is counted against; unset, none.
   */
  trustedProxies: AddressBlock[] | undefined;
}

/** A level variable's value; throws the sentence that says what to set instead. */
export function logLevel(name: string, value: string | undefined, fallback: LogLevel): LogLevel {
  const trimmed = value?.trim().toLowerCase();
  if (!trimmed) return fallback;
  const level = logLevels.find((known) => known === trimmed);
  if (level) return level;
  throw new EnvError(
    `${name} must be one of ${logLevels.join(', ')} (got ${JSON.stringify(value)}); unset it to use the default ${fallback}.`,
  );
}

/** A duration in seconds, as milliseconds. */
function secondsAsMs(name: string, value: string | undefined, fallback: number): number {
  const text = value?.trim();
  const seconds = text ? Number(text) : fallback;
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new EnvError(
      `${name} must be a number of seconds, 0 or more (got ${JSON.stringify(value)}); unset it to use the default ${fallback}.`,
    );
  }
  return seconds * 1000;
}

/** Long enough not to be guessed: it lets anyone who holds it make the server regenerate pages. */
const minRevalidateSecretLength = 32;

function revalidateSecret(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (value.length < minRevalidateSecretLength) {
    throw new EnvError(
      `REVALIDATE_SECRET must be at least ${minRevalidateSecretLength} characters (e.g. \`openssl rand -hex 32\`); unset it to turn POST /api/revalidate off.`,
    );
  }
  return value;
}

/** Every setting from one environment; throws an EnvError that names the variable and what to set. */
export function parseSettings(env: Env, build: BuildValues = {}): Settings {
  const environment =
    env.SENTRY_ENVIRONMENT?.trim() ||
    (env.NEXT_PUBLIC_SENTRY_ENVIRONMENT ?? build.environment)?.trim() ||
    reporting.defaultEnvironment;
  return {
    distDir: distDirOf(env),
    hostname: env.HOSTNAME?.trim() ?? '',
    logLevel: logLevel('LOG_LEVEL', env.LOG_LEVEL, 'info'),
    sentryLogLevel: logLevel('SENTRY_LOG_LEVEL', env.SENTRY_LOG_LEVEL, 'warn'),
    logRequests: flag('LOG_REQUESTS', env.LOG_REQUESTS),
    dsn:
      sentryDsn('SENTRY_DSN', env.SENTRY_DSN) ??
      sentryDsn('NEXT_PUBLIC_SENTRY_DSN', env.NEXT_PUBLIC_SENTRY_DSN ?? build.dsn),
    environment,
    release: env.SENTRY_RELEASE?.trim() || build.release || 'unknown',
    spotlight: spotlight(env.SENTRY_SPOTLIGHT),
    collectPersonalData: flag('SENTRY_COLLECT_PII', env.SENTRY_COLLECT_PII),
    tracesSampleRate:
      sampleRate('SENTRY_TRACES_SAMPLE_RATE', env.SENTRY_TRACES_SAMPLE_RATE) ??
      sampleRate(
        'NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE',
        env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE ?? build.tracesSampleRate,
      ) ??
      reporting.tracesSampleRate,
    drainMs: secondsAsMs('SHUTDOWN_DRAIN_SECONDS', env.SHUTDOWN_DRAIN_SECONDS, 5),
    timeoutMs: secondsAsMs('SHUTDOWN_TIMEOUT_SECONDS', env.SHUTDOWN_TIMEOUT_SECONDS, 10),
    hookTimeoutMs: secondsAsMs('SHUTDOWN_HOOK_TIMEOUT_SECONDS', env.SHUTDOWN_HOOK_TIMEOUT_SECONDS, 5),
    enableDiagnostics: flag('ENABLE_DIAGNOSTICS', env.ENABLE_DIAGNOSTICS),
    revalidateSecret: revalidateSecret(env.REVALIDATE_SECRET),
    ...redisSettings(env, environment),
    trustedProxies: trustedProxies(env.TRUSTED_PROXY_ADDRESSES),
  };
}

/** NEXT_DIST_DIR, or Next's default: where the build is, for the scripts that need nothing else. */
export function distDirOf(env: Env = process.env): string {
  return env.NEXT_DIST_DIR?.trim() || '.next';
}

/** The build this code belongs to: BUILD_ID or the git commit it was built from (next.config.ts `env`, inlined). */
export const buildId = (): string => process.env.APP_BUILD_ID ?? 'unknown';

/** Where the build is, relative to the directory the server runs in (next.config.ts `env`, inlined). */
export const builtDistDir = (): string => process.env.APP_DIST_DIR ?? '.next';

/** The deployment id Next's skew protection compares, which Next inlines (the build id); none in `next dev`. */
export const deploymentId = (): string | undefined => process.env.NEXT_DEPLOYMENT_ID || undefined;

/** Whether this process is `next build`, which sets NEXT_PHASE for the code it loads. */
export const runningNextBuild = (): boolean => process.env.NEXT_PHASE === 'phase-production-build';

export interface SourceMapUpload {
  /** SENTRY_URL: a self-hosted Sentry; unset, Sentry's own. */
  url: string;
  org: string;
  project: string;
  authToken: string;
}

/** What `next build` (next.config.ts) reads of its environment. */
export interface BuildSettings {
  /** BUILD_ID as set (next.config.ts checks it); unset, the git tree names the build. */
  buildId: string | undefined;
  /** NEXT_DIST_DIR: where the build goes. */
  distDir: string;
  /** SENTRY_RELEASE at build; unset, the build id. */
  release: string | undefined;
  /** Where the build uploads its source maps; none unless SENTRY_ORG, SENTRY_PROJECT and SENTRY_AUTH_TOKEN are set. */
  upload: SourceMapUpload | undefined;
  /**
   * BUILD_SKIP_TYPE_CHECK: `next build` leaves out its type check, for a pipeline that ran it already (`npm test`
   * checks every app with tsc before it builds them).
   */
  skipTypeCheck: boolean;
}

/** Where the source maps go unless SENTRY_URL says otherwise: Sentry's own service. */
const defaultSentryUrl = 'https://sentry.io';

export function buildSettings(env: Env = process.env): BuildSettings {
  const sentryUrl = url('SENTRY_URL', env.SENTRY_URL, {
    protocols: ['http:', 'https:'],
    example: 'https://sentry.example.com',
    fallback: defaultSentryUrl,
  });
  const org = env.SENTRY_ORG;
  const project = env.SENTRY_PROJECT;
  const authToken = env.SENTRY_AUTH_TOKEN;
  return {
    buildId: env.BUILD_ID?.trim() || undefined,
    distDir: distDirOf(env),
    release: env.SENTRY_RELEASE?.trim() || undefined,
    upload: org && project && authToken ? { url: sentryUrl, org, project, authToken } : undefined,
    skipTypeCheck: flag('BUILD_SKIP_TYPE_CHECK', env.BUILD_SKIP_TYPE_CHECK),
  };
}

/**
 * What the security headers (packages/foundation/src/config/security.ts) are made of; next.config.ts reads it at build
 * and in next dev.
 */
export interface SecuritySettings {
  /**
   * HSTS_MAX_AGE: Strict-Transport-Security's max-age in seconds, on requests that arrived over HTTPS; 0 turns it off.
   */
  hstsMaxAgeSeconds: number;
  /** NEXT_PUBLIC_SENTRY_DSN: its origin is the only other place the page may connect to. */
  browserDsn: string | undefined;
  /** NEXT_PUBLIC_SENTRY_SPOTLIGHT: Spotlight's sidecar URL in development. */
  spotlight: string | undefined;
}

/** A year: browsers keep to HTTPS that long after a visit. */
const defaultHstsMaxAgeSeconds = 31_536_000;

function hstsMaxAge(value: string | undefined): number {
  const text = value?.trim();
  const seconds = text ? Number(text) : defaultHstsMaxAgeSeconds;
  if (!Number.isInteger(seconds) || seconds < 0) {
    throw new EnvError(
      `HSTS_MAX_AGE must be a whole number of seconds, 0 to turn HSTS off (got ${JSON.stringify(value)}); unset it to use the default ${defaultHstsMaxAgeSeconds}.`,
    );
  }
  return seconds;
}

export function securitySettings(env: Env = process.env): SecuritySettings {
  return {
    hstsMaxAgeSeconds: hstsMaxAge(env.HSTS_MAX_AGE),
    browserDsn: sentryDsn('NEXT_PUBLIC_SENTRY_DSN', env.NEXT_PUBLIC_SENTRY_DSN),
    spotlight: env.NEXT_PUBLIC_SENTRY_SPOTLIGHT,
  };
}

let parsed: Settings | undefined;
/**
 * The server's settings as the app's bundle reads them, parsed once: the first call, at start
 * (../server/startup.ts), checks every variable.
 */
export function serverSettings(): Settings {
  parsed ??= parseSettings(process.env, inlinedBuildValues());
  return parsed;
}

/** The server's settings as the preload reads them: the build's values come from its files there. */
export function preloadSettings(build: BuildValues): Settings {
  return parseSettings(process.env, build);
}

/**
 * What the preload tells Next through the environment, which Next reads when it starts: NEXT_MANUAL_SIG_HANDLE leaves
 * SIGTERM to the preload's drain, and HOSTNAME is the name Next gives its own origin.
 */
export function tellNext(values: { NEXT_MANUAL_SIG_HANDLE?: 'true'; HOSTNAME?: string }): void {
  Object.assign(process.env, values);
}
