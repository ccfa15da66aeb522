import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';

async function search(page: Page, query: string) {
  // The first search downloads the whole index; results can only come once it is here.
  const index = page.waitForResponse((response) => /\/search-index[^/]*\.json$/.test(new URL(response.url()).pathname));
  await page.keyboard.press('Control+k');
  const input = page.locator('input.navbar__search-input');
  await expect(input).toBeFocused();
  await input.fill(query);
  expect((await index).ok()).toBe(true);
  const options = page.getByRole('option');
  await expect(options.first().or(page.getByText('No results').first())).toBeVisible();
  return options;
}

test.describe('offline search', () => {
  test.beforeEach(async ({clean: {page}}) => {
    await page.goto('/docs/integration-guide');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  });

  test('Ctrl+K opens it, and "refund" lists the refund pages first, with page, section and highlights', async ({clean: {page}}) => {
    const options = await search(page, 'refund');
    await expect(options.first()).toContainText('Refund order');
    const firstFive = await options.evaluateAll((nodes) => nodes.slice(0, 5).map((node) => node.textContent ?? ''));
    expect(firstFive).toHaveLength(5);
    for (const text of firstFive) expect(text.toLowerCase()).toContain('refund');
    await expect(options.first().locator('mark').first()).toHaveText(/refund/i);
    await expect(options.nth(0)).toContainText('›');
    // The results' rules are not in the sheet every page loads first (plugins/performance/search-on-demand/resultStyles.ts):
    // the page names their sheet, which arrives with the search bar, and the dropdown is drawn with them.
    const html = await (await page.request.get('/docs/integration-guide')).text();
    const named = /data-search-results=["']?(\/assets\/css\/search-results\.[0-9a-f]{8}\.css)/.exec(html)?.[1];
    expect(named, 'the main sheet names the results sheet').toBeTruthy();
    expect(html).not.toMatch(/rel=["']?stylesheet["']? href=["']?\/assets\/css\/search-results/);
    await expect(page.locator(`link[rel="stylesheet"][href="${named}"]`)).toHaveCount(1);
    const menu = page.locator('[class*="dropdownMenu_"]');
    await expect(menu).toHaveCSS('border-radius', '6px');
    await expect(options.first()).toHaveCSS('height', '56px');
  });

  test('a request field name finds its API page', async ({clean: {page}}) => {
    const options = await search(page, 'payerPaymentCode');
    const onCreateOrder = options.filter({hasText: 'Create order'}).first();
    await expect(onCreateOrder).toBeVisible();
    await onCreateOrder.click();
    await expect(page).toHaveURL(/\/docs\/createorder/);
  });

  test('a search with no match says so', async ({clean: {page}}) => {
    await search(page, 'zzqxyw');
    await expect(page.getByText('No results').first()).toBeVisible();
  });
});
