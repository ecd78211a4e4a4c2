// @ts-check
// src/server/ is server code, the app's and the foundation's alike: a Turbopack loader (nextConfig.ts) that the build
// runs only on such a module about to enter a page's browser bundle, to fail with one sentence. Without it, a page whose
// component imports a database helper failed with one "Module not found: Can't resolve 'fs'" (or 'dns', 'net', 'tls')
// per Node module the driver needs, seven for pg, and answered 500 under `next dev`. The `server-only` package cannot
// say it here: Next 16 refuses its import anywhere in a Pages Router app, server code included.
import { relative } from 'node:path';

/**
 * The sentence the build fails with; Turbopack prints the chain of imports from the page under it.
 * @param {string} file the module, from the app's folder
 */
export function serverOnlyProblem(file) {
  return `${file} is server code (src/server/ never reaches the browser), but a page's component imports it: call it from getServerSideProps, getStaticProps or an API route.`;
}

/** @this {{ resourcePath: string, rootContext: string }} */
export default function serverOnlyLoader() {
  // A string, not an Error: Turbopack prints an Error with the loader runner's frames under it.
  throw serverOnlyProblem(relative(this.rootContext, this.resourcePath));
}
