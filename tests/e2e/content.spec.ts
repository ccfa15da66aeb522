import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';
import {parse} from 'yaml';
import {quickStartSample} from '../../src/lib/samples';
import type {OpenApiDocument} from '../../src/lib/openapiTypes';
import {repoRoot} from '../support/routeContract';

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

  test('shows the quick start generated from the curl sample of Create order, the snippet tests/samples runs', async ({page}) => {
    const contract = parse(readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8')) as OpenApiDocument;
    const sample = quickStartSample(contract);
    await page.goto('/');
    const block = page.locator('header .theme-code-block');
    await expect(block).toContainText(sample.fileName);
    const shown = await block.locator('pre code').evaluate((code) => [...code.querySelectorAll('.token-line')].map((line) => line.textContent).join('\n'));
    expect(shown.trim()).toBe(sample.code.trim());
  });

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
