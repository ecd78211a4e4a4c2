// What an app hands the foundation: its own settings and the slugs its pages can have. The app declares them once
// (its src/product.ts) and passes the result at the entries that need it: instrumentation.ts (which checks the settings
// at start), proxy.ts and pages/api/revalidate.ts (which refuse made-up slugs). The foundation never imports an app:
// Next builds each entry as a module graph of its own, so each gets the product by the app's own import.
import { EnvError } from './config/envChecks.mts';
import type { SlugRules } from './config/slugs';
import { acceptsSlug } from './server/routing.ts';

type Env = Record<string, string | undefined>;

export interface ProductDeclaration<Settings> {
  /**
   * The product's own variables, each read with a check of `@web-foundation/foundation/env-checks` (url, secret,
   * integer, flag), which throws an EnvError that names the variable and what to set.
   */
  settings: (source: Env) => Settings;
  /**
   * The slugs of this app's pages made on their first visit (getStaticPaths with `fallback`), by the route as Next
   * names it, where they look otherwise than the default (lowercase letters, digits and dashes, at most 64): e.g.
   * `{ '/products/[sku]': /^[A-Z0-9]{8}$/ }`. A rule runs on request data, so it must run in linear time.
   */
  slugRules?: SlugRules;
}

export interface Product<Settings> {
  /** The product's settings, read from the environment once; instrumentation.ts checks them before any request. */
  settings: () => Settings;
  /** The rule each fallback route's slugs follow. */
  slugRules: SlugRules;
  /** Whether a fallback route's parameter (a string, or a catch-all's segments) is a slug the product can have. */
  acceptsSlug: (route: string, value: unknown) => boolean;
}

/** The product as the app declares it, in the shape its entries hand to the foundation. */
export function defineProduct<Settings>(declaration: ProductDeclaration<Settings>): Product<Settings> {
  const slugRules = declaration.slugRules ?? {};
  let settings: { value: Settings } | undefined;
  return {
    settings: () => (settings ??= { value: declaration.settings(process.env) }).value,
    slugRules,
    acceptsSlug: (route, value) => acceptsSlug(route, value, slugRules),
  };
}

export { EnvError };
