/**
 * The hosted sandbox page against a local `npm run sandbox -- --hosted` on the port the build's hosted target
 * names (build with SANDBOX_HOSTED_ORIGIN=http://127.0.0.1:4010): a merchant made in the browser, its private
 * key offered as a file; Try it's journey on the hosted target as that merchant (create, the shopper pays, the
 * panel retrieves the order PAID); then the sandbox console on that merchant (its order, balances and
 * events from its signed export), and its alert once the hosted sandbox stops answering. One page load for
 * all of it: the merchant lives in the tab's memory, so the test moves between pages as a reader's clicks do.
 * A build pointed elsewhere (the brand's host, which nothing answers) skips it, saying so.
 */
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {localSandboxOrigin} from '../../src/lib/tryIt';
import {axeViolations} from '../support/axe';
import {startLocalSandbox} from '../support/localSandbox';
import {consoleErrors} from '../support/pageWatch';
import {sendAndCheck} from '../support/tryIt';

test('a merchant of your own on the hosted sandbox: Try it creates, pays and retrieves as it; the console shows it', async ({
  clean: {page},
}) => {
  await page.goto('/docs/hosted-sandbox');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const panel = page.getByRole('region', {name: 'Your hosted sandbox merchant'});
  test.skip(
    !(await panel.textContent())?.includes(`sent, to ${localSandboxOrigin}`),
    `the build's hosted target is not ${localSandboxOrigin}: build with SANDBOX_HOSTED_ORIGIN=${localSandboxOrigin}`,
  );
  const errors = consoleErrors(page);
  const server = await startLocalSandbox({hosted: true});
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= server.close());
  try {
    await panel.getByRole('button', {name: 'Create my sandbox merchant'}).click();
    const clientId = (await panel.getByTestId('hosted-client-id').textContent({timeout: 15_000})) ?? '';
    expect(clientId).toMatch(/^sandbox-[a-z0-9]+$/);
    await expect(panel.getByLabel(/Private key/)).toHaveValue(/^-----BEGIN PRIVATE KEY-----/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', {name: 'Download private key'}).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${clientId}-private-key.pem`);
    expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude: ['nav', 'footer']})).toEqual([]);

    // In-app navigation keeps the tab's merchant, as a reader's click does.
    await page.getByRole('link', {name: 'Try it'}).first().click();
    await expect(page).toHaveURL(/\/docs\/createorder/);
    const opener = page.locator('button[aria-controls][aria-expanded]').filter({hasText: /^Try Create order in the sandbox$/});
    // The button is renamed once open: find the panel it controls first.
    const tryIt = page.locator(`#${await opener.getAttribute('aria-controls')}`);
    await opener.click();
    await tryIt.getByRole('radio', {name: /hosted sandbox/}).check();
    await tryIt.getByRole('radio', {name: /A merchant of my own/}).check();
    await tryIt.getByRole('button', {name: 'Send signed request'}).click();
    await expect(
      tryIt
        .locator('strong')
        .filter({hasText: /^HTTP \d{3}/})
        .first(),
    ).toHaveText(/^HTTP 200 SUCCESS/, {timeout: 15_000});
    await expect(tryIt.getByLabel('Canonical string')).toContainText(clientId);
    await tryIt.getByRole('button', {name: 'Pay as the shopper'}).click();
    await expect(tryIt.getByText('The shopper paid with test card')).toBeVisible();
    // The panel retrieves the order by itself, signed as the merchant: PAID on the hosted target.
    await sendAndCheck(tryIt, /^HTTP 200 SUCCESS/, 'the retrieve after paying', false);
    await expect(tryIt.getByLabel('Canonical string')).toContainText(`GET\n/v1/orders/`);
    await expect(tryIt.getByLabel('Canonical string')).toContainText(clientId);
    await expect(tryIt.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PAID');

    // Back to the hosted sandbox page (in-app), then its link to the console.
    await page.goBack();
    await panel.getByRole('link', {name: 'sandbox console'}).click();
    const widget = page.getByRole('region', {name: 'Sandbox console'});
    await widget.getByLabel('Sandbox').selectOption({label: `Hosted sandbox, as ${clientId}`});
    await expect(widget.getByRole('status')).toContainText(`Showing ${clientId} as the hosted sandbox at ${localSandboxOrigin}`);
    const orders = widget.getByRole('region', {name: 'Orders', exact: true});
    await expect(orders.locator('tbody tr')).toHaveCount(1);
    await expect(orders.locator('tbody tr td').nth(1)).toHaveText('PAID');
    await expect(widget.getByRole('list', {name: 'Balances'})).toContainText(/\d/);
    await widget.getByRole('tab', {name: /^Events \(\d+\)$/}).click();
    await expect(widget.getByRole('region', {name: 'Events', exact: true})).toContainText('ORDER.PAID');
    // This browser's tools stay with this browser: the hosted sandbox has one clock and imports nothing.
    await expect(widget.getByRole('button', {name: 'Export'})).toHaveCount(0);
    expect(errors).toEqual([]);

    await close();
    await widget.getByRole('button', {name: 'Refresh'}).click();
    await expect(widget.getByRole('alert')).toHaveText(
      `The hosted sandbox at ${localSandboxOrigin} did not answer (no network, or a proxy or extension blocked it).`,
    );
    await widget.getByLabel('Sandbox').selectOption({label: 'This browser'});
    await expect(widget.getByRole('alert')).toHaveCount(0);
    await expect(widget.getByLabel('Merchant')).toBeVisible();
  } finally {
    await close();
  }
});
