// The specification's values (docs/specification.md), typed once. Every runtime imports them from here.

/** §2 Error page: the text shown for each status. */
export const errorTexts = {
  400: 'Bad Request',
  404: 'This page could not be found',
  405: 'Method Not Allowed',
  500: 'Internal Server Error',
} as const satisfies Record<number, string>;
/** §2 "any other status". */
export const unexpectedErrorText = 'An unexpected error has occurred';
/** §2 "no status (client-side exception)". */
export const clientExceptionText = 'Application error: a client-side exception has occurred';

/** §2 "Paths equal to /api or beginning with /api/ are treated as API routes." */
export const apiRoutePrefix = '/api';

/** §9 Route and manifest load time-out (ms); Next's route loader uses this value. */
export const routeLoadTimeoutMs = 3800;

/** §9 Image values. */
export const images = {
  /** Image device widths */
  deviceSizes: [640, 750, 828, 1080, 1200, 1920, 2048, 3840],
  /** Image sizes */
  imageSizes: [16, 32, 48, 64, 96, 128, 256, 384],
  /** Image minimum cache TTL (seconds) */
  minimumCacheTTL: 60,
  /** Image output format */
  formats: ['image/webp'],
} as const;

/** §1 and §9: error reporting, tracing and replay. */
export const reporting = {
  /** Trace sample rate: "100% of transactions are traced" */
  tracesSampleRate: 1,
  /** Session replay sample rate: "10% of ordinary sessions" */
  replaysSessionSampleRate: 0.1,
  /** Replay-on-error sample rate: "100% of sessions that hit an error" */
  replaysOnErrorSampleRate: 1,
  /** Default environment: "runs in the environment named production unless that is overridden" */
  defaultEnvironment: 'production',
  /** Breadcrumb cap */
  maxBreadcrumbs: 100,
  /** Page-load idle timeout (ms) */
  idleTimeoutMs: 1000,
  /** Page-load final timeout (ms) */
  finalTimeoutMs: 30_000,
  /** Child-span timeout (ms) */
  childSpanTimeoutMs: 15_000,
  /** Baggage header limit (characters); an SDK constant, proven by tests/unit/sdk-constants.test.ts */
  baggageMaxLength: 8192,
  /** Stack trace cap: frames; an SDK constant, proven by tests/unit/sdk-constants.test.ts */
  stackTraceMaxFrames: 50,
  /** Stack trace cap: characters per line; an SDK constant, proven by tests/unit/sdk-constants.test.ts */
  stackTraceMaxLineLength: 1024,
  /** §8 "Events whose first exception message contains 'Request failed' or 'AbortError' are dropped" */
  droppedFirstExceptionMessages: ['Request failed', 'AbortError'],
} as const;
