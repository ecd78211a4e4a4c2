import { afterEach, describe, expect, it, vi } from 'vitest';
import { countedWarning, rateLimiter } from '../../packages/foundation/src/observability/server/rateLimits';

afterEach(() => {
  vi.useRealTimers();
});

describe('the rate limit', () => {
  it('lets a burst through at once, then the rate, never more than the burst', () => {
    let now = 0;
    const take = rateLimiter(10, 50, () => now);
    expect(take(30)).toBe(30);
    expect(take(30)).toBe(20);
    expect(take(1)).toBe(0);
    now += 100;
    expect(take(5)).toBe(1);
    now += 1000;
    expect(take(50)).toBe(10);
    now += 60_000;
    expect(take(100)).toBe(50);
  });

  it('says what it counted at once, then at most once a minute, and goes quiet when nothing more happens', () => {
    vi.useFakeTimers();
    const lines: string[] = [];
    const count = countedWarning((n, last) => lines.push(`${n} ${last}`));
    count(1, 'a');
    count(5, 'b');
    count(2, 'c');
    expect(lines).toEqual(['1 a']);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['1 a', '7 c']);
    vi.advanceTimersByTime(60_000);
    expect(lines).toEqual(['1 a', '7 c']);
    count(3, 'd');
    expect(lines).toEqual(['1 a', '7 c', '3 d']);
  });
});
