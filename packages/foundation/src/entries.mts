// The entry files every app holds, as the app template (apps/web) has them: the files Next looks for in the app itself
// (next.config.ts, instrumentation, the proxy, pages and API routes), each a few lines that hand the app's product to
// the foundation or re-export one of its modules. A new foundation route reaches a fork only through its own app, so
// `npm run entries` checks that an app has every one (after a merge, or in npm test: tests/unit/entries.test.ts)
// and writes the ones it lacks. Node runs this file as it is (TypeScript, types stripped).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Each entry's path in the app, and its text as the template has it. */
export const entries: Readonly<Record<string, string>> = {
  'next.config.ts': `import { nextConfig } from '@web-foundation/foundation/next-config';

export default nextConfig();
`,
  'src/instrumentation-client.ts': `import '@web-foundation/foundation/instrumentation-client';
`,
  'src/instrumentation.ts': `import { instrumentationFor } from '@web-foundation/foundation/instrumentation';
import { product } from './product';

export const { register, onRequestError } = instrumentationFor(product);
`,
  'src/pages/404.tsx': `export { default } from '@web-foundation/foundation/pages/404';
`,
  'src/pages/_app.tsx': `// Next takes global CSS only from the app's own _app.
import '@web-foundation/foundation/styles/global.css';

export { default } from '@web-foundation/foundation/pages/_app';
`,
  'src/pages/_document.tsx': `export { default } from '@web-foundation/foundation/pages/_document';
`,
  'src/pages/_error.tsx': `export { default } from '@web-foundation/foundation/pages/_error';
`,
  'src/pages/_status/[code].tsx': `export { default, getServerSideProps } from '@web-foundation/foundation/pages/_status/[code]';
`,
  'src/pages/api/[...path].ts': `export { default } from '@web-foundation/foundation/pages/api/[...path]';
`,
  'src/pages/api/csp-report.ts': `export { default } from '@web-foundation/foundation/pages/api/csp-report';
// Next reads an API route's \`config\` from the route's own file. Not parsed by Next:
// a malformed report gets the route's JSON 400 instead of Next's text.
export const config = { api: { bodyParser: false } };
`,
  'src/pages/api/diagnostics/body.ts': `export { default } from '@web-foundation/foundation/pages/api/diagnostics/body';
// Next reads an API route's \`config\` from the route's own file. Not parsed by Next:
// the route reads the body as it arrived, byte for byte.
export const config = { api: { bodyParser: false } };
`,
  'src/pages/api/diagnostics/server-error.ts': `export { default } from '@web-foundation/foundation/pages/api/diagnostics/server-error';
`,
  'src/pages/api/diagnostics/slow.ts': `export { default } from '@web-foundation/foundation/pages/api/diagnostics/slow';
`,
  'src/pages/api/health.ts': `export { default } from '@web-foundation/foundation/pages/api/health';
`,
  'src/pages/api/index.ts': `import { describeApi } from '@web-foundation/foundation/pages/api';
import pkg from '../../../package.json';

export default describeApi(pkg);
`,
  'src/pages/api/ready.ts': `export { default } from '@web-foundation/foundation/pages/api/ready';
`,
  'src/pages/api/revalidate.ts': `import { revalidationRouteFor } from '@web-foundation/foundation/pages/api/revalidate';
import { product } from '../../product';

export default revalidationRouteFor(product);

// Next reads an API route's \`config\` from the route's own file. Not parsed by Next:
// malformed JSON gets the route's JSON 400 instead of Next's text.
export const config = { api: { bodyParser: false } };
`,
  'src/pages/diagnostics/index.tsx': `export { default, getServerSideProps } from '@web-foundation/foundation/pages/diagnostics';
`,
  'src/pages/diagnostics/render-error.tsx': `export { default, getServerSideProps } from '@web-foundation/foundation/pages/diagnostics/render-error';
`,
  'src/pages/diagnostics/ssr-error.tsx': `export { default, getServerSideProps } from '@web-foundation/foundation/pages/diagnostics/ssr-error';
`,
  'src/proxy.ts': `import { proxyFor } from '@web-foundation/foundation/proxy';
import { product } from './product';

export const proxy = proxyFor(product);

export const config = {
  // Every path but static assets, image optimisation, the favicon, sitemap files and robots files (spec §2).
  matcher: ['/((?!_next/static/|_next/image(?:$|[/?])|favicon\\\\.ico$|sitemap[^/]*\\\\.xml$|robots\\\\.txt$).*)'],
};
`,
};

/** The foundation's modules an entry's text imports or re-exports (`@web-foundation/foundation/pages/api/health`). */
export function foundationModules(text: string): string[] {
  return [...text.matchAll(/^(?:import|export)\b[^'"]*?['"](@web-foundation\/foundation\/[^'"]+)['"]/gm)].map(
    ([, m]) => m!,
  );
}

/**
 * What is wrong with an app's entries, one sentence each: an entry it lacks, or one that no longer uses the foundation's
 * module (an entry may say more than the template's, such as a provider in _app or an image domain in next.config.ts,
 * as long as it keeps the foundation's).
 */
export function entryProblems(app: string): string[] {
  return Object.entries(entries).flatMap(([path, text]) => {
    const file = join(app, path);
    if (!existsSync(file)) return [`${file} is missing: write it with \`npm run entries -- --write\`.`];
    const used = new Set(foundationModules(readFileSync(file, 'utf8')));
    const lost = foundationModules(text).filter((module) => !used.has(module));
    return lost.length ? [`${file} no longer uses ${lost.join(', ')}: the template's reads\n${text}`] : [];
  });
}

/** Writes the entries an app lacks, as the template has them; returns their paths. */
export function writeMissingEntries(app: string): string[] {
  return Object.entries(entries).flatMap(([path, text]) => {
    const file = join(app, path);
    if (existsSync(file)) return [];
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
    return [path];
  });
}
