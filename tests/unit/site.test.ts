import { describe, expect, it } from 'vitest';
import { errorPageDescription, language } from '../../packages/foundation/src/config/site';

describe('what every page declares (issue 17)', () => {
  it('the language is a canonical BCP 47 tag, as <html lang> needs', () => {
    expect(Intl.getCanonicalLocales(language)).toEqual([language]);
  });

  it('the error pages have a description of their own', () => {
    expect(errorPageDescription.trim().length).toBeGreaterThan(20);
  });
});
