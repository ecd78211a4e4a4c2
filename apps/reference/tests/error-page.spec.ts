import { expect, test, type APIResponse } from '@playwright/test';

// Spec §2: the built-in error page shows the status code and a text chosen by status.

async function expectErrorPage(response: APIResponse, status: number, text: string) {
  expect(response.status()).toBe(status);
  expect(response.headers()['content-type']).toContain('text/html');
  const html = await response.text();
  expect(html).toContain(`<title data-next-head="">${status}: ${text}</title>`);
  expect(html).toMatch(new RegExp(`<h1[^>]*>${status}</h1>`));
  expect(html).toContain(`<p>${text}</p>`);
}

test('an unknown path answers 404 "This page could not be found"', async ({ request }) => {
  await expectErrorPage(await request.get('/no/such/page'), 404, 'This page could not be found');
});

test('a path that only starts with the letters "api" is a page 404, not an API route', async ({ request }) => {
  for (const path of ['/apiary', '/api-docs']) {
    await expectErrorPage(await request.get(path), 404, 'This page could not be found');
  }
});

test('a non-GET method on a page answers 405 "Method Not Allowed" with Allow', async ({ request }) => {
  for (const [method, path] of [
    ['POST', '/'],
    ['PUT', '/examples/new'],
    ['DELETE', '/examples/42'],
    ['PATCH', '/examples/docs/a'],
  ] as const) {
    const response = await request.fetch(path, { method });
    await expectErrorPage(response, 405, 'Method Not Allowed');
    expect(response.headers()['allow']).toBe('GET, HEAD');
  }
});

test('OPTIONS on a page lists the methods it answers', async ({ request }) => {
  const response = await request.fetch('/', { method: 'OPTIONS' });
  expect(response.status()).toBe(204);
  expect(response.headers()['allow']).toBe('GET, HEAD');
});

test('a malformed URL answers 400 "Bad Request"', async ({ request }) => {
  for (const path of ['/%', '/a%ZZb', '/examples/%zz', '/examples/docs/%E0%A4%A']) {
    await expectErrorPage(await request.get(path), 400, 'Bad Request');
  }
});

test('a server render that throws answers 500 "Internal Server Error"', async ({ request }) => {
  await expectErrorPage(await request.get('/diagnostics/ssr-error'), 500, 'Internal Server Error');
});

test('any other status shows "An unexpected error has occurred"', async ({ request }) => {
  await expectErrorPage(await request.get('/examples/unavailable'), 503, 'An unexpected error has occurred');
});

test('the internal status page is not reachable directly', async ({ request }) => {
  await expectErrorPage(await request.get('/_status/405'), 404, 'This page could not be found');
});

test('a client-side exception after hydration shows the client-exception text', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
  await page.goto('/diagnostics');
  await page.getByRole('button', { name: 'Throw while rendering' }).click();
  // No status to show: the text is the page's one heading (issue 17: every page has a level-one heading).
  await expect(page.getByTestId('error-page').getByRole('heading', { level: 1 })).toHaveText(
    'Application error: a client-side exception has occurred',
  );
  await expect(page).toHaveTitle('Application error: a client-side exception has occurred');
  await expect(page.getByTestId('error-page').getByText(/^\d{3}$/)).toHaveCount(0);
  expect(errors.join('\n')).toContain('an exception thrown while rendering in the browser');
  expect(page.url()).toMatch(/\/diagnostics$/);
});

test('an error page renders in the browser too', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle('404: This page could not be found');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('404');
});
