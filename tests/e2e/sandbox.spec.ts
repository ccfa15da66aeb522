import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {consoleErrors, requestedScripts} from '../support/pageWatch';

/** How long a run may take to start the engine in a page that has not started it yet. */
const engineStart = 15_000;

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
    // Each run after a load starts the engine (its chunks, the contract's validators, IndexedDB): seconds when the
    // machine is shared, as for Try it's first send (tests/support/tryIt.ts).
    await expect(steps).toHaveCount(5, {timeout: engineStart});
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
    await expect(tryout).toContainText("Orders in this browser's sandbox: 2", {timeout: engineStart});

    await tryout.getByRole('button', {name: 'Reset the browser sandbox'}).click();
    await expect(tryout).toContainText("Orders in this browser's sandbox: 0");
    expect(errors, 'no console error or CSP violation').toEqual([]);
  });
});
