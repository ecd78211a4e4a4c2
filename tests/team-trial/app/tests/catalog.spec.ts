import { expect, test } from '@web-foundation/testing';
import { catalogTitle, seedBooks } from './settings';

test('the catalog shows its title and the books in the database, read at build time', async ({ page }) => {
  const response = await page.goto('/catalog');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(catalogTitle);
  await expect(page.getByRole('listitem')).toContainText(seedBooks.map((book) => book.title));
});

test('a book added through our API route shows in the catalog at once: the route revalidated it', async ({
  page,
  request,
}) => {
  const title = `Book ${crypto.randomUUID()}`;
  const added = await request.post('/api/books', { data: { title } });
  expect(added.status()).toBe(201);
  expect((await added.json()) as unknown).toMatchObject({ title, revalidated: ['/catalog'] });
  await page.goto('/catalog');
  await expect(page.getByRole('listitem').filter({ hasText: title })).toHaveCount(1);
});

test('the start page links to the catalog', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'The catalog' }).click();
  await expect(page).toHaveURL(/\/catalog$/);
});
