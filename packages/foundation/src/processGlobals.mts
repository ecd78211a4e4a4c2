// Every value the server passes through globalThis, named once (as pino keeps its symbols in lib/symbols.js). The
// server's preload (packages/foundation/src/server/preload.mts) and each of Next's bundles are separate module graphs,
// each with its own copy of a module, so a module's variable is not shared between them; a global is. Each key says who
// writes it and who reads it. TypeScript that Node runs as it is (`.mts`), since the preload loads it outside the
// bundle.
import type { Logger } from 'pino';
import type { RequestLogFields } from './observability/server/log.mts';

/**
 * True from SIGTERM on: written by the preload's drain (packages/foundation/src/server/preload/drain.mts), read by
 * /api/ready.
 */
export const draining = Symbol.for('app.draining');

/**
 * Sends what the error reporter holds: set by packages/foundation/src/observability/server/reporter.ts at start, called
 * by the drain at the end.
 */
export const flushReports = Symbol.for('app.flushReports');

/**
 * The app's onShutdown() hooks: added by the app's copy of packages/foundation/src/server/shutdown.mts, run by the
 * preload's copy.
 */
export const shutdownHooks = Symbol.for('app.shutdownHooks');

/**
 * The one logger: made by the first copy of packages/foundation/src/observability/server/log.mts to run (the preload's;
 * under `next dev` the app's).
 */
export const logger = Symbol.for('app.logger');

/**
 * The fields of the request a line is logged in: set by packages/foundation/src/observability/server/reporter.ts, read
 * by the logger's lines.
 */
export const requestLogFields = Symbol.for('app.requestLogFields');

/**
 * The release and environment events name: set by the logger, then by packages/foundation/src/server/startup.ts; read
 * by its lines.
 */
export const reportingLogFields = Symbol.for('app.reportingLogFields');

/**
 * Sentry's span around a page cache call: set by packages/foundation/src/observability/server/cacheSpans.ts, read by
 * packages/foundation/src/server/pageCache/handler.ts.
 */
export const cacheSpan = Symbol.for('app.cacheSpan');

// The page cache's own two: each of Next's bundles that imports the page cache
// (packages/foundation/src/server/pageCache/) opens the same disk bound and Redis connection through them.

/** The bounded disk store: opened and read by packages/foundation/src/server/pageCache/diskBound.ts. */
export const pageCacheDisk = Symbol.for('app.pageCache.disk');

/**
 * The Redis connection: opened by packages/foundation/src/server/pageCache/redisConnection.ts, read by
 * packages/foundation/src/server/pageCache/status.ts (/api/ready).
 */
export const pageCacheRedis = Symbol.for('app.pageCache.redis');

/**
 * The writes of the on-demand revalidation running in an async context (an AsyncLocalStorage): made by the first copy
 * of packages/foundation/src/server/revalidationWrites.ts to run; POST /api/revalidate runs in it, and
 * packages/foundation/src/server/pageCache/handler.ts records in it.
 */
export const revalidationWrites = Symbol.for('app.revalidationWrites');

interface ProcessGlobals {
  [draining]?: boolean;
  [flushReports]?: (timeoutMs: number) => Promise<unknown>;
  [shutdownHooks]?: { name: string; hook: () => unknown }[];
  [logger]?: Logger;
  [requestLogFields]?: () => RequestLogFields;
  [reportingLogFields]?: { release: string; environment: string };
  [cacheSpan]?: unknown;
  [pageCacheDisk]?: unknown;
  [pageCacheRedis]?: unknown;
  [revalidationWrites]?: unknown;
}

/** globalThis, typed with the keys above. */
export const processGlobals = globalThis as typeof globalThis & ProcessGlobals;
