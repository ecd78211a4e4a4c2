// The browser's settings: what `next build` fixed into the bundles, and the checks they go through. Apart from the
// server's (./settings.mts, which uses the same checks) so that the browser's bundle, which every page loads, carries
// none of the server's variables and their parsing (Redis topologies, trusted proxies).
import { EnvError, flag } from './envChecks.mts';
import { reporting } from './specification.mts';

/** What `next build` fixed: the browser's settings, and what the server falls back on. */
export interface BuildValues {
  /** The build's release: SENTRY_RELEASE at build, else the build id (next.config.ts). */
  release?: string;
  /** The browser's variables as the build had them. */
  dsn?: string;
  environment?: string;
  tracesSampleRate?: string;
  /** The browser's alone: the server has its own (SENTRY_SPOTLIGHT, SENTRY_COLLECT_PII). */
  spotlight?: string;
  collectPersonalData?: string;
  resourceSpans?: string;
}

/** A Sentry DSN; undefined when unset. */
export function sentryDsn(name: string, value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new EnvError(
      `${name} is not a URL (got ${JSON.stringify(trimmed)}); copy the DSN from Sentry's project settings.`,
    );
  }
  if (!/^https?:$/.test(url.protocol) || !url.username || !/^\/(?:.*\/)?\d+$/.test(url.pathname)) {
    throw new EnvError(`${name} is not a Sentry DSN (expected https://<key>@<host>/<project id>).`);
  }
  return trimmed;
}

/** A sample rate from 0 to 1; undefined when unset, so that the spec's rate stands. */
export function sampleRate(name: string, value: string | undefined): number | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  // Decimal only: Number() would also take '0x1', '0b1' and 'Infinity'.
  const rate = /^(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) {
    throw new EnvError(
      `${name} must be a number from 0 to 1, e.g. 0.1 to keep one trace in ten (got ${JSON.stringify(trimmed)}); unset it to keep every trace.`,
    );
  }
  return rate;
}

/** Spotlight's sidecar: off, on at its default address, or its URL. */
export function spotlight(value: string | undefined): string | boolean {
  if (!value || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

/**
 * What the build fixed, as the app's bundles read it: Next replaces each of these literal expressions with its value
 * at build time (APP_RELEASE through next.config.ts's `env`), in the browser's bundle as in the server's, so they must
 * stay literal. Outside the bundle (next.config.ts, the preload) they read the environment instead: the build's own,
 * and at run time, where the preload takes the release from the build's files.
 */
export function inlinedBuildValues(): BuildValues {
  return {
    release: process.env.APP_RELEASE,
    dsn: process.env.NEXT_PUBLIC_SENTRY_DSN,
    environment: process.env.NEXT_PUBLIC_SENTRY_ENVIRONMENT,
    tracesSampleRate: process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE,
    spotlight: process.env.NEXT_PUBLIC_SENTRY_SPOTLIGHT,
    collectPersonalData: process.env.NEXT_PUBLIC_SENTRY_COLLECT_PII,
    resourceSpans: process.env.NEXT_PUBLIC_SENTRY_RESOURCE_SPANS,
  };
}

/** What every runtime's reporter starts with: the server's from its settings (./settings.mts), the browser's from its build. */
export interface ReportingSettings {
  /** Where reports go: the server's SENTRY_DSN, else NEXT_PUBLIC_SENTRY_DSN; none turns reporting off. */
  dsn: string | undefined;
  /** SENTRY_ENVIRONMENT (the server's), else NEXT_PUBLIC_SENTRY_ENVIRONMENT, else the spec's. */
  environment: string;
  /** SENTRY_RELEASE (the server's), else the build's. */
  release: string;
  /** Spotlight's sidecar (SENTRY_SPOTLIGHT, NEXT_PUBLIC_SENTRY_SPOTLIGHT): `true` for its default address, or its URL. */
  spotlight: string | boolean;
  /**
   * Whether events, spans, logs and replays keep personal data: SENTRY_COLLECT_PII=1 for the server (its events, spans,
   * log lines, access log and CSP forwards), NEXT_PUBLIC_SENTRY_COLLECT_PII=1 for the browser, each its own switch.
   */
  collectPersonalData: boolean;
  /** The share of traces started: SENTRY_TRACES_SAMPLE_RATE (the server's), else the browser's, else the spec's. */
  tracesSampleRate: number;
}

/** What the browser's reporter starts with. */
export interface BrowserSettings extends ReportingSettings {
  /**
   * NEXT_PUBLIC_SENTRY_RESOURCE_SPANS=1: the page load keeps a span per script, stylesheet and image it fetched (for
   * Sentry's Assets insights); off, the page load's ending task on a slow phone is shorter (docs/performance.md).
   */
  resourceSpans: boolean;
}

/**
 * The browser's settings, from the values `next build` inlined. next.config.ts reads them at build time too, so that a
 * wrong value (a sample rate of 2) stops the build instead of the browser's reporting.
 */
export function browserSettings(build: BuildValues = inlinedBuildValues()): BrowserSettings {
  return {
    dsn: sentryDsn('NEXT_PUBLIC_SENTRY_DSN', build.dsn),
    environment: build.environment?.trim() || reporting.defaultEnvironment,
    release: build.release || 'unknown',
    spotlight: spotlight(build.spotlight),
    collectPersonalData: flag('NEXT_PUBLIC_SENTRY_COLLECT_PII', build.collectPersonalData),
    tracesSampleRate:
      sampleRate('NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE', build.tracesSampleRate) ?? reporting.tracesSampleRate,
    resourceSpans: flag('NEXT_PUBLIC_SENTRY_RESOURCE_SPANS', build.resourceSpans),
  };
}

/** Whether anything receives reports: a DSN, or Spotlight in development. Without either, a runtime starts no SDK. */
export function reportingOn(env: ReportingSettings): boolean {
  return Boolean(env.dsn || env.spotlight);
}
