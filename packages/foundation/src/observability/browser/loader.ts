// The part of browser reporting that loads with the page: it holds the errors raised before the SDK arrives and
// loads the SDK (reporter.ts, its own chunk) once the page has loaded, its largest paint is on screen and the browser
// is idle, so that neither its bytes nor its start-up compete with the page's first view. An error loads it at once.
import { reporting } from '../../config/specification.mts';
import type * as BrowserReporting from './reporter';
import { browserSettings, reportingOn } from '../../config/browserSettings.mts';

type Sdk = typeof BrowserReporting;

/** An error raised before the SDK started, with the global handler that would have caught it and when it was raised. */
export interface HeldError {
  error: unknown;
  handler: 'onerror' | 'onunhandledrejection';
  /** Seconds since the epoch, as an event's `timestamp`. */
  at: number;
}

/** At most this many early errors wait; a page that throws more before the SDK arrives is broken anyway. */
export const maxHeldErrors = 20;
/** Longest wait for an idle moment after the largest paint before the SDK loads anyway. */
const idleTimeoutMs = 2000;
/** Longest wait after the load event for the browser to report the largest paint (a hidden page paints nothing). */
const largestPaintTimeoutMs = 3000;

const held: HeldError[] = [];

/**
 * Resolves in a later task. Evaluating a chunk and starting what it holds are each tens of milliseconds on a slow
 * phone; run back to back they make one long task that blocks input (Lighthouse's TBT). Apart, each stays short.
 */
export function nextTask(): Promise<void> {
  // A function of ours, not the native resolver: the browser then attributes the next task to this chunk (long
  // animation frames name it; bench:frames counts them as error reporting's).
  return new Promise((resume) => setTimeout(() => resume(), 0));
}

let loading: Promise<Sdk | undefined> | undefined;

let leaving = false;
/**
 * Whether the visitor is leaving the page: from its `pagehide` (which the SDK answers by ending the page load and
 * flushing) until a `pageshow` brings it back from the back-forward cache, or while it is hidden. Listened to here,
 * before the SDK's own listeners, so that it is already true when they run.
 */
export const pageLeaving = (): boolean => leaving || document.visibilityState === 'hidden';

function hold(event: Event): void {
  if (held.length >= maxHeldErrors) return;
  const at = (performance.timeOrigin + performance.now()) / 1000;
  if (event instanceof PromiseRejectionEvent) held.push({ error: event.reason, handler: 'onunhandledrejection', at });
  else if (event instanceof ErrorEvent) held.push({ error: event.error ?? event.message, handler: 'onerror', at });
  else return;
  void loadBrowserReporting();
}

function stopHolding(): void {
  removeEventListener('error', hold);
  removeEventListener('unhandledrejection', hold);
}

/**
 * Loads and starts the SDK once (a later call gets the same promise); resolves to the SDK module, or to
 * undefined when reporting is off or the chunk cannot load (a new deployment, for example).
 */
export function loadBrowserReporting(): Promise<Sdk | undefined> {
  const env = browserSettings();
  if (!reportingOn(env)) return Promise.resolve(undefined);
  loading ??= import('./reporter').then(
    async (sdk) => {
      await nextTask();
      // The SDK's own handlers are installed by the time its first task ends: nothing falls between.
      void sdk.startBrowserReporting(env, held.splice(0));
      stopHolding();
      return sdk;
    },
    () => undefined,
  );
  return loading;
}

/**
 * Resolves once the browser has reported a largest contentful paint (at once if it has already), or after `timeoutMs`.
 * The load event alone is not enough: a busy phone can show the page's first view well after it, and the SDK's chunks
 * would then be fetched and run before the page's largest paint.
 */
export function afterLargestPaint(timeoutMs: number): Promise<void> {
  return new Promise((resume) => {
    if (!PerformanceObserver.supportedEntryTypes.includes('largest-contentful-paint')) return resume();
    const done = () => {
      observer.disconnect();
      clearTimeout(timer);
      resume();
    };
    const observer = new PerformanceObserver(done);
    const timer = setTimeout(done, timeoutMs);
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
  });
}

/** Called by instrumentation-client.ts before the app hydrates. */
export function startBrowserReportingAfterLoad(): void {
  if (!reportingOn(browserSettings())) return;
  // What the SDK's global handlers set when they start; early errors need their 50 frames too (V8 keeps 10).
  Error.stackTraceLimit = reporting.stackTraceMaxFrames;
  addEventListener('error', hold);
  addEventListener('unhandledrejection', hold);
  addEventListener('pagehide', () => (leaving = true));
  addEventListener('pageshow', () => (leaving = false));
  const whenIdle = async () => {
    await afterLargestPaint(largestPaintTimeoutMs);
    const load = () => void loadBrowserReporting();
    if ('requestIdleCallback' in window) requestIdleCallback(load, { timeout: idleTimeoutMs });
    else setTimeout(load, 1);
  };
  if (document.readyState === 'complete') void whenIdle();
  else addEventListener('load', () => void whenIdle(), { once: true });
}
