import { expect, test } from '@playwright/test';

// Spec §2: after each navigation the announcer reads the title, else the first heading, else the path.
const announcer = '#__next-route-announcer__';

test('the announcer is silent on first load, then reads each navigation', async ({ page }) => {
  await page.goto('/examples');
  await expect(page.locator(announcer)).toHaveAttribute('aria-live', 'assertive');
  await expect(page.locator(announcer)).toHaveText('');

  await page.getByRole('link', { name: 'Route announcer: a page with a title' }).click();
  await expect(page.locator(announcer)).toHaveText('Announcer: titled page');

  await page.getByRole('link', { name: 'Back to the reference pages' }).click();
  await expect(page.locator(announcer)).toHaveText('Reference pages');

  await page.getByRole('link', { name: 'Route announcer: a page with a heading and no title' }).click();
  await expect(page).toHaveURL(/\/examples\/announcer\/heading$/);
  await expect(page.locator(announcer)).toHaveText('Announcer: first heading');

  await page.goBack();
  await page.getByRole('link', { name: 'Route announcer: a page with neither' }).click();
  await expect(page).toHaveURL(/\/examples\/announcer\/bare$/);
  await expect(page.locator(announcer)).toHaveText('/examples/announcer/bare');
});
