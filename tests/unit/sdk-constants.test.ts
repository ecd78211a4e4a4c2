import { MAX_BAGGAGE_STRING_LENGTH, objectToBaggageHeader } from '@sentry/core';
import { defaultStackParser as parse } from '@sentry/node';
import { describe, expect, it } from 'vitest';
import { reporting } from '../../packages/foundation/src/config/specification.mts';

// Spec §9 values that are constants of the installed SDK rather than options: prove they hold.
describe('SDK constants match the spec', () => {
  it('limits the baggage header to 8192 characters', () => {
    expect(MAX_BAGGAGE_STRING_LENGTH).toBe(reporting.baggageMaxLength);
    const entries = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`key${i}`, 'v'.repeat(30)]));
    const header = objectToBaggageHeader(entries) ?? '';
    expect(header.length).toBeLessThanOrEqual(8192);
    expect(header.length).toBeGreaterThan(8000);
  });

  it('keeps at most 50 frames of a stack trace and 1024 characters of a line', () => {
    const frames = Array.from({ length: 60 }, (_, i) => `    at fn${i} (/app/file${i}.js:${i + 1}:1)`);
    const stack = ['Error: deep', ...frames].join('\n');
    expect(parse(stack)).toHaveLength(reporting.stackTraceMaxFrames);

    // A line over 1024 characters is cut to 1024 before parsing, so its file name cannot survive whole.
    const short = parse(`Error: long\n    at fn (/app/${'a'.repeat(900)}.js:1:1)`);
    expect(short[0]?.filename).toHaveLength(`/app/${'a'.repeat(900)}.js`.length);
    const long = parse(`Error: long\n    at fn (/app/${'a'.repeat(2000)}.js:1:1)`);
    expect(long.every((frame) => (frame.filename ?? '').length < 1024)).toBe(true);
  });
});
