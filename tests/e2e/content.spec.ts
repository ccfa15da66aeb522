import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {parse} from 'yaml';
import {quickStartSample} from '../../src/lib/samples';
import type {OpenApiDocument} from '../../src/contract/openapiTypes';
import {repoRoot} from '../support/routeContract';

test.describe('home page', () => {
  for (const theme of ['light', 'dark'] as const) {
    test(`has no horizontal scroll at 375 px (${theme})`, async ({clean: {page}}) => {
      await page.setViewportSize({width: 375, height: 812});
      // At phone width the colour switch sits in the menu; the theme's query parameter sets it directly.
      await page.goto(`/?docusaurus-theme=${theme}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await expect(page.getByRole('link', {name: 'Start integrating'})).toBeVisible();
    });
  }

  test('leaves the quick-start script to the integration guide (no wall of shell above the fold)', async ({warm: {page}}) => {
    await page.goto('/');
    await expect(page.locator('header .theme-code-block')).toHaveCount(0);
    await expect(page.locator('header').getByRole('link', {name: 'integration guide', exact: true})).toHaveAttribute(
      'href',
      '/docs/integration-guide#your-first-order',
    );
  });

  test('links the main journeys, the contract and the test accounts', async ({warm: {page}}) => {
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
  test('shows the quick start generated from the curl sample of Create order, the snippet tests/samples runs', async ({warm: {page}}) => {
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
  test('offers the main sections', async ({warm: {page}}) => {
    const response = await page.goto('/docs/no-such-doc');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', {name: 'Page not found'})).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', {name: 'Integration guide'})).toBeVisible();
    await expect(page.getByText('contact the owner')).toHaveCount(0);
    // No near-miss for this address: the section keeps its popular pages and says so.
    await expect(page.getByText('No address is close to this one')).toBeVisible();
    await expect(page.getByRole('heading', {name: 'Popular pages'})).toBeVisible();
    // The popular pages are real pages, under their own titles (the site's page list).
    const sitePages = (await (await page.request.get('/markdown-twins.json')).json()) as Array<{path: string; title: string}>;
    const rows = page.locator('[data-near-pages] li a');
    await expect(rows).toHaveCount(3);
    for (const row of await rows.all()) {
      const href = await row.getAttribute('href');
      expect(sitePages.find((candidate) => candidate.path === href)?.title, `${href}`).toBe(await row.textContent());
    }
  });

  for (const size of [
    {width: 390, height: 844},
    {width: 1280, height: 720},
  ]) {
    test(`offers a search box and the nearest pages of a near-miss address, in the first screen at ${size.width} px`, async ({
      clean: {page},
    }) => {
      await page.setViewportSize(size);
      const response = await page.goto('/docs/creatorder');
      expect(response?.status()).toBe(404);
      const near = page.locator('[data-near-pages]');
      // Before the matches: popular pages, in the rows the matches take.
      const heightBefore = await near.evaluate((element) => element.getBoundingClientRect().height);
      await expect(near).toHaveAttribute('data-near-pages', '1');
      await expect(page.getByRole('heading', {name: 'Did you mean'})).toBeVisible();
      const first = near.locator('li').first();
      await expect(first.getByRole('link', {name: 'Create order', exact: true})).toHaveAttribute('href', '/docs/createorder');
      // A fixed number of one-line rows: the section keeps its height as the matches replace the popular pages.
      await expect(near.locator('li')).toHaveCount(3);
      expect(await near.evaluate((element) => element.getBoundingClientRect().height)).toBe(heightBefore);
      const box = await first.boundingBox();
      expect(
        (box?.y ?? Infinity) + (box?.height ?? 0),
        `the first near match in the first screen at ${size.width}x${size.height}`,
      ).toBeLessThan(size.height);
      const search = page.getByRole('search', {name: 'Search the portal'});
      await expect(search).toBeInViewport();
      await expect(search.getByLabel('Search the portal')).toHaveValue('creatorder');
      await search.getByLabel('Search the portal').fill('refund');
      await search.getByRole('button', {name: 'Search'}).click();
      await expect(page).toHaveURL(/\/search\?q=refund$/);
    });
  }
});
