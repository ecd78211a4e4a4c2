import type { Page } from '@playwright/test';
import { expect, test } from '@web-foundation/testing';

// Issue 17: every link is reached with Tab in reading order and followed with Enter; focus is always visible; after a
// client-side navigation focus is on the new page's main heading, not on the link that left with the old page.

/** What the focused element is and how its focus indicator looks. */
function focused(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return { tag: 'body', text: '', href: null, outline: 0, contrast: 0 };
    const style = getComputedStyle(element);
    /** WCAG's relative luminance of an `rgb()`/`rgba()` colour. */
    const luminance = (color: string) => {
      const [r, g, b] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((c) => {
        const s = Number(c) / 255;
        return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    // The outline is drawn on the page's background, which the body sets.
    const background = getComputedStyle(document.body).backgroundColor;
    const [light, dark] = [luminance(style.outlineColor), luminance(background)].sort((a, b) => b - a);
    return {
      tag: element.tagName.toLowerCase(),
      text: (element.textContent ?? '').trim(),
      href: element.getAttribute('href'),
      outline: style.outlineStyle === 'none' ? 0 : parseFloat(style.outlineWidth),
      contrast: (light! + 0.05) / (dark! + 0.05),
    };
  });
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`Tab reaches every link of the reference index in order; Enter follows one; focus lands on the heading (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/examples');
    await page.waitForFunction(() => (window as unknown as { next?: { router?: object } }).next?.router);
    const hrefs = await page
      .locator('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')
      .evaluateAll((elements) => elements.map((e) => e.getAttribute('href')));
    expect(hrefs.length).toBeGreaterThan(5);

    // Tab visits each focusable element in document order, each with a visible, contrasting focus indicator.
    for (const href of hrefs) {
      await page.keyboard.press('Tab');
      const now = await focused(page);
      expect(now.href).toBe(href);
      expect(now.outline, href ?? '').toBeGreaterThanOrEqual(2);
      expect(now.contrast, href ?? '').toBeGreaterThanOrEqual(3);
    }

    // Shift+Tab walks back in reverse order to the first link, which Enter follows.
    for (const href of hrefs.slice(0, -1).reverse()) {
      await page.keyboard.press('Shift+Tab');
      expect((await focused(page)).href).toBe(href);
    }
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === hrefs[0]);
    await expect(page.locator('main li a')).toHaveCount(0);

    // Focus is on the new page's main heading, visibly; the link that was followed is gone with the old page.
    await expect(page.locator('main h1')).toBeFocused();
    const heading = await focused(page);
    expect(heading.tag).toBe('h1');
    expect(heading.outline).toBeGreaterThanOrEqual(2);
    expect(heading.contrast).toBeGreaterThanOrEqual(3);

    // The next Tab goes on from the heading, to the new page's first link.
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Back to the reference pages');
  });
}

test('after a client-side navigation to a page without a heading, focus is at the top of the main content', async ({
  page,
}) => {
  await page.goto('/examples');
  await page.waitForFunction(() => (window as unknown as { next?: { router?: object } }).next?.router);
  await page.getByRole('link', { name: 'Route announcer: a page with neither' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/examples\/announcer\/bare$/);
  await expect(page.locator('main')).toBeFocused();
  await page.keyboard.press('Tab');
  expect((await focused(page)).text).toBe('Back to the reference pages');
});
