import { describe, expect, it } from 'vitest';
import { errorText, errorTitle } from '../../packages/foundation/src/config/errorText';

describe('error page text (spec §2)', () => {
  it.each([
    [400, 'Bad Request'],
    [404, 'This page could not be found'],
    [405, 'Method Not Allowed'],
    [500, 'Internal Server Error'],
    [418, 'An unexpected error has occurred'],
    [503, 'An unexpected error has occurred'],
  ])('status %i reads "%s"', (status, text) => {
    expect(errorText(status)).toBe(text);
    expect(errorTitle(status)).toBe(`${status}: ${text}`);
  });

  it('a client-side exception (no status) reads the spec text, also as the title', () => {
    expect(errorText(undefined)).toBe('Application error: a client-side exception has occurred');
    expect(errorTitle(undefined)).toBe('Application error: a client-side exception has occurred');
  });
});
