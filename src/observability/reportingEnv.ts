// What each runtime knows about error reporting. The browser's values are inlined by Next at build time,
// so they are read through literal `process.env.NEXT_PUBLIC_*` expressions; the server reads its own at run time.
import { reporting } from '../config/specification';
import { EnvError, flag } from '../config/envChecks';

export interface ReportingEnv {
  /** Where events go; none means error reporting is off (Spotlight may still receive them). */
  dsn: string | undefined;
  environment: string;
  release: string;
  /** Spotlight's sidecar: `true` for its default address, or its URL. Set by `spotlight run` in `npm run dev`. */
  spotlight: string | boolean;
  /** SENTRY_COLLECT_PII=1: send cookies, credential headers, request bodies, IP addresses and user info. */
  collectPersonalData: boolean;
  /** The share of traces kept: the spec's rate unless an operator lowers it (SENTRY_TRACES_SAMPLE_RATE). */
  tracesSampleRate: number;
}

function dsnValue(name: string, value: string | undefined): string | undefined {
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

/** A sample rate an operator set, from 0 to 1; undefined when unset, so that the spec's rate stands. */
export function sampleRateValue(name: string, value: string | undefined): number | undefined {
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

function spotlightValue(value: string | undefined): string | boolean {
  if (!value || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

/** The browser's variables as `next build` inlined them (literal expressions, so Next can replace them). */
function inlinedPublicEnv(): Record<string, string | undefined> {
  return {
    NEXT_PUBLIC_SENTRY_DSN: process.env.NEXT_PUBLIC_SENTRY_DSN,
    NEXT_PUBLIC_SENTRY_ENVIRONMENT: process.env.NEXT_PUBLIC_SENTRY_ENVIRONMENT,
    NEXT_PUBLIC_SENTRY_SPOTLIGHT: process.env.NEXT_PUBLIC_SENTRY_SPOTLIGHT,
    NEXT_PUBLIC_SENTRY_COLLECT_PII: process.env.NEXT_PUBLIC_SENTRY_COLLECT_PII,
    NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE: process.env.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE,
  };
}

/** The server's reporting environment: its run-time variables, falling back to the browser's build-time ones. */
export function serverReportingEnv(runtime: Record<string, string | undefined>): ReportingEnv {
  const source = { ...inlinedPublicEnv(), ...runtime };
  return {
    dsn: dsnValue('SENTRY_DSN', source.SENTRY_DSN) ?? dsnValue('NEXT_PUBLIC_SENTRY_DSN', source.NEXT_PUBLIC_SENTRY_DSN),
    environment:
      source.SENTRY_ENVIRONMENT?.trim() ||
      source.NEXT_PUBLIC_SENTRY_ENVIRONMENT?.trim() ||
      reporting.defaultEnvironment,
    release: source.SENTRY_RELEASE?.trim() || process.env.APP_RELEASE || 'unknown',
    spotlight: spotlightValue(source.SENTRY_SPOTLIGHT),
    collectPersonalData: flag('SENTRY_COLLECT_PII', source.SENTRY_COLLECT_PII ?? source.NEXT_PUBLIC_SENTRY_COLLECT_PII),
    tracesSampleRate:
      sampleRateValue('SENTRY_TRACES_SAMPLE_RATE', source.SENTRY_TRACES_SAMPLE_RATE) ??
      sampleRateValue('NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE', source.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE) ??
      reporting.tracesSampleRate,
  };
}

/** Whether anything receives reports: a DSN, or Spotlight in development. Without either, a runtime starts no SDK. */
export function reportingOn(env: ReportingEnv): boolean {
  return Boolean(env.dsn || env.spotlight);
}

/**
 * The browser's reporting environment: values inlined by `next build`. next.config.ts calls it at build time too, so
 * that a wrong value stops the build instead of the browser's reporting.
 */
export function browserReportingEnv(): ReportingEnv {
  const source = inlinedPublicEnv();
  return {
    dsn: dsnValue('NEXT_PUBLIC_SENTRY_DSN', source.NEXT_PUBLIC_SENTRY_DSN),
    environment: source.NEXT_PUBLIC_SENTRY_ENVIRONMENT?.trim() || reporting.defaultEnvironment,
    release: process.env.APP_RELEASE || 'unknown',
    spotlight: spotlightValue(source.NEXT_PUBLIC_SENTRY_SPOTLIGHT),
    collectPersonalData: flag('NEXT_PUBLIC_SENTRY_COLLECT_PII', source.NEXT_PUBLIC_SENTRY_COLLECT_PII),
    tracesSampleRate:
      sampleRateValue('NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE', source.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE) ??
      reporting.tracesSampleRate,
  };
}
