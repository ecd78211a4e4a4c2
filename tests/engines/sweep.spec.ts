import { createRequire } from 'node:module';
import {
  axeProblem,
  axeRuleTags,
  consoleProblem,
  cspProblem,
  isRedirect,
  pageLabel,
  statusProblem,
  sweepFailure,
  sweepOfBuild,
  sweptApps,
  transactionProblem,
  transactionWithinMs,
  type AxeViolation,
} from '@web-foundation/testing/sweep';
import { fromSite, test } from '@web-foundation/testing/engines';

// Issue 35 in Firefox ESR and WebKitGTK: every page of the build (packages/testing/src/sweep.ts), loaded once through the
// test's own proxy and held to the same promises as in Chromium (tests/e2e/sweep.spec.ts). axe runs in the engine's
// default colour scheme only: the dark scheme's colours are CSS, which Chromium's sweep checks.

/** The axe-core @axe-core/playwright injects in Chromium, so that every engine is held to the same rules. */
const axeSource = (createRequire(require.resolve('@axe-core/playwright'))('axe-core') as { source: string }).source;

for (const app of sweptApps()) {
  const sweep = sweepOfBuild(app);
  test.describe(app.app, () => {
    test.use({ upstream: app.origin });

    for (const { route, message } of sweep.problems) {
      test(`sweep: ${route} cannot be swept`, () => {
        throw new Error(message);
      });
    }

    for (const swept of sweep.pages) {
      test(`sweep: ${pageLabel(swept)}`, async ({ tab, site, ingest }) => {
        const first = await fetch(`${app.origin}${swept.path}`, { redirect: 'manual' });
        await first.body?.cancel();
        if (isRedirect(swept, first.status)) {
          const failure = sweepFailure(swept, [statusProblem(swept, first.status)]);
          if (failure) throw new Error(failure);
          return;
        }
        // The transaction ends once the page has been idle for a second: its data and late scripts are in.
        const ours = fromSite(site);
        const pageload = ingest.waitForTransaction((t, item) => ours(t, item) && t.contexts?.trace?.op === 'pageload', {
          timeoutMs: transactionWithinMs,
        });
        await tab.goto(`${site.origin}${swept.path}`);
        const status = site.requests.find((r) => r.document && r.path === swept.path)?.status;
        const arrived = await pageload.then(
          (t) => t.transaction ?? '',
          () => undefined,
        );
        await tab.inject(axeSource);
        const violations = await tab.evaluate(
          async (tags, skipped) => {
            const { axe } = window as unknown as {
              axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
            };
            const results = await axe.run(document, {
              runOnly: { type: 'tag', values: tags },
              rules: Object.fromEntries(skipped.map((id) => [id, { enabled: false }])),
            });
            return results.violations.map(({ id, help, nodes }) => ({
              id,
              help,
              nodes: nodes.map((n) => ({ target: n.target })),
            }));
          },
          axeRuleTags,
          Object.keys(swept.axeRulesSkipped),
        );
        const failure = sweepFailure(swept, [
          statusProblem(swept, status),
          axeProblem([{ scheme: 'default', violations }]),
          cspProblem(site.cspViolations),
          consoleProblem(site.consoleErrors),
          transactionProblem(swept, arrived),
        ]);
        if (failure) throw new Error(failure);
      });
    }
  });
}
