import type { Page } from '@playwright/test';
import { appOrigin, sentryUploadsDir } from '@web-foundation/testing/env';
import { thrownException } from '@web-foundation/testing/ingest';
import {
  debugIdsNotUploaded,
  readUploads,
  resolvedThrow,
  thrownAt,
  throwLine,
} from '@web-foundation/testing/uploaded-maps';
import { expect, test } from '@web-foundation/testing';

// Issue 53: an error in the app's own files resolves to its line through the maps its build uploaded, as the
// foundation's do (tests/e2e/source-maps.spec.ts): the page and API route of src/pages/examples/fails.tsx and
// src/pages/api/examples/fails.ts throw on request.

const page = 'apps/reference/src/pages/examples/fails.tsx';
const apiRoute = 'apps/reference/src/pages/api/examples/fails.ts';

const ownErrors: { kind: string; file: string; message: string; raise: (page: Page) => Promise<unknown> }[] = [
  {
    kind: "the app's API route",
    file: apiRoute,
    message: "Reference: an exception thrown in the app's API route",
    raise: (page) => page.request.get('/api/examples/fails?fail'),
  },
  {
    kind: "the app's getServerSideProps",
    file: page,
    message: "Reference: an exception thrown in the app's getServerSideProps",
    raise: (page) => page.request.get('/examples/fails?fail=server'),
  },
  {
    kind: "the app's event handler, in the browser",
    file: page,
    message: "Reference: an exception thrown in the app's event handler",
    raise: async (page) => {
      await page.goto('/examples/fails');
      await page.getByRole('button', { name: 'Throw in the browser' }).click();
    },
  },
];

test('without its parameter, the failing page and API route answer 200', async ({ request }) => {
  expect((await request.get('/examples/fails')).status()).toBe(200);
  expect((await request.get('/api/examples/fails')).status()).toBe(200);
});

for (const { kind, file, message, raise } of ownErrors) {
  test(`an error thrown in ${kind} resolves to its throw in ${file}`, async ({ page, ingest }) => {
    const reported = ingest.waitForError(
      (event) => thrownException(event) === message && !!event.request?.url?.startsWith(appOrigin),
    );
    await raise(page);
    const event = await reported;
    const uploads = readUploads(sentryUploadsDir());
    expect(debugIdsNotUploaded(event, uploads)).toEqual([]);
    const resolved = resolvedThrow(event, uploads);
    const { filename, lineno, colno } = thrownAt(event);
    test.info().annotations.push({
      type: 'top in-app frame',
      description: `${filename}:${lineno}:${colno} resolves to ${resolved.file}:${resolved.line}`,
    });
    expect(resolved).toEqual({ file, line: throwLine(file, message) });
  });
}
