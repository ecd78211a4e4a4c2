// The slugs of pages made on their first visit (getStaticPaths with `fallback`). The proxy answers 404 for a slug its
// route's rule refuses, before Next renders or stores anything (docs/scaling-out.md, "What a visitor can make it
// store"). An app gives a route a rule of its own in its src/product.ts (../product.ts).

/** Every such route's slugs, unless the app's rule says otherwise: lowercase letters, digits and dashes, at most 64. */
export const defaultSlugRule = /^[a-z0-9-]{1,64}$/;

/** An app's own rules, by route as Next names it (`/products/[sku]`). */
export type SlugRules = Readonly<Record<string, RegExp>>;
