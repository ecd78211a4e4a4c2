// What the Node server does once at start-up (instrumentation.ts register()).
import { EnvError, serverEnv } from '../config/env';
import { serverReportingEnv, type ReportingEnv } from '../observability/reportingEnv';
import { forwardedLogLevels } from '../observability/server/logForwarding';
import { startServerReporting } from '../observability/server/reporter';
import { serverLogger, setReportingLogFields } from '../observability/server/log.mts';

/** Where Next's IncrementalCache looks for a cache handler when next.config names none (`FetchCache`). */
const nextCacheHandlers = Symbol.for('@next/cache-handlers');

/**
 * With REDIS_URL, the shared page cache (pageCache.mjs) replaces Next's filesystem cache for ISR pages and their data;
 * without it, the same handler runs Next's own cache with a bound on the pages it keeps on disk. It is handed to Next here rather than as
 * next.config's `cacheHandler`, which Next imports anew on every request, pages and API routes alike: an `import()`
 * through Node's module loader that cost 40 µs of CPU per request, Redis or not (docs/performance.md).
 */
export async function handPageCacheToNext(): Promise<void> {
  const { default: PageCacheHandler } = await import('./pageCache.mjs');
  const global = globalThis as Record<symbol, Record<string, unknown> | undefined>;
  global[nextCacheHandlers] = { ...global[nextCacheHandlers], FetchCache: PageCacheHandler };
}

/** Checks the settings, starts reporting and hands Next the page cache: what the Node runtime needs before a request. */
export async function prepareNodeRuntime(): Promise<void> {
  // Started by the production server's preload already; under `next dev`, here.
  const log = serverLogger();
  let reportingEnv: ReportingEnv;
  let logLevels: ReturnType<typeof forwardedLogLevels>;
  try {
    // Checked here, so that a bad REDIS_URL stops the start; the page cache reads it when Next first asks for a page.
    serverEnv();
    reportingEnv = serverReportingEnv(process.env);
    logLevels = forwardedLogLevels(process.env);
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // A readable line for the operator, not a stack trace: the server cannot start with this configuration.
    log.fatal(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  // Lines name the release and environment that events name (the build's release is only known to the app's bundle).
  setReportingLogFields({ release: reportingEnv.release, environment: reportingEnv.environment });
  startServerReporting(reportingEnv, logLevels);
  await handPageCacheToNext();
}
