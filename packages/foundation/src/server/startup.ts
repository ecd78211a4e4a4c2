// What the Node server does once at start-up (instrumentation.ts register()).
import { EnvError, serverSettings, type Settings } from '../config/settings.mts';
import type { Product } from '../product';
import { serverReportingEnv } from '../observability/reportingEnv';
import { forwardedLogLevels } from '../observability/server/logForwarding';
import { startServerReporting } from '../observability/server/reporter';
import { serverLogger, setReportingLogFields } from '../observability/server/log.mts';
import { openRequestGate } from './preload/reportingGate.mts';

/** Where Next's IncrementalCache looks for a cache handler when next.config names none (`FetchCache`). */
const nextCacheHandlers = Symbol.for('@next/cache-handlers');

/**
 * With REDIS_URL, the shared page cache (pageCache/handler.ts) replaces Next's filesystem cache for ISR pages and their
 * data; without it, the same handler runs Next's own cache with a bound on the pages it keeps on disk. It is handed to
 * Next here rather than as next.config's `cacheHandler`, which Next imports anew on every request, pages and API routes
 * alike: an `import()` through Node's module loader on every request, Redis or not (docs/decisions.md).
 */
export async function handPageCacheToNext(): Promise<void> {
  const { default: PageCacheHandler } = await import('./pageCache/handler');
  const global = globalThis as Record<symbol, Record<string, unknown> | undefined>;
  global[nextCacheHandlers] = { ...global[nextCacheHandlers], FetchCache: PageCacheHandler };
}

/**
 * Checks the settings (the foundation's, then the product's), starts reporting and hands Next the page cache: what the
 * Node runtime needs before a request.
 */
export async function prepareNodeRuntime(product: Pick<Product<unknown>, 'settings'>): Promise<void> {
  try {
    await prepare(product);
  } finally {
    // Under `npm run dev`, the requests that arrived meanwhile go on now (./preload/reportingGate.mts).
    openRequestGate();
  }
}

async function prepare(product: Pick<Product<unknown>, 'settings'>): Promise<void> {
  let env: Settings;
  try {
    // Every variable is checked here, so that a bad one stops the start; the page cache reads them from it.
    env = serverSettings();
    product.settings();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    // A readable line for the operator, not a stack trace: the server cannot start with this configuration.
    serverLogger().fatal(`Configuration error: ${error.message}`);
    process.exit(1);
  }
  // Made by the production server's preload already; under `next dev`, here.
  serverLogger(env);
  // Lines name the release and environment that events name (the build's release is only known to the app's bundle).
  setReportingLogFields({ release: env.release, environment: env.environment });
  startServerReporting(serverReportingEnv(env), forwardedLogLevels(env.sentryLogLevel));
  await handPageCacheToNext();
}
