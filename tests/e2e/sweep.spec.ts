import type { Page, Response } from '@playwright/test';
import { ingestOrigin } from '@web-foundation/testing/env';
import {
  axeColourRules,
  axeProblem,
  axeRuleTags,
  consoleProblem,
  cspProblem,
  isRedirect,
  pageLabel,
  pageLoadInEnvelope,
  statusProblem,
  sweepFailure,
  sweepOfBuild,
  sweptApps,
  transactionProblem,
  transactionWithinMs,
  type SweptPage,
} from '@web-foundation/testing/sweep';
import { axeOn, recordCspViolations, test } from '@web-foundation/testing';

// Issue 35: every page of the build, found in its manifests (packages/testing/src/sweep.ts), loaded once in Chromium and held
// to the foundation's promises: no 5xx, no axe violation in either colour scheme, no CSP violation, no console error,
// and its page-load transaction at the ingest under its route's name. A new page is swept without a test of its own.

/** The status of the first answer to the page's URL, before any redirect was followed. */
async function firstStatus(response: Response | null): Promise<number | undefined> {
  let request = response?.request();
  while (request?.redirectedFrom()) request = request.redirectedFrom()!;
  return (await request?.response())?.status();
}

/**
 * axe with every rule in the light colour scheme, then the rules that read colours in the dark one, with the
 * Content-Security-Policy on (AxeBuilder injects axe through the DevTools protocol, which the policy does not govern).
 */
async function axeInBothSchemes(page: Page, swept: SweptPage) {
  const skipped = Object.keys(swept.axeRulesSkipped);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await axeOn(page).withTags(axeRuleTags).disableRules(skipped).analyze();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await axeOn(page).withRules(axeColourRules).disableRules(skipped).analyze();
  return axeProblem([
    { scheme: 'light', violations: light.violations },
    { scheme: 'dark', rules: axeColourRules, violations: dark.violations },
  ]);
}

for (const app of sweptApps()) {
  const sweep = sweepOfBuild(app);
  test.describe(app.app, () => {
    test.use({ baseURL: app.origin });

    for (const { route, message } of sweep.problems) {
      test(`sweep: ${route} cannot be swept`, () => {
        throw new Error(message);
      });
    }

    for (const swept of sweep.pages) {
      test(`sweep: ${pageLabel(swept)}`, async ({ page, request, ingest }) => {
        const first = await request.get(swept.path, { maxRedirects: 0 });
        if (isRedirect(swept, first.status())) {
          const failure = sweepFailure(swept, [statusProblem(swept, first.status())]);
          if (failure) throw new Error(failure);
          return;
        }
        const csp = await recordCspViolations(page);
        const cspConsole: string[] = [];
        const consoleErrors: string[] = [];
        page.on('console', (message) => {
          const text = message.text();
          // The browser's own line for a document answered with the error status the page shows on purpose.
          const ownStatus = `the server responded with a status of ${swept.status}`;
          if (text.includes('Content Security Policy')) cspConsole.push(text);
          else if (message.type() === 'error' && !(swept.status && text.includes(ownStatus))) consoleErrors.push(text);
        });
        page.on('pageerror', (error) => consoleErrors.push(`uncaught ${error.name}: ${error.message}`));
        // The transaction this page's browser sent, found by its trace among everything every test's browsers send.
        const sent = page
          .waitForRequest(
            (r) => r.url().startsWith(ingestOrigin) && pageLoadInEnvelope(r.postData() ?? '') !== undefined,
            {
              timeout: transactionWithinMs,
            },
          )
          .then(
            (r) => pageLoadInEnvelope(r.postData() ?? ''),
            () => undefined,
          );

        const status = await firstStatus(await page.goto(swept.path));
        const pageLoad = await sent;
        // Its trace id, made by the server or the browser as the page loads, is the only key that tells this page load from
        // other tests' loads of the same route: the wait looks back to the test's start.
        const arrived =
          pageLoad &&
          (await ingest
            .waitForTransaction(
              (t) => t.contexts?.trace?.op === 'pageload' && t.contexts.trace.trace_id === pageLoad.traceId,
              { from: 'test start', timeoutMs: 5_000 },
            )
            .then(
              (t) => t.transaction ?? '',
              () => undefined,
            ));
        // The transaction ends once the page has been idle for a second: its data and late scripts are in.
        const failure = sweepFailure(swept, [
          statusProblem(swept, status),
          await axeInBothSchemes(page, swept),
          cspProblem(csp, cspConsole),
          consoleProblem(consoleErrors),
          transactionProblem(swept, arrived),
        ]);
        if (failure) throw new Error(failure);
      });
    }
  });
}
