// How often something may happen on this instance: work admitted at a bounded rate, and a warning that would repeat
// thousands of times a minute said in one line a minute.

/** How many of `wanted` may go now: a token bucket, refilled at `perSecond`, holding at most `burst`. */
export function rateLimiter(perSecond: number, burst: number, now: () => number = () => performance.now()) {
  let tokens = burst;
  let last = now();
  return (wanted: number): number => {
    const at = now();
    tokens = Math.min(burst, tokens + ((at - last) / 1000) * perSecond);
    last = at;
    const granted = Math.min(wanted, Math.floor(tokens));
    tokens -= granted;
    return granted;
  };
}

/**
 * Counts something that can happen thousands of times a minute and says so in one line: at once the first time, then
 * at most once a minute with the count since the last line, for as long as it goes on.
 */
export function countedWarning(warn: (count: number, last: string) => void, intervalMs = 60_000) {
  let count = 0;
  let last = '';
  let quiet: NodeJS.Timeout | undefined;
  const flush = () => {
    quiet = undefined;
    if (count === 0) return;
    warn(count, last);
    count = 0;
    quiet = setTimeout(flush, intervalMs);
    // A pending line must not keep the process alive on shutdown.
    quiet.unref();
  };
  return (n: number, detail = '') => {
    count += n;
    last = detail;
    if (!quiet) flush();
  };
}
