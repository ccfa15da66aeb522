import {expect, test} from '@playwright/test';

test.describe('home page', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`has no horizontal scroll at 375 px (${theme})`, async ({page}) => {
      await page.setViewportSize({width: 375, height: 812});
      // At phone width the colour switch sits in the menu; the theme's query parameter sets it directly.
      await page.goto(`/?docusaurus-theme=${theme}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.getByRole('link', {name: 'Start integrating'})).toBeVisible();
    });
  }

  test('links the main journeys, the contract and the test accounts', async ({page}) => {
    await page.goto('/');
    for (const name of ['Accept payments', 'Manage orders and refunds', 'Pay out and transfer', 'Reconcile', 'Use an SDK', 'Try the demos', 'Sandbox test accounts', 'OpenAPI YAML', 'Postman collection']) {
      await expect(page.getByRole('main').getByRole('link', {name, exact: true})).toBeVisible();
    }
  });
});

test.describe('not-found page', () => {
  test('offers the main sections', async ({page}) => {
    const response = await page.goto('/docs/no-such-doc');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', {name: 'Page Not Found'})).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', {name: 'Integration guide'})).toBeVisible();
    await expect(page.getByText('contact the owner')).toHaveCount(0);
  });
});
