/**
 * The sandbox console as a tool (issue 31): balances come first, the objects sit in ARIA tabs the arrow
 * keys move through, money is right-aligned with grouped thousands and its currency, an object opens in
 * Try it on its read operation's page with its number filled in, and at 390 px the status shows in each
 * card with nothing scrolling sideways, axe-clean in both colour modes. One order made once serves all.
 */
import {expect, type Locator, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';
import {openTryIt, sendAndCheck} from '../support/tryIt';

async function openConsole(page: Page, query = ''): Promise<Locator> {
  await page.goto(`/docs/sandbox-console${query}`);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const widget = page.getByRole('region', {name: 'Sandbox console'});
  await expect(widget.getByRole('list', {name: 'Balances'})).toBeVisible({timeout: 15_000});
  return widget;
}

/** Makes one order with Try it and answers its number. */
async function oneOrder(page: Page): Promise<string> {
  const panel = await openTryIt(page, '/docs/createorder', 'Create order');
  await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
  const body = await panel.getByLabel('Response body').textContent();
  const orderNo = /"merchantOrderNo": "([^"]+)"/.exec(body ?? '')?.[1];
  expect(orderNo, 'the order number in the response').toBeTruthy();
  return orderNo ?? '';
}

test('console: balances first, tabs by keyboard, money aligned and grouped, an order opens in Try it prefilled', async ({
  clean: {page},
}) => {
  test.setTimeout(60_000);
  const orderNo = await oneOrder(page);
  const widget = await openConsole(page);

  // Balances before the tabs, in the first screen.
  const balances = widget.getByRole('list', {name: 'Balances'});
  const tablist = widget.getByRole('tablist');
  const [balancesBox, tabsBox] = [await balances.boundingBox(), await tablist.boundingBox()];
  expect(balancesBox && tabsBox && balancesBox.y < tabsBox.y, 'balances above the tabs').toBe(true);
  expect((balancesBox?.y ?? 1e9) < 800, 'balances in the first screen').toBe(true);
  // The opening balance has thousands: grouped, and the currency beside the figure.
  await expect(balances.getByRole('listitem').first()).toContainText(/\d{1,3},\d{3}\.\d{2} [A-Z]{3}/);

  // The tabs: five, Orders selected; arrow keys move focus along them and Enter shows one.
  const tabs = tablist.getByRole('tab');
  await expect(tabs).toHaveText([/^Orders \(1\)$/, /^Refunds \(0\)$/, /^Payouts \(\d+\)$/, /^Events \(\d+\)$/, /^Notifications \(\d+\)$/]);
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(tabs.nth(4)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(tabs.nth(4)).toHaveAttribute('aria-selected', 'true');
  await expect(widget.getByRole('tabpanel')).toContainText(/Notifications the sandbox sent/);
  await tabs.first().focus();
  await page.keyboard.press('Enter');
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');

  // Money: the amount cell right-aligned, grouped, with its currency; Status second.
  const orders = widget.getByRole('region', {name: 'Orders', exact: true});
  const row = orders.locator('tbody tr').first();
  await expect(row.locator('td').nth(0)).toHaveText(orderNo);
  await expect(row.locator('td').nth(1)).toHaveText('PENDING');
  const amount = row.locator('td').nth(2);
  await expect(amount).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2} [A-Z]{3}$/);
  expect(await amount.evaluate((cell) => getComputedStyle(cell).textAlign)).toBe('right');
  expect(
    await amount
      .locator('span')
      .first()
      .evaluate((span) => getComputedStyle(span).fontVariantNumeric),
  ).toBe('tabular-nums');

  // Open in Try it: the read operation's page, its panel open with the order number filled in.
  await row.getByRole('link', {name: `Retrieve order detail ${orderNo} in Try it`}).click();
  await expect(page).toHaveURL(new RegExp(`/docs/retrieveorderdetail\\?try-it&merchantOrderNo=${orderNo}$`));
  const panel = page.getByRole('region', {name: 'Try it'});
  await expect(panel.getByLabel(/^merchantOrderNo/)).toHaveValue(orderNo);
  await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
});

test('console at 390 px: status in every card, nothing scrolls sideways, axe clean in light and dark', async ({clean: {page}}) => {
  test.setTimeout(60_000);
  await oneOrder(page);
  await page.setViewportSize({width: 390, height: 844});
  for (const mode of ['light', 'dark'] as const) {
    const widget = await openConsole(page, `?docusaurus-theme=${mode}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
    const status = widget.getByRole('region', {name: 'Orders', exact: true}).locator('tbody tr td[data-label="Status"]').first();
    await expect(status).toBeVisible();
    const box = await status.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, 'status inside the screen').toBe(true);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    expect(
      await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude: ['nav', 'footer', '.theme-doc-toc-desktop']}),
      mode,
    ).toEqual([]);
  }
});
