// Preloaded by bench/page-cache.mjs (variant C) only: the server runs without its Sentry cache spans, to measure what
// they cost. The observability code hands its span function to the page cache on globalThis; here that slot ignores it.
import { cacheSpan } from '../packages/foundation/src/processGlobals.mts';

Object.defineProperty(globalThis, cacheSpan, { get: () => undefined, set: () => {} });
