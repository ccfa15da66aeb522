import {expect, test, type Page} from '@playwright/test';

/*
 * What the page leaves for later at start-up, and that it is there when the
 * reader needs it: the desktop-only sidebar and table of contents on a phone,
 * the mobile menu, code block buttons, route prefetching, and the start-up
 * bundle's build-time changes.
 */

const phone = {width: 412, height: 823};

async function hydrated(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
}

async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as Window & {samePage?: boolean}).samePage = true;
  });
}

async function isSamePage(page: Page) {
  return page.evaluate(() => (window as Window & {samePage?: boolean}).samePage === true);
}

test.describe('on a phone', () => {
  test.use({viewport: phone});

  test('the hidden desktop sidebar keeps its server markup, and it and the table of contents come alive in a desktop-wide window', async ({page}) => {
    await page.goto('/docs/integration-guide');
    await hydrated(page);
    const sidebar = page.locator('.theme-doc-sidebar-container');
    await expect(sidebar).toBeHidden();
    await expect(sidebar.locator('[data-static-markup] a.menu__link', {hasText: 'Test accounts'})).toHaveCount(1);

    await page.setViewportSize({width: 1280, height: 800});
    await expect(sidebar).toBeVisible();
    await markPage(page);
    await sidebar.getByRole('link', {name: 'Test accounts'}).click();
    await expect(page).toHaveURL(/\/docs\/general\/test-accounts$/);
    expect(await isSamePage(page), 'a live sidebar navigates without reloading the page').toBe(true);
    await expect(sidebar.locator('a[aria-current="page"]')).toHaveText('Test accounts');
    await expect(page.locator('nav[aria-label="On this page"] a.table-of-contents__link').first()).toBeVisible();
  });

  test('the mobile menu is rendered when the reader heads for its toggle, then opens with the sidebar', async ({page}) => {
    await page.goto('/docs/integration-guide');
    await hydrated(page);
    await expect(page.locator('.navbar-sidebar')).toHaveCount(0);
    const toggle = page.getByRole('button', {name: 'Toggle navigation bar'});
    await toggle.hover();
    await expect(page.locator('.navbar-sidebar')).toHaveCount(1);
    await toggle.click();
    const link = page.locator('.navbar-sidebar').getByRole('link', {name: 'Test accounts'});
    await expect(link).toBeVisible();
    await markPage(page);
    await link.click();
    await expect(page).toHaveURL(/\/docs\/general\/test-accounts$/);
    expect(await isSamePage(page)).toBe(true);
  });

  test('the menu also opens from the keyboard', async ({page}) => {
    await page.goto('/docs/integration-guide');
    await hydrated(page);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.navbar-sidebar').getByRole('link', {name: 'Test accounts'})).toBeVisible();
  });
});

test('code block buttons arrive with their block, and copy', async ({page, context}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/docs/createorder');
  await hydrated(page);
  const blocks = page.locator('article .theme-code-block');
  const last = blocks.last();
  const copy = last.getByRole('button', {name: 'Copy code to clipboard'});
  await expect(copy, 'a block far below the fold has no buttons yet').toHaveCount(0);
  await last.scrollIntoViewIfNeeded();
  await expect(copy).toHaveCount(1);
  await copy.click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const shown = await last.locator('pre code').evaluate((code) => [...code.querySelectorAll('.token-line')].map((line) => line.textContent).join('\n'));
  expect(copied.trim()).toBe(shown.trim());
});

test('links in view are still prefetched, once the page is idle', async ({page}) => {
  await page.goto('/docs/integration-guide');
  await hydrated(page);
  await expect.poll(() => page.locator('link[rel="prefetch"]').count(), {timeout: 10_000}).toBeGreaterThan(0);
});

test('the start-up bundle asks for eager compilation and finds the docs instance without localeCompare', async ({page, request}) => {
  const html = await (await request.get('/docs/integration-guide')).text();
  const main = /\/assets\/js\/main\.\w+\.js/.exec(html)?.[0] ?? '';
  expect(main).not.toBe('');
  const source = await (await request.get(main)).text();
  expect(source.startsWith('//# allFunctionsCalledOnLoad\n')).toBe(true);
  expect(source).toContain('No docs plugin instance serves');
  // The replacement serves the docs client: the page still knows its docs instance (the search bar and breadcrumbs use it).
  await page.goto('/demos/dynqr');
  await hydrated(page);
  await expect(page.locator('.theme-doc-sidebar-container a[aria-current="page"]')).toHaveText('Dynamic QR');
});
