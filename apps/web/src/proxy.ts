import { proxyFor } from '@web-foundation/foundation/proxy';
import { product } from './product';

export const proxy = proxyFor(product);

export const config = {
  // Every path but static assets, image optimisation, the favicon, sitemap files and robots files (spec §2).
  matcher: ['/((?!_next/static/|_next/image(?:$|[/?])|favicon\\.ico$|sitemap[^/]*\\.xml$|robots\\.txt$).*)'],
};
