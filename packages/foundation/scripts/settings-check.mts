// The settings check the server makes when it starts (../src/server/startup.ts), made first: the foundation's
// settings, then the product's (the app's src/product.ts). `npm start` runs it before it builds or serves, and `npm run
// dev` before Next starts, so that a wrong setting stops them with its one sentence rather than after Next's "Ready".
// Run in the app's folder, in a process of its own (start.mjs, dev.mjs); on a wrong setting it prints the server's own
// line for it (one JSON line, which `npm run dev` shows as its console does) and exits 1.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { EnvError, serverSettings } from '../src/config/settings.mts';
import { serverLogger } from '../src/observability/server/log.mts';
import type { Product } from '../src/product.ts';

/** The app's product, or undefined when Node cannot load its file as it is: the server checks it then, at start. */
async function productOfApp(): Promise<Pick<Product<unknown>, 'settings'> | undefined> {
  const file = `${process.cwd()}/src/product.ts`;
  if (!existsSync(file)) return undefined;
  try {
    return ((await import(pathToFileURL(file).href)) as { product?: Product<unknown> }).product;
  } catch {
    // An import Next resolves and Node does not (a path without its extension, a path alias).
    return undefined;
  }
}

try {
  serverSettings();
  (await productOfApp())?.settings();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  serverLogger().fatal(`Configuration error: ${error.message}`);
  process.exit(1);
}
