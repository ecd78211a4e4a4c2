import type { ErrorEvent } from '@sentry/nextjs';
import { describe, expect, it } from 'vitest';
import { ignoredBrowserNoise, reportableEvent } from '../../packages/foundation/src/observability/filters';

const event = (...values: { value?: string; type?: string; files?: string[] }[]): ErrorEvent => ({
  type: undefined,
  exception: {
    values: values.map(({ value, type = 'Error', files }) => ({
      type,
      value,
      stacktrace: files && { frames: files.map((filename) => ({ filename })) },
    })),
  },
});

describe('reportableEvent (spec §8)', () => {
  it.each(['Request failed with status code 500', 'AbortError: The user aborted a request.', 'x Request failed x'])(
    'drops an event whose first exception reads %j',
    (value) => {
      expect(reportableEvent(event({ value }))).toBeNull();
    },
  );

  it('keeps an event that only mentions the phrases elsewhere', () => {
    const second = event({ value: 'TypeError: x is undefined' }, { value: 'Request failed' });
    expect(reportableEvent(second)).toBe(second);
    const inMessage: ErrorEvent = { ...event({ value: 'Boom' }), message: 'AbortError nearby' };
    expect(reportableEvent(inMessage)).toBe(inMessage);
    const withType = event({ type: 'AbortError', value: 'The operation was aborted' });
    expect(reportableEvent(withType)).toBe(withType);
  });

  it('matches the phrases case-sensitively, as the spec writes them', () => {
    const lower = event({ value: 'request failed' });
    expect(reportableEvent(lower)).toBe(lower);
  });

  it('drops errors whose frames all come from browser extensions, keeps mixed ones', () => {
    expect(reportableEvent(event({ value: 'x', files: ['chrome-extension://abc/content.js'] }))).toBeNull();
    expect(
      reportableEvent(event({ value: 'x', files: ['moz-extension://a/b.js', 'safari-web-extension://c/d.js'] })),
    ).toBeNull();
    const mixed = event({ value: 'x', files: ['chrome-extension://abc/content.js', 'https://app.example/_next/a.js'] });
    expect(reportableEvent(mixed)).toBe(mixed);
    const noFrames = event({ value: 'x' });
    expect(reportableEvent(noFrames)).toBe(noFrames);
  });
});

describe('ignoredBrowserNoise', () => {
  const ignored = (message: string) =>
    ignoredBrowserNoise.some((p) => (typeof p === 'string' ? message.includes(p) : p.test(message)));

  it.each([
    'ResizeObserver loop limit exceeded',
    'ResizeObserver loop completed with undelivered notifications.',
    'Script error.',
    'Non-Error promise rejection captured with value: undefined',
    'Object captured as promise rejection with keys: code, reason',
  ])('ignores %j', (message) => {
    expect(ignored(message)).toBe(true);
  });

  it.each(['TypeError: Cannot read properties of undefined', 'Error: Script error in checkout', 'ResizeObserver'])(
    'keeps %j',
    (message) => {
      expect(ignored(message)).toBe(false);
    },
  );
});
