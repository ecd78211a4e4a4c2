// In the page: waits for what web-vitals needs before the page hides, for the browser SDK to report a slow interaction
// (INP). Serializable, so that Playwright's `page.evaluate` and the cross-engine tabs (packages/testing/src/engines.ts) run it.

/**
 * Resolves once the page's measure of an interaction of at least `minimumMs` has reached web-vitals, which reports
 * INP on hiding only for what it took in before: a page hidden at once after the click reports none.
 */
export const slowInteractionTakenIn = (minimumMs: number) =>
  new Promise<void>((resolve) =>
    // The browser queues the click's timings to web-vitals' observer, then (buffered) to this later one.
    new PerformanceObserver((list, observer) => {
      const seen = list
        .getEntries()
        .some((e) => (e as PerformanceEntry & { interactionId?: number }).interactionId && e.duration >= minimumMs);
      if (!seen) return;
      observer.disconnect();
      // web-vitals takes them in at an idle moment, within 1 s (whenIdleOrHidden): this callback comes after its own.
      requestIdleCallback(() => resolve(), { timeout: 1000 });
    }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit),
  );
