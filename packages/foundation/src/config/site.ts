// What every page declares about itself to browsers, screen readers and search engines.

/** The language of the pages' text, as a BCP 47 tag: `<html lang>`, so screen readers pronounce it right. */
export const language = 'en';

/** The meta description of the error pages: they have no content of their own to describe. */
export const errorPageDescription = 'This page could not be shown. Go back, or try again in a moment.';
