// The slugs of this app's pages made on their first visit (getStaticPaths with `fallback`), by the route as Next names
// it, where they look otherwise than the foundation's default (lowercase letters, digits and dashes, at most 64), for
// example `{ '/products/[sku]': /^[A-Z0-9]{8}$/ }`. Each segment of a catch-all's value must match. The proxy answers
// 404 for a slug its route's rule refuses, before Next renders or stores anything (docs/scaling-out.md, "What a
// visitor can make it store"); the rule runs on request data, so it must run in linear time
// (tests/unit/linear-regexes.test.ts).
export const slugRules: Readonly<Record<string, RegExp>> = {};
