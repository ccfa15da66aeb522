import {readdirSync} from 'node:fs';
import path from 'node:path';
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {brand} from '../../src/brand';
import {repoRoot} from '../support/routeContract';

test.describe('tabs', () => {
  test('a tab-group choice is kept across pages and reloads', async ({clean: {page}}) => {
    await page.goto('/docs/integration-guide');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const production = page.getByRole('tab', {name: 'Production'});
    await expect(page.getByRole('tab', {name: 'Sandbox'})).toHaveAttribute('aria-selected', 'true');
    await production.click();
    await expect(production).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText(`https://${brand.hosts.productionApi}`, {exact: true})).toBeVisible();

    // Another page with the same groupId, reached by client-side navigation.
    await page.locator('.theme-doc-sidebar-container').getByRole('link', {name: 'Test accounts'}).click();
    await expect(page.locator('article h1')).toHaveText('Sandbox test accounts');
    await expect(page.getByRole('tab', {name: 'Production'})).toHaveAttribute('aria-selected', 'true');

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await expect(page.getByRole('tab', {name: 'Production'})).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('Production has no test accounts.')).toBeVisible();
  });
});

test.describe('table of contents', () => {
  test('lists h2 and h3 headings but not h4', async ({clean: {page}}) => {
    await page.setViewportSize({width: 1280, height: 900});
    await page.goto('/docs/integration-guide');
    const toc = page.locator('.theme-doc-toc-desktop');
    await expect(toc.getByRole('link', {name: 'Environments and hosts'})).toBeVisible();
    await expect(toc.getByRole('link', {name: 'Generate a key pair'})).toBeVisible();
    // The h4 exists on the page but stays out of the table of contents.
    await expect(page.locator('article h4', {hasText: 'Clock skew'})).toBeVisible();
    await expect(toc.getByRole('link', {name: 'Clock skew'})).toHaveCount(0);
  });
});

const postsByTag: Record<string, string[]> = {
  docusaurus: [
    'Welcome to the developer blog',
    'How this portal is organised',
    'Retries without double charges',
    'Amounts in minor units, with a live converter',
  ],
  facebook: ['Amounts in minor units, with a live converter'],
  hello: ['Welcome to the developer blog', 'Retries without double charges'],
  hola: ['How this portal is organised'],
};

test.describe('blog', () => {
  test('posts show their reading time', async ({clean: {page}}) => {
    await page.goto('/blog/long-blog-post');
    await expect(page.locator('article header')).toContainText(/\d+ min read/);
    await page.goto('/blog');
    const posts = readdirSync(path.join(repoRoot, 'blog')).filter((file) => /\.mdx?$/.test(file));
    await expect(page.locator('article header').filter({hasText: /min read/})).toHaveCount(posts.length);
  });

  for (const [tag, titles] of Object.entries(postsByTag)) {
    test(`tag page ${tag} lists exactly its posts`, async ({clean: {page}}) => {
      await page.goto(`/blog/tags/${tag}`);
      // postsByTag lists posts oldest first; tag pages list them newest first.
      await expect(page.locator('article header h2')).toHaveText([...titles].reverse());
    });
  }

  test('the tags index lists every tag', async ({clean: {page}}) => {
    await page.goto('/blog/tags');
    for (const tag of Object.keys(postsByTag)) {
      await expect(page.locator('main').getByRole('link', {name: new RegExp(`^${tag}`, 'i')})).toBeVisible();
    }
  });

  test('the MDX post renders its React component, which refuses bad amounts', async ({clean: {page}}) => {
    await page.goto('/blog/mdx-blog-post');
    const amount = page.getByLabel('Amount as the customer reads it');
    await amount.fill('10.50');
    await expect(page.locator('output')).toContainText('"amount": {"value": 1050, "currency": "USD"}');
    await amount.fill('10.005');
    await expect(page.locator('output')).toHaveText('USD has 2 decimal places: "10.005" has 3.');
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
  });
});

test.describe('tables on a phone', () => {
  test.use({viewport: {width: 360, height: 740}});

  test('a wide Markdown table scrolls sideways in its own focusable box, named after its columns, and the page does not', async ({
    clean: {page},
  }) => {
    await page.goto('/docs/sdks/inapp');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const box = page.getByRole('region', {name: 'Table: Platform, Package, Where to get it, Current version, Minimum OS, Languages'});
    await expect(box).toHaveCount(1);
    const widths = await box.evaluate((element) => ({
      box: element.clientWidth,
      table: element.scrollWidth,
      page: document.documentElement.scrollWidth,
      viewport: document.documentElement.clientWidth,
    }));
    expect(widths.table).toBeGreaterThan(widths.box);
    expect(widths.page).toBeLessThanOrEqual(widths.viewport);

    // Reached with the keyboard, it scrolls with the arrow keys.
    await box.focus();
    await expect(box).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => box.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  });

  test("an API page's state tables scroll in boxes named by their captions", async ({clean: {page}}) => {
    await page.goto('/docs/createorder');
    // The states section is folded (ui/Fold) until the reader opens it.
    await page.evaluate(() =>
      document.querySelectorAll('details:not([open])').forEach((fold) => ((fold as HTMLDetailsElement).open = true)),
    );
    await expect(page.getByRole('region', {name: /^States of /})).not.toHaveCount(0);
    await expect(page.getByRole('region', {name: /^Transitions of /})).not.toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
});
