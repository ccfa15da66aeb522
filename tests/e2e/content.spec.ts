import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';
import {parse} from 'yaml';
import {quickStartSample} from '../../src/lib/samples';
import type {OpenApiDocument} from '../../src/contract/openapiTypes';
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

  test('leaves the quick-start script to the integration guide (no wall of shell above the fold)', async ({page}) => {
    await page.goto('/');
    await expect(page.locator('header .theme-code-block')).toHaveCount(0);
    await expect(page.locator('header').getByRole('link', {name: 'integration guide', exact: true})).toHaveAttribute(
      'href',
      '/docs/integration-guide#your-first-order',
    );
  });

  test('links the main journeys, the contract and the test accounts', async ({page}) => {
    await page.goto('/');
    for (const name of [
      'Accept payments',
      'Manage orders and refunds',
      'Pay out and transfer',
      'Reconcile',
      'Use an SDK',
      'Try the demos',
      'Sandbox test accounts',
      'OpenAPI YAML',
      'Postman collection',
    ]) {
      await expect(page.getByRole('main').getByRole('link', {name, exact: true})).toBeVisible();
    }
  });
});

test.describe('integration guide', () => {
  test('shows the quick start generated from the curl sample of Create order, the snippet tests/samples runs', async ({page}) => {
    const contract = parse(readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8')) as OpenApiDocument;
    const sample = quickStartSample(contract);
    await page.goto('/docs/integration-guide');
    const block = page.locator('.theme-code-block').filter({hasText: sample.fileName});
    await expect(block).toHaveCount(1);
    // One element per line, highlighted or not yet (the docs defer highlighting).
    const shown = await block.locator('pre code').evaluate((code) => [...code.children].map((line) => line.textContent).join('\n'));
    expect(shown.trim()).toBe(sample.code.trim());
  });
});

test.describe('not-found page', () => {
  test('offers the main sections', async ({page}) => {
    const response = await page.goto('/docs/no-such-doc');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', {name: 'Page not found'})).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', {name: 'Integration guide'})).toBeVisible();
    await expect(page.getByText('contact the owner')).toHaveCount(0);
    // No near-miss for this address: the space kept for suggestions says so instead of standing empty.
    await expect(page.getByText('No page has an address close to this one')).toBeVisible();
  });

  test('offers a search box and the nearest pages of a near-miss address', async ({page}) => {
    const response = await page.goto('/docs/creatorder');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', {name: 'Did you mean'})).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', {name: 'Create order', exact: true})).toHaveAttribute(
      'href',
      '/docs/createorder',
    );
    // No space is kept for suggestions that did not come: the box is as tall as what it shows (one page here), and
    // at 1280 px it sits beside the search, in the first screen (layout-stability.spec.ts: nothing shifts as it arrives).
    const near = page.locator('[aria-live="polite"]:has(h2)');
    await expect(near.locator('li')).toHaveCount(1);
    const unused = await near.evaluate((box) => {
      const last = box.lastElementChild?.getBoundingClientRect();
      return last ? box.getBoundingClientRect().bottom - last.bottom : NaN;
    });
    expect(unused, 'empty space under the nearest pages').toBeLessThanOrEqual(1);
    expect((await near.boundingBox())?.y ?? Infinity, 'the nearest pages in the first screen at 1280 px').toBeLessThan(720 - 100);
    const search = page.getByRole('search', {name: 'Search the portal'});
    await expect(search.getByLabel('Search the portal')).toHaveValue('creatorder');
    await search.getByLabel('Search the portal').fill('refund');
    await search.getByRole('button', {name: 'Search'}).click();
    await expect(page).toHaveURL(/\/search\?q=refund$/);
  });
});
