import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { testedApps } from '@web-foundation/testing/apps';
import { builtDir, e2eDistDir, sentryUploadsDir, serverDir } from '@web-foundation/testing/env';
import { thrownException } from '@web-foundation/testing/ingest';
import {
  debugIdsNotUploaded,
  lineShiftOf,
  mappingsOutside,
  readUploads,
  repositoryPathOf,
  resolvedThrow,
  thrownAt,
  throwLine,
  traceMapOf,
  type Uploads,
} from '@web-foundation/testing/uploaded-maps';
import { expect, test } from '@web-foundation/testing';

// Issue 53: every production error resolves to its source. Each app's test build uploaded its source maps to the local
// Sentry web API (scripts/e2e.mjs, packages/testing/src/sentry-api.mts); here, what it uploaded is read back and held
// to what Sentry needs of it, and the diagnostics' five errors are symbolicated from it as Sentry would.

/**
 * Turbopack's minifier maps a few characters past the end of a line that ends inside a multi-line template literal (at
 * most 33 of 48,265 mappings, 0.07%, in a healthy build). A map that is a line off its file has far more outside.
 */
const toleratedOutside = 0.001;

/** Every file under `dir` whose name ends with `.map`, from `dir`. */
const mapsUnder = (dir: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.map'))
    : [];

/** The five ways the diagnostics fail, each thrown by a file of the foundation's, and how a test raises it. */
const diagnosticsErrors: { kind: string; file: string; message: string; raise: (page: Page) => Promise<unknown> }[] = [
  {
    kind: 'an API route error',
    file: 'packages/foundation/src/pages/api/diagnostics/server-error.ts',
    message: 'Diagnostics: an exception thrown in an API route',
    raise: (page) => page.request.get('/api/diagnostics/server-error'),
  },
  {
    kind: 'a getServerSideProps error',
    file: 'packages/foundation/src/pages/diagnostics/ssr-error.tsx',
    message: 'Diagnostics: an exception thrown in getServerSideProps',
    raise: (page) => page.request.get('/diagnostics/ssr-error'),
  },
  {
    kind: 'a server render error',
    file: 'packages/foundation/src/pages/diagnostics/render-error.tsx',
    message: 'Diagnostics: an exception thrown while the server renders a page',
    raise: (page) => page.request.get('/diagnostics/render-error'),
  },
  {
    kind: 'a browser event-handler error',
    file: 'packages/foundation/src/pages/diagnostics/index.tsx',
    message: 'Diagnostics: an exception thrown in a browser event handler',
    raise: async (page) => {
      await page.goto('/diagnostics');
      await page.getByRole('button', { name: 'Throw in the browser' }).click();
    },
  },
  {
    kind: 'a browser render error',
    file: 'packages/foundation/src/pages/diagnostics/index.tsx',
    message: 'Diagnostics: an exception thrown while rendering in the browser',
    raise: async (page) => {
      await page.goto('/diagnostics');
      await page.getByRole('button', { name: 'Throw while rendering' }).click();
    },
  },
];

for (const app of testedApps()) {
  test.describe(app.dir, () => {
    test.use({ baseURL: app.origin });
    const build = builtDir(e2eDistDir, app.dir);
    /** Read when a test runs: the list of tests is made before any build. */
    const uploads = (): Uploads => readUploads(sentryUploadsDir(e2eDistDir, app.dir));
    /** A minified file the build serves from /_next/static/chunks, by its path there (`3brym-1duptqq.js`). */
    const servedChunk = (url: string) => {
      const path = url.replace(/^~\//, '');
      return existsSync(join(build, 'static', 'chunks', path)) ? path : undefined;
    };

    test("the build uploaded its server's and browser's files with their maps, and made its release", () => {
      const { files, byDebugId, releases } = uploads();
      // The release the app's events name (the build id, SENTRY_RELEASE unset): Sentry finds the maps by it too.
      const buildId = readFileSync(join(build, 'BUILD_ID'), 'utf8').trim();
      expect(releases).toEqual([{ version: buildId, projects: ['web-foundation'], dateReleased: expect.any(String) }]);
      const minified = files.filter((file) => file.type === 'minified_source');
      expect(minified.filter((file) => !file.debugId || !byDebugId.has(file.debugId)).map((file) => file.url)).toEqual(
        [],
      );
      expect(minified.some((file) => servedChunk(file.url))).toBe(true);
      expect(minified.some((file) => file.url.startsWith('~/pages/'))).toBe(true);
    });

    test("every uploaded map's mappings fall inside its file", () => {
      const off = [...uploads().byDebugId.values()].flatMap(({ file, map }) => {
        const { total, outside, first } = mappingsOutside(file, map);
        if (outside <= total * toleratedOutside) return [];
        const shift = lineShiftOf(file, map);
        const ours = traceMapOf(map).sources.find((source) => /\b(packages|apps)\//.test(source ?? ''));
        return [
          `${file.url}: ${outside} of ${total} mappings (${((outside / total) * 100).toFixed(1)}%) outside the file, ` +
            `first at ${first}; ${shift ? `it fits the file ${Math.abs(shift)} line(s) ${shift > 0 ? 'lower' : 'higher'}` : 'no shift fits it better'}` +
            (ours ? ` (it holds ${repositoryPathOf(ours)})` : ''),
        ];
      });
      expect(off, off.join('\n')).toEqual([]);
    });

    test('no source map is served under /_next/static', async ({ request }) => {
      const asked = [...uploads().byDebugId.values()].flatMap(({ file, map }) => {
        const chunk = servedChunk(file.url);
        if (!chunk) return [];
        // By the name the chunk's map had (Turbopack names it by another hash), and by the usual guess.
        return [`/_next/static/chunks/${map.url.replace(/^~\//, '')}`, `/_next/static/chunks/${chunk}.map`];
      });
      expect(asked.length).toBeGreaterThan(10);
      const served = [];
      for (const path of asked) {
        const response = await request.get(path);
        if (response.status() !== 404) served.push(`${path}: ${response.status()}`);
      }
      expect(served).toEqual([]);
    });

    test("on disk, the server's maps stay and no browser map is left (docs/observability.md)", () => {
      expect(mapsUnder(join(build, 'static'))).toEqual([]);
      const standalone = join(build, 'standalone');
      expect(mapsUnder(standalone).filter((file) => !file.includes(`${e2eDistDir}/server/`))).toEqual([]);
      expect(mapsUnder(join(build, 'server')).length).toBeGreaterThan(0);
      expect(mapsUnder(join(serverDir(e2eDistDir, app.dir), e2eDistDir, 'server')).length).toBeGreaterThan(0);
    });

    for (const { kind, file, message, raise } of diagnosticsErrors) {
      test(`${kind} arrives with uploaded debug ids, its throw resolving to ${file}`, async ({ page, ingest }) => {
        const reported = ingest.waitForError(
          (event) => thrownException(event) === message && !!event.request?.url?.startsWith(app.origin),
        );
        await raise(page);
        const event = await reported;
        const uploaded = uploads();
        expect(event.debug_meta?.images?.length).toBeGreaterThan(0);
        expect(debugIdsNotUploaded(event, uploaded)).toEqual([]);
        const resolved = resolvedThrow(event, uploaded);
        const { filename, lineno, colno } = thrownAt(event);
        test.info().annotations.push({
          type: 'top in-app frame',
          description: `${filename}:${lineno}:${colno} resolves to ${resolved.file}:${resolved.line}`,
        });
        expect(resolved).toEqual({ file, line: throwLine(file, message) });
      });
    }
  });
}
