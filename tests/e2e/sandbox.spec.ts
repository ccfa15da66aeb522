import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {consoleErrors, requestedScripts} from '../support/pageWatch';

test.describe('the sandbox in the browser', () => {
  test('loads only when asked, runs a payment to a partial refund, keeps its state across a reload, and resets', async ({
    clean: {page},
  }) => {
    const errors = consoleErrors(page);
    const scripts = requestedScripts(page);
    await page.goto('/docs/local-sandbox');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const firstLoad = scripts.length;
    const tryout = page.getByRole('region', {name: 'Sandbox in your browser'});

    await tryout.getByRole('button', {name: 'Run a payment in your browser'}).click();
    const steps = tryout.getByRole('listitem');
    await expect(steps).toHaveCount(5);
    await expect(steps.nth(0)).toContainText('HTTP 200 SUCCESS, order PENDING');
    await expect(steps.nth(1)).toContainText('order PAID');
    await expect(steps.nth(2)).toContainText('HTTP 200 SUCCESS, refund PROCESSING');
    await expect(steps.nth(3)).toContainText('order PARTIALLY_REFUNDED');
    await expect(steps.nth(4)).toContainText('ORDER.PAID, REFUND.SUCCEEDED');
    await expect(tryout).toContainText("Orders in this browser's sandbox: 1");
    expect(scripts.length, 'the engine came in chunks of its own, after the click').toBeGreaterThan(firstLoad);

    // IndexedDB keeps the sandbox: the second run finds the first order.
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await tryout.getByRole('button', {name: 'Run a payment in your browser'}).click();
    await expect(tryout).toContainText("Orders in this browser's sandbox: 2");

    await tryout.getByRole('button', {name: 'Reset the browser sandbox'}).click();
    await expect(tryout).toContainText("Orders in this browser's sandbox: 0");
    expect(errors, 'no console error or CSP violation').toEqual([]);
  });
});
