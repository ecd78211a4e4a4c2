import type { Page } from '@playwright/test';
import { errorPageDescription } from '@web-foundation/testing/foundation';
import { axeRuleTags, axeRulesSkippedOn } from '@web-foundation/testing/sweep';
import { axeOn, expect, recordCspViolations, showMethodNotAllowedPage, test } from '@web-foundation/testing';
import { samplePaths } from './sample-paths';

// Issue 17: axe-core finds no violation, of any impact, on every reference page, every error page and /diagnostics,
// after a direct load and after a client-side navigation from the reference pages' index, in the light and the dark
// colour scheme. A product's pages need no line here: the sweep (tests/e2e/sweep.spec.ts) checks every page of the
// build.

// The rules (`axeRuleTags`: WCAG 2.0, 2.1 and 2.2, A and AA, and best practices) and the rules a page breaks on purpose
// are the page sweep's (packages/testing/src/sweep.ts, apps/reference/tests/sample-paths.ts), one place for both: the two announcer
// reference pages show the spec's fallbacks (§2), so they lack a title (`document-title`) and `bare` a heading
// (`page-has-heading-one`). Product screens have both.

/**
 * axe's violations on the page as it is now, in both colour schemes, one line each (rule, impact, elements).
 * axe is injected with `page.evaluate`, which the Content-Security-Policy does not govern: no relaxing needed.
 */
async function axeViolations(page: Page, path: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    const { violations } = await axeOn(page)
      .withTags(axeRuleTags)
      .disableRules(axeRulesSkippedOn(path, samplePaths))
      .analyze();
    for (const v of violations) {
      found.push(`${colorScheme}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
    }
  }
  return found;
}

/** Pages loaded by URL, with the status each answers. */
const directLoads: [path: string, status: number][] = [
  ['/', 200],
  ['/examples/42', 200],
  ['/examples/new', 200],
  ['/examples/generated', 200],
  ['/examples/on-demand/first-visit', 200],
  ['/examples/docs/guides/routing/intro', 200],
  ['/examples/announcer/titled', 200],
  ['/examples/announcer/heading', 200],
  ['/examples/announcer/bare', 200],
  ['/examples/same-route-twice', 200],
  ['/diagnostics', 200],
  // Error pages: the proxy's 400 for a malformed URL, the prerendered 404, a throwing render's 500, another status.
  ['/%', 400],
  ['/no/such/page', 404],
  ['/diagnostics/ssr-error', 500],
  ['/examples/unavailable', 503],
];

for (const [path, status] of directLoads) {
  test(`axe: no violation on ${path} (${status}) after a direct load`, async ({ page }) => {
    const csp = await recordCspViolations(page);
    const response = await page.goto(path);
    expect(response?.status()).toBe(status);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self';");
    await page.waitForLoadState('networkidle');
    // The fallback page of a path generated on first request: check the page once its data arrived.
    await expect(page.getByRole('status')).toHaveCount(0);
    expect(await axeViolations(page, path)).toEqual([]);
    expect(csp).toEqual([]);
    // One description, saying what the page is; the error pages share theirs.
    const description = page.locator('meta[name="description"]');
    await expect(description).toHaveCount(1);
    if (status === 200) {
      await expect(description).toHaveAttribute('content', /\w{4,}/);
      await expect(description).not.toHaveAttribute('content', errorPageDescription);
    } else {
      await expect(description).toHaveAttribute('content', errorPageDescription);
    }
  });
}

test('axe: no violation on the 405 page (a form posted to a page)', async ({ page }) => {
  const csp = await recordCspViolations(page);
  await showMethodNotAllowedPage(page);
  expect(await axeViolations(page, '/examples/new (405)')).toEqual([]);
  expect(csp).toEqual([]);
});

test('axe: no violation on the client-exception page', async ({ page }) => {
  const csp = await recordCspViolations(page);
  await page.goto('/diagnostics');
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Throw while rendering' }).click();
  await expect(page).toHaveTitle('Application error: a client-side exception has occurred');
  expect(await axeViolations(page, '/diagnostics (client exception)')).toEqual([]);
  expect(csp).toEqual([]);
});

/** The pages the reference pages' index links to: each is also checked after a client-side navigation from there. */
const linkedFromIndex = [
  '/examples/42',
  '/examples/new',
  '/examples/generated',
  '/examples/on-demand/first-visit',
  '/examples/docs/guides/routing/intro',
  '/examples/announcer/titled',
  '/examples/announcer/heading',
  '/examples/announcer/bare',
  '/examples/unavailable',
  '/examples/same-route-twice',
];

test("the reference pages' index links exactly the pages checked after a client-side navigation", async ({ page }) => {
  await page.goto('/examples');
  const hrefs = await page.locator('main a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(hrefs).toEqual(linkedFromIndex);
});

for (const href of linkedFromIndex) {
  test(`axe: no violation on ${href} after a client-side navigation from the index`, async ({ page }) => {
    const csp = await recordCspViolations(page);
    await page.goto('/examples');
    await page.waitForFunction(() => (window as unknown as { next?: { router?: object } }).next?.router);
    const indexDescription = await page.locator('meta[name="description"]').getAttribute('content');
    await page.locator(`main a[href="${href}"]`).click();
    await page.waitForURL((url) => url.pathname === href);
    // The index's list is gone and the new page's data has arrived.
    await expect(page.locator('main li a')).toHaveCount(0);
    await expect(page.getByRole('status')).toHaveCount(0);
    // The router replaced the index's description with the new page's own.
    await expect(page.locator('meta[name="description"]')).toHaveCount(1);
    await expect(page.locator('meta[name="description"]')).not.toHaveAttribute('content', indexDescription!);
    expect(await axeViolations(page, href)).toEqual([]);
    expect(csp).toEqual([]);
  });
}

test('motion: a transition or animation a screen adds is cut to a frame when reduced motion is asked for', async ({
  page,
}) => {
  await page.goto('/examples');
  // What a product screen's stylesheet might add; `style-src` allows it, and the global reduced-motion rule wins.
  await page.addStyleTag({ content: '.moving { transition: opacity 2s; animation: spin 3s infinite; }' });
  const durations = () =>
    page.evaluate(() => {
      const element = document.createElement('div');
      element.className = 'moving';
      document.body.append(element);
      const { transitionDuration, animationDuration } = getComputedStyle(element);
      element.remove();
      return { transitionDuration, animationDuration };
    });
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  expect(await durations()).toEqual({ transitionDuration: '2s', animationDuration: '3s' });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await durations()).toEqual({ transitionDuration: '1e-05s', animationDuration: '1e-05s' });
});
