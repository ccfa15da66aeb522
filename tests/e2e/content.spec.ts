import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, test} from '@playwright/test';
import {docUrl} from '../../src/lib/docRoutes';
import {repoRoot} from '../support/routeContract';

/** Pages whose sources hold Mermaid diagrams, with how many each has. */
function pagesWithMermaid(): Array<{url: string; blocks: number}> {
  const found: Array<{url: string; blocks: number}> = [];
  for (const [folder, base] of [['docs', 'docs'], ['demos', 'demos']] as const) {
    for (const relative of readdirSync(path.join(repoRoot, folder), {recursive: true, encoding: 'utf8'})) {
      if (!/\.mdx?$/.test(relative)) continue;
      const text = readFileSync(path.join(repoRoot, folder, relative), 'utf8');
      const blocks = (text.match(/^```mermaid\s*$/gm) ?? []).length;
      if (blocks > 0) found.push({url: docUrl(base, {relativePath: relative.split(path.sep).join('/'), text}), blocks});
    }
  }
  return found;
}

test.describe('Mermaid diagrams render in both colour modes', () => {
  const pages = pagesWithMermaid();
  test('some pages have diagrams', () => {
    expect(pages.length).toBeGreaterThan(5);
  });
  for (const {url, blocks} of pages) {
    test(url, async ({page}) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      const diagrams = page.locator('.docusaurus-mermaid-container svg');
      // API pages add the contract's state diagrams to the ones written in the page.
      await expect.poll(() => diagrams.count(), {timeout: 20_000}).toBeGreaterThanOrEqual(blocks);
      await expect(page.getByText(/Syntax error in text/)).toHaveCount(0);
      await page.getByRole('button', {name: /dark and light mode/}).click();
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expect.poll(() => diagrams.count(), {timeout: 20_000}).toBeGreaterThanOrEqual(blocks);
      await expect(page.getByText(/Syntax error in text/)).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }
});

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
