import type { ErrorEvent } from '@sentry/nextjs';
import { reporting } from '../config/specification.mts';

/**
 * Generic browser noise: errors no product code can fix. Sentry's `ignoreErrors` matches them against the
 * event's message and `type: value` of each exception. Each entry says why it is noise.
 */
export const ignoredBrowserNoise: readonly (string | RegExp)[] = [
  // Chrome's ResizeObserver warning: the browser skipped a frame of notifications, nothing broke.
  /^ResizeObserver loop limit exceeded$/,
  // The same warning in Firefox and newer Chrome wording.
  /^ResizeObserver loop completed with undelivered notifications\.?$/,
  // A script from another origin failed; the browser hides all details, so there is nothing to act on.
  /^Script error\.?$/,
  // A promise rejected with a string, number or other primitive: no stack, no cause to find.
  /^Non-Error promise rejection captured with value:/,
  // A promise rejected with a plain object rather than an Error: the same, with keys instead of a value.
  /^Object captured as promise rejection with keys:/,
];

/** URL schemes of browser extensions: code the product does not ship. */
const extensionUrl = /^(?:chrome|moz|safari(?:-web)?|ms-browser)-extension:\/\/|^webkit-masked-url:/;

/** True when every stack frame of every exception comes from a browser extension (and there is at least one). */
export function thrownByBrowserExtension(event: ErrorEvent): boolean {
  const frames = (event.exception?.values ?? []).flatMap((exception) => exception.stacktrace?.frames ?? []);
  return frames.length > 0 && frames.every((frame) => extensionUrl.test(frame.filename ?? frame.abs_path ?? ''));
}

/** §8: an event is dropped when its first exception's message contains one of the spec's phrases. */
export function droppedBySpec(event: ErrorEvent): boolean {
  const first = event.exception?.values?.[0]?.value ?? '';
  return reporting.droppedFirstExceptionMessages.some((phrase) => first.includes(phrase));
}

/** The `beforeSend` of every runtime: null drops the event. */
export function reportableEvent(event: ErrorEvent): ErrorEvent | null {
  if (droppedBySpec(event) || thrownByBrowserExtension(event)) return null;
  return event;
}
