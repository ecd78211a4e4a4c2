import {
  browserTransaction,
  byText,
  expect,
  hydrated,
  pageTexts,
  provokesCspViolations,
  test,
  type EngineTab,
} from '@web-foundation/testing/engines';

// Issue 30: what every user's engine must do alike on the app's pages, in Firefox ESR and WebKitGTK: tracing, the
// announcer, the error pages' texts, keyboard focus after a navigation, and no CSP violation on any page.

const announcerText = () => document.querySelector('#__next-route-announcer__')?.textContent;

/** Clicks the link to `href` and waits until the page at `href` has rendered in place of the old one. */
async function follow(tab: EngineTab, href: string) {
  await tab.click(`a[href="${href}"]`);
  await tab.waitFor((path) => location.pathname === path && !document.querySelector('main li a'), [href]);
}

test('the page load and a client-side navigation are traced from this engine, each under its route', async ({
  tab,
  site,
  ingest,
}) => {
  const pageload = ingest.waitForTransaction(browserTransaction(site, 'pageload', '/examples'));
  await tab.goto(`${site.origin}/examples`);
  await pageload;
  await tab.waitFor(hydrated, []);
  const navigated = ingest.waitForTransaction(browserTransaction(site, 'navigation', '/examples/[id]'));
  await tab.click('main a[href="/examples/42"]');
  await tab.waitFor(() => document.querySelector('[data-testid="segment"]')?.textContent === '42', []);
  const navigation = await navigated;
  expect(navigation.contexts?.trace?.trace_id).toMatch(/^[0-9a-f]{32}$/);
  // Client-side: the one document request was the index's.
  expect(site.documents()).toEqual(['/examples']);
});

test('the announcer is silent on first load, then reads each navigation: title, else heading, else path', async ({
  tab,
  site,
}) => {
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  // Next renders the announcer into a portal after hydration.
  await tab.waitFor(() => document.querySelector('#__next-route-announcer__')?.getAttribute('aria-live'), [], {
    what: 'the announcer',
  });
  expect(await tab.evaluate(() => document.querySelector('#__next-route-announcer__')?.getAttribute('aria-live'))).toBe(
    'assertive',
  );
  expect(await tab.evaluate(announcerText)).toBe('');

  await tab.click('a[href="/examples/announcer/titled"]');
  await tab.waitFor(
    (text) => document.querySelector('#__next-route-announcer__')?.textContent === text,
    ['Announcer: titled page'],
  );
  await tab.click('a[href="/examples"]');
  await tab.waitFor(() => document.querySelector('#__next-route-announcer__')?.textContent === 'Reference pages', []);
  await tab.click('a[href="/examples/announcer/heading"]');
  await tab.waitFor(
    () => document.querySelector('#__next-route-announcer__')?.textContent === 'Announcer: first heading',
    [],
  );
  await tab.evaluate(() => history.back());
  await tab.waitFor(() => Boolean(document.querySelector('main li a[href="/examples/announcer/bare"]')), []);
  await tab.click('a[href="/examples/announcer/bare"]');
  await tab.waitFor(
    () => document.querySelector('#__next-route-announcer__')?.textContent === '/examples/announcer/bare',
    [],
  );
  expect(site.documents()).toEqual(['/examples']);
});

test('the error pages show the spec’s texts, rendered in this engine', async ({ tab, site }) => {
  for (const [path, title, heading] of [
    ['/no/such/page', '404: This page could not be found', '404'],
    ['/%', '400: Bad Request', '400'],
    ['/diagnostics/ssr-error', '500: Internal Server Error', '500'],
    ['/examples/unavailable', '503: An unexpected error has occurred', '503'],
  ] as const) {
    await tab.goto(`${site.origin}${path}`);
    await tab.waitFor(hydrated, [], { what: `${path} to hydrate` });
    expect(await pageTexts(tab), path).toMatchObject({ title, heading });
  }

  // The 405 page, reached the way a browser can: a form posted to a page.
  await tab.goto(`${site.origin}/examples/new`);
  await tab.evaluate(() => {
    const form = document.createElement('form');
    form.method = 'post';
    form.action = '/examples/new';
    document.body.append(form);
    form.submit();
  });
  await tab.waitFor(() => document.title === '405: Method Not Allowed', []);
  expect(await pageTexts(tab)).toMatchObject({ heading: '405' });

  // The client-exception page, rendered in the browser after hydration: no status, the text is the heading.
  await tab.goto(`${site.origin}/diagnostics`);
  await tab.waitFor(hydrated, []);
  await tab.click(await byText(tab, 'button', 'Throw while rendering'));
  const clientException = 'Application error: a client-side exception has occurred';
  await tab.waitFor((text) => document.title === text, [clientException]);
  expect(await pageTexts(tab)).toMatchObject({ heading: clientException });
  expect(await tab.evaluate(() => location.pathname)).toBe('/diagnostics');
});

/** The focused element: its tag, text and link target. */
const focused = (tab: EngineTab) =>
  tab.evaluate(() => {
    const element = document.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? null,
      text: (element?.textContent ?? '').trim(),
      href: element?.getAttribute('href') ?? null,
    };
  });

test('Tab reaches every link of the reference index in order; Enter follows one; focus lands on the new page’s heading', async ({
  tab,
  site,
}) => {
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  const hrefs = await tab.evaluate(() =>
    [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]:not([tabindex="-1"])')].map(
      (e) => e.getAttribute('href'),
    ),
  );
  expect(hrefs.length).toBeGreaterThan(5);
  for (const href of hrefs) {
    await tab.press('Tab');
    expect((await focused(tab)).href).toBe(href);
  }
  for (const href of hrefs.slice(0, -1).reverse()) {
    await tab.press('Shift+Tab');
    expect((await focused(tab)).href).toBe(href);
  }
  await tab.press('Enter');
  await tab.waitFor((path) => location.pathname === path && !document.querySelector('main li a'), [hrefs[0]]);
  // The link that was followed left with the old page: focus is on the new page's main heading, not the body.
  await tab.waitFor(() => document.activeElement === document.querySelector('main h1'), [], {
    what: 'focus on the main heading',
  });
  await tab.press('Tab');
  expect((await focused(tab)).text).toBe('Back to the reference pages');
  expect(site.documents()).toEqual(['/examples']);
});

test('after a client-side navigation to a page without a heading, focus is at the top of the main content', async ({
  tab,
  site,
}) => {
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  await tab.evaluate(() => document.querySelector<HTMLElement>('a[href="/examples/announcer/bare"]')?.focus());
  await tab.press('Enter');
  await tab.waitFor(() => location.pathname === '/examples/announcer/bare' && !document.querySelector('main li a'), []);
  await tab.waitFor(() => document.activeElement === document.querySelector('main'), [], { what: 'focus on main' });
  await tab.press('Tab');
  expect((await focused(tab)).text).toBe('Back to the reference pages');
});

test('no page causes a CSP violation: every reference page loaded, and reached client-side', async ({ tab, site }) => {
  test.setTimeout(60_000);
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  const hrefs = await tab.evaluate(() =>
    [...document.querySelectorAll('main li a')].map((a) => a.getAttribute('href')!),
  );
  expect(hrefs.length).toBeGreaterThan(5);
  for (const href of hrefs) {
    await tab.goto(`${site.origin}/examples`);
    await tab.waitFor(hydrated, []);
    await follow(tab, href);
    await tab.goto(`${site.origin}${href}`);
    await tab.waitFor(hydrated, [], { what: `${href} to hydrate` });
  }
  for (const path of ['/diagnostics', '/no/such/page', '/diagnostics/ssr-error']) {
    await tab.goto(`${site.origin}${path}`);
    await tab.waitFor(hydrated, []);
  }
  expect(site.cspViolations).toEqual([]);
});

test('the CSP is enforced, and its violations are seen: an injected script, eval and a blob worker are refused', async ({
  tab,
  site,
}) => {
  test.info().annotations.push({ type: provokesCspViolations });
  await tab.goto(`${site.origin}/examples`);
  await tab.waitFor(hydrated, []);
  const ran = await tab.evaluate(async () => {
    const results: Record<string, boolean> = {};
    const script = document.createElement('script');
    script.textContent = 'window.__inlineRan = true';
    document.body.append(script);
    results.inline = Boolean((window as unknown as { __inlineRan?: boolean }).__inlineRan);
    try {
      results.eval = (0, eval)('true') === true;
    } catch {
      results.eval = false;
    }
    results.blobWorker = await new Promise<boolean>((resolve) => {
      try {
        const source = URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' }));
        const worker = new Worker(source);
        worker.onmessage = () => resolve(true);
        worker.onerror = () => resolve(false);
        setTimeout(() => resolve(false), 2000);
      } catch {
        resolve(false);
      }
    });
    return results;
  });
  expect(ran).toEqual({ inline: false, eval: false, blobWorker: false });
  await expect
    .poll(() => site.cspViolations.map((v) => v.split(' ')[0]).sort())
    .toEqual(expect.arrayContaining(['script-src-elem', 'worker-src']));
});
