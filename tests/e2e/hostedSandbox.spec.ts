/**
 * The hosted sandbox page against a local `npm run sandbox -- --hosted` on the port the build's hosted target
 * names (build with SANDBOX_HOSTED_ORIGIN=http://127.0.0.1:4010): a merchant made in the browser, its private
 * key offered as a file, and Try it then signing a call and a shopper action as that merchant on the hosted
 * target. A build pointed elsewhere (the brand's host, which nothing answers) skips it, saying so.
 */
import {expect, test} from '@playwright/test';
import {localSandboxOrigin} from '../../src/lib/tryIt';
import {axeViolations} from '../support/axe';
import {startLocalSandbox} from '../support/localSandbox';
import {consoleErrors} from '../support/pageWatch';

test('a merchant of your own on the hosted sandbox, then Try it signs as it', async ({page}) => {
  await page.goto('/docs/hosted-sandbox');
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const panel = page.getByRole('region', {name: 'Your hosted sandbox merchant'});
  test.skip(
    !(await panel.textContent())?.includes(`sent, to ${localSandboxOrigin}`),
    `the build's hosted target is not ${localSandboxOrigin}: build with SANDBOX_HOSTED_ORIGIN=${localSandboxOrigin}`,
  );
  const errors = consoleErrors(page);
  const server = await startLocalSandbox({hosted: true});
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
    expect(errors).toEqual([]);
  } finally {
    await server.close();
  }
});
