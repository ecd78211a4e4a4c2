// The pages a production build caches (ISR pages and fallback routes), from its prerender-manifest.json: the proxy
// refuses made-up slugs of fallback routes, and POST /api/revalidate takes only these pages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtDistDir } from '../config/settings.mts';

/** What the build's prerender-manifest.json says of the pages Next caches (ISR pages and fallback routes). */
export interface PrerenderManifest {
  routes: Record<string, unknown>;
  dynamicRoutes: Record<string, { routeRegex: string; fallback: string | null | false }>;
}

/** The pages a build caches: its prerendered paths, and the routes that make a page on a path's first request. */
export interface CachedPages {
  paths: ReadonlySet<string>;
  routes: readonly { route: string; pattern: RegExp }[];
}

export function cachedPages(manifest: PrerenderManifest): CachedPages {
  return {
    paths: new Set(Object.keys(manifest.routes)),
    routes: Object.entries(manifest.dynamicRoutes)
      // fallback: false answers 404 for any path the build did not prerender: those are in `paths`.
      .filter(([, route]) => route.fallback !== false)
      .map(([route, { routeRegex }]) => ({ route, pattern: new RegExp(routeRegex) })),
  };
}

export function isCachedPage(path: string, pages: CachedPages): boolean {
  return pages.paths.has(path) || pages.routes.some(({ pattern }) => pattern.test(path));
}

let buildPages: CachedPages | null | undefined;

/** The pages this build caches (the server runs in the directory that holds the build); undefined under `next dev`. */
export function pagesOfBuild(): CachedPages | undefined {
  if (buildPages === undefined) {
    try {
      const manifest = readFileSync(join(process.cwd(), builtDistDir(), 'prerender-manifest.json'));
      buildPages = cachedPages(JSON.parse(manifest.toString('utf8')) as PrerenderManifest);
    } catch {
      // `next dev` keeps no such manifest where a production build does.
      buildPages = null;
    }
  }
  return buildPages ?? undefined;
}
