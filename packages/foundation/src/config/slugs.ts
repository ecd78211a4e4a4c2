// The slugs of pages made on their first visit (getStaticPaths with `fallback`). The proxy answers 404 for a slug its
// route's rule refuses, before Next renders or stores anything (docs/scaling-out.md, "What a visitor can make it
// store").

/** Every such route's slugs, unless a rule below says otherwise: lowercase letters, digits and dashes, at most 64. */
export const defaultSlugRule = /^[a-z0-9-]{1,64}$/;

/**
 * A product's own rule for a route whose slugs look otherwise, by the route as Next names it, for example
 * `{ '/products/[sku]': /^[A-Z0-9]{8}$/ }`. Each segment of a catch-all's value must match.
 */
export const slugRules: Readonly<Record<string, RegExp>> = {};
