import { expect, test } from '@web-foundation/testing';
import { catalogTitle, seedBooks } from './settings';

test('the catalog shows its title and the books in the database, read at build time', async ({ page }) => {
  const response = await page.goto('/catalog');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(catalogTitle);
  await expect(page.getByRole('listitem')).toHaveText(seedBooks.map((book) => book.title));
});

test('the start page links to the catalog', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'The catalog' }).click();
  await expect(page).toHaveURL(/\/catalog$/);
});
