// The shared page cache (packages/foundation/src/server/pageCache/handler.ts) is also loaded by the unit tests, without
// the SDK, so it does not import the SDK. It finds this function on globalThis instead and runs each Redis read and
// write inside it: spans in the form Sentry's Caches view reads (ops cache.get and cache.put;
// cache.key, cache.hit, cache.item_size), under the request's transaction.
import { getActiveSpan, startSpan, type Span } from '@sentry/nextjs';
import { cacheSpan as cacheSpanKey, processGlobals } from '../../processGlobals.mts';

export type CacheSpan = <T>(op: 'cache.get' | 'cache.put', key: string, work: (span: Span) => Promise<T>) => Promise<T>;

/** The request's span while its transaction is still open: after that, a child would be sent on its own. */
const openParent = () => {
  const span = getActiveSpan();
  return span?.isRecording() ? span : null;
};

export const cacheSpan: CacheSpan = (op, key, work) =>
  // Only inside a request's open transaction: a cache call is never a transaction of its own.
  startSpan({ name: key, op, onlyIfParent: true, parentSpan: openParent(), attributes: { 'cache.key': [key] } }, work);

/** Hands cacheSpan to the page cache; call once, after Sentry.init. */
export function traceCacheCalls(): void {
  processGlobals[cacheSpanKey] = cacheSpan;
}
