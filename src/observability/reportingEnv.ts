// What each runtime knows about error reporting. The browser's values are inlined by Next at build time,
// so they are read through literal `process.env.NEXT_PUBLIC_*` expressions; the server reads its own at run time.
import { reporting } from '../config/specification.mts';
import { flag } from '../config/envChecks.mts';
import { sampleRate, sentryDsn, serverSettings, spotlight, type Settings } from '../config/settings.mts';

/** What a runtime's reporter is started with: the server's from its settings, the browser's from its build. */
export type ReportingEnv = Pick<
  Settings,
  'dsn' | 'environment' | 'release' | 'spotlight' | 'collectPersonalData' | 'tracesSampleRate'
>;

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

/** The server's reporting environment, from its settings (src/config/settings.mts). */
export function serverReportingEnv(settings: Settings = serverSettings()): ReportingEnv {
  const { dsn, environment, release, spotlight, collectPersonalData, tracesSampleRate } = settings;
  return { dsn, environment, release, spotlight, collectPersonalData, tracesSampleRate };
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
    dsn: sentryDsn('NEXT_PUBLIC_SENTRY_DSN', source.NEXT_PUBLIC_SENTRY_DSN),
    environment: source.NEXT_PUBLIC_SENTRY_ENVIRONMENT?.trim() || reporting.defaultEnvironment,
    release: process.env.APP_RELEASE || 'unknown',
    spotlight: spotlight(source.NEXT_PUBLIC_SENTRY_SPOTLIGHT),
    collectPersonalData: flag('NEXT_PUBLIC_SENTRY_COLLECT_PII', source.NEXT_PUBLIC_SENTRY_COLLECT_PII),
    tracesSampleRate:
      sampleRate('NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE', source.NEXT_PUBLIC_SENTRY_TRACES_SAMPLE_RATE) ??
      reporting.tracesSampleRate,
  };
}
