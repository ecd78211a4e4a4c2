// The slugs of pages made on their first visit (getStaticPaths with `fallback`). The proxy answers 404 for a slug its
// route's rule refuses, before Next renders or stores anything (docs/scaling-out.md, "What a visitor can make it
// store").

/** Every such route's slugs, unless the app's rule says otherwise: lowercase letters, digits and dashes, at most 64. */
export const defaultSlugRule = /^[a-z0-9-]{1,64}$/;

/**
 * The app's own rules, by route, from its `src/config/slugs.ts` (each app's tsconfig.json names it as
 * `@web-foundation/product-slugs`): a team gives a route its rule in its own app, never in this package.
 */
export { slugRules } from '@web-foundation/product-slugs';
