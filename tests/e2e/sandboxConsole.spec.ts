/**
 * The sandbox console, in one journey: an order made, paid and refunded with Try it shows up on the
 * console with its refund, ledger entries and balances, and its notifications arrive and verify; the
 * clock moves; the state is exported, reset and imported back, and a bad file is refused next to the
 * control; the controls work from the keyboard; axe is clean in light and dark mode at 360 px with no
 * sideways scrolling.
 */
import {readFileSync} from 'node:fs';
import {expect, type Locator, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';
import {openTryIt, sendAndCheck} from '../support/tryIt';
import {consoleErrors} from '../support/pageWatch';

async function openConsole(page: Page, query = ''): Promise<Locator> {
  await page.goto(`/docs/sandbox-console${query}`);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const widget = page.getByRole('region', {name: 'Sandbox console'});
  await expect(widget).toBeVisible();
  return widget;
}

/** Shows one of the console's tabs (Orders is shown first); the others are not rendered until chosen. */
async function showTab(widget: Locator, name: 'Orders' | 'Refunds' | 'Payouts' | 'Events' | 'Notifications'): Promise<void> {
  const tab = widget.getByRole('tab', {name: new RegExp(`^${name} \\(\\d+\\)$`)});
  await tab.click();
  await expect(tab).toHaveAttribute('aria-selected', 'true');
}

async function noSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
}

test('sandbox console: a Try it journey shows up, notifications verify, the clock moves, export, reset and import round-trip', async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const errors = consoleErrors(page);

  // The journey in Try it: create, pay as the shopper, retrieve, refund.
  const panel = await openTryIt(page, '/docs/createorder', 'Create order');
  await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
  await panel.getByRole('button', {name: 'Pay as the shopper'}).click();
  await expect(panel.getByText('The shopper paid with test card')).toBeVisible();
  await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
  await panel.getByRole('button', {name: 'Refund order'}).click();
  await sendAndCheck(panel, /^HTTP 200 SUCCESS/);

  const widget = await openConsole(page);
  const orders = widget.getByRole('region', {name: 'Orders', exact: true});
  const refunds = widget.getByRole('region', {name: 'Refunds', exact: true});
  const ledger = widget.getByRole('region', {name: 'Ledger entries'});
  const balances = widget.getByRole('list', {name: 'Balances'});
  const inbox = widget.getByRole('list', {name: 'Notifications'});
  const status = widget.getByRole('status');
  await expect(orders.locator('tbody tr')).toHaveCount(1);
  await expect(orders.locator('tbody tr td').nth(1)).toHaveText(/^(PAID|PARTIALLY_REFUNDED|REFUNDED)$/);
  await expect(orders.locator('tbody tr td').nth(2)).toHaveText(/^\d{1,3}(,\d{3})*\.\d{2} [A-Z]{3}$/);
  // At 1280 px the orders table, "Open in Try it" included, fits the console's width (timestamps wrap at their T).
  expect(await orders.evaluate((element) => element.scrollWidth - element.clientWidth), 'orders table overflow').toBeLessThanOrEqual(0);
  await showTab(widget, 'Refunds');
  await expect(refunds.locator('tbody tr')).toHaveCount(1);
  await expect(ledger.locator('tbody tr').filter({hasNotText: 'opening balance'}).first()).toBeVisible();
  // Every ledger cell sits under a column heading, and the movement's description under "What".
  expect(await ledger.locator('tbody tr').first().locator('td').count()).toBe(await ledger.locator('thead th').count());
  await expect(ledger.locator('tbody tr').filter({hasText: 'opening balance'}).first().locator('td[data-label="What"]')).toContainText(
    'opening balance',
  );
  await showTab(widget, 'Notifications');
  const paid = inbox.getByRole('listitem').filter({hasText: 'ORDER.PAID'});
  await expect(paid).toHaveCount(1);
  await expect(paid.getByRole('list')).toContainText('signature verifies with the provider test key');
  await expect(paid.getByRole('list')).toContainText('timestamp within 5 minutes of receipt');
  await expect(paid.getByRole('list')).toContainText('client ID sandbox-merchant-0001 matches');
  await expect(paid.getByRole('list')).toContainText('body matches the contract');

  // The clock: an hour on completes the refund, which is notified and verifies.
  const sandboxTime = widget.getByText(/^Sandbox time:/);
  const before = await sandboxTime.locator('strong').textContent();
  await widget.getByRole('button', {name: 'Advance 1 hour'}).click();
  await expect(status).toContainText(/Advanced the clock by 1 hour: \d+ jobs? ran/);
  await expect(sandboxTime.locator('strong')).not.toHaveText(before ?? '');
  await showTab(widget, 'Refunds');
  await expect(refunds.locator('tbody tr td').nth(1)).toHaveText('SUCCEEDED');
  await showTab(widget, 'Orders');
  await expect(orders.locator('tbody tr td').nth(1)).toHaveText(/^(PARTIALLY_REFUNDED|REFUNDED)$/);
  await showTab(widget, 'Notifications');
  const refunded = inbox.getByRole('listitem').filter({hasText: /REFUND\.SUCCEEDED/});
  await expect(refunded).toHaveCount(1);
  await expect(refunded.getByRole('list')).toContainText('signature verifies with the provider test key');
  const seconds = widget.getByLabel('Seconds to advance');
  await seconds.fill('soon');
  await seconds.press('Enter');
  await expect(seconds).toHaveAttribute('aria-invalid', 'true');
  await expect(widget.locator(`#${await seconds.getAttribute('aria-describedby')}`)).toContainText('whole number of seconds');
  await seconds.fill('90');
  await seconds.press('Enter');
  await expect(status).toContainText('Advanced the clock by 90 seconds');

  // Export, reset (everything empty), import (everything back).
  const balancesBefore = await balances.textContent();
  const [download] = await Promise.all([page.waitForEvent('download'), widget.getByRole('button', {name: 'Export'}).click()]);
  expect(download.suggestedFilename()).toMatch(/^veloxa-sandbox-\d{4}-\d{2}-\d{2}\.json$/);
  const exported = testInfo.outputPath('state.json');
  await download.saveAs(exported);
  const state = JSON.parse(readFileSync(exported, 'utf8')) as {format: string; records: unknown[]; inbox: unknown[]};
  expect(state.format).toBe('veloxa-sandbox-state');
  expect(state.inbox.length).toBeGreaterThanOrEqual(2);

  // Keyboard: Reset… opens its confirmation with Space, Cancel (Enter) goes back to Reset…; then confirm.
  const resetButton = widget.getByRole('button', {name: 'Reset…'});
  await resetButton.focus();
  await page.keyboard.press('Space');
  const confirm = widget.getByRole('button', {name: 'Yes, reset the sandbox'});
  await expect(confirm).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('button', {name: 'Cancel'})).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(resetButton).toBeFocused();
  await page.keyboard.press('Enter');
  await confirm.click();
  await expect(status).toContainText('The sandbox was reset');
  await expect(widget.getByText('No notifications yet.')).toBeVisible();
  await showTab(widget, 'Refunds');
  await expect(widget.getByText('No refunds yet.')).toBeVisible();
  await showTab(widget, 'Orders');
  await expect(widget.getByText('No orders yet.')).toBeVisible();
  await expect(widget.getByRole('link', {name: 'Create order'})).toHaveAttribute('href', '/docs/createorder');
  await expect(ledger.locator('tbody tr').filter({hasNotText: 'opening balance'})).toHaveCount(0);
  expect(await balances.textContent(), 'the balances went back to the opening ones').not.toBe(balancesBefore);

  const importInput = widget.getByLabel('Import a state file');
  await importInput.setInputFiles(exported);
  await expect(status).toContainText('Imported state.json');
  await expect(orders.locator('tbody tr')).toHaveCount(1);
  await showTab(widget, 'Refunds');
  await expect(refunds.locator('tbody tr td').nth(1)).toHaveText('SUCCEEDED');
  await showTab(widget, 'Notifications');
  await expect(inbox.getByRole('listitem').filter({hasText: 'ORDER.PAID'})).toHaveCount(1);
  await expect(balances).toHaveText(balancesBefore ?? '');

  // A bad file: a clear message next to the control, and nothing changes.
  await importInput.setInputFiles({
    name: 'notes.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{"format": "zip", "records": []}'),
  });
  await expect(importInput).toHaveAttribute('aria-invalid', 'true');
  await expect(widget.locator(`#${await importInput.getAttribute('aria-describedby')}`)).toHaveText(
    'notes.json was not imported: The file is not a sandbox state export: its format is "zip", not "veloxa-sandbox-state". Nothing was changed.',
  );
  await showTab(widget, 'Orders');
  await expect(orders.locator('tbody tr')).toHaveCount(1);

  // Keyboard: Tab from the merchant selector reaches Refresh, and Enter runs it.
  await widget.getByLabel('Merchant').focus();
  await page.keyboard.press('Tab');
  await expect(widget.getByRole('button', {name: 'Refresh'})).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(status).toHaveText('Refreshed.');

  // A phone, light and dark: axe clean and nothing scrolls sideways, with every section filled.
  await page.setViewportSize({width: 360, height: 800});
  for (const mode of ['light', 'dark'] as const) {
    const shown = await openConsole(page, `?docusaurus-theme=${mode}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
    // A full page load finds the imported state and inbox in IndexedDB.
    await expect(shown.getByRole('region', {name: 'Orders', exact: true}).locator('tbody tr')).toHaveCount(1);
    await showTab(shown, 'Notifications');
    await expect(shown.getByRole('list', {name: 'Notifications'}).getByRole('listitem').first()).toBeVisible();
    await shown.getByText('Raw headers and body').first().click();
    expect(
      await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude: ['nav', 'footer', '.theme-doc-toc-desktop']}),
      mode,
    ).toEqual([]);
    await noSidewaysScroll(page);
  }
  expect(errors).toEqual([]);
});

test('a console open in one tab follows what Try it does in another, without a reload', async ({page, context}) => {
  const widget = await openConsole(page);
  const orders = widget.getByRole('region', {name: 'Orders', exact: true});
  await expect(widget.getByText('No orders yet.')).toBeVisible();
  const other = await context.newPage();
  const panel = await openTryIt(other, '/docs/createorder', 'Create order');
  await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
  await expect(orders.locator('tbody tr')).toHaveCount(1);
  await expect(orders.locator('tbody tr td').nth(1)).toHaveText('PENDING');
  // And the other way: a reset here reaches the other tab, whose next call no longer finds the order.
  await widget.getByRole('button', {name: 'Reset…'}).click();
  await widget.getByRole('button', {name: 'Yes, reset the sandbox'}).click();
  await expect(widget.getByText('No orders yet.')).toBeVisible();
  await panel.getByRole('button', {name: 'Retrieve order detail'}).click();
  await sendAndCheck(panel, /^HTTP 404 ORDER_NOT_FOUND/);
});
