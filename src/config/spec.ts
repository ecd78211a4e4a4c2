// The specification's values (../shared/SPEC.md), typed once. Every runtime imports them from here.

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
