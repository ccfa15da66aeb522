import {expect, test} from '@playwright/test';

test.describe('tabs', () => {
  test('a tab-group choice is kept across pages and reloads', async ({page}) => {
    await page.goto('/docs/integration-guide');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const production = page.getByRole('tab', {name: 'Production'});
    await expect(page.getByRole('tab', {name: 'Sandbox'})).toHaveAttribute('aria-selected', 'true');
    await production.click();
    await expect(production).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('https://api.example.com/v1')).toBeVisible();

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
  test('lists h2 and h3 headings but not h4', async ({page}) => {
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
  test('posts show their reading time', async ({page}) => {
    await page.goto('/blog/long-blog-post');
    await expect(page.locator('article header')).toContainText(/\d+ min read/);
    await page.goto('/blog');
    await expect(page.locator('article header').filter({hasText: /min read/})).toHaveCount(4);
  });

  for (const [tag, titles] of Object.entries(postsByTag)) {
    test(`tag page ${tag} lists exactly its posts`, async ({page}) => {
      await page.goto(`/blog/tags/${tag}`);
      const listed = page.locator('article header h2');
      await expect(listed).toHaveText(titles.slice().sort((a, b) => titles.indexOf(a) - titles.indexOf(b)).reverse());
    });
  }

  test('the tags index lists every tag', async ({page}) => {
    await page.goto('/blog/tags');
    for (const tag of Object.keys(postsByTag)) {
      await expect(page.locator('main').getByRole('link', {name: new RegExp(`^${tag}`, 'i')})).toBeVisible();
    }
  });

  test('the MDX post renders its React component, which refuses bad amounts', async ({page}) => {
    await page.goto('/blog/mdx-blog-post');
    const amount = page.getByLabel('Amount as the customer reads it');
    await amount.fill('10.50');
    await expect(page.locator('output')).toContainText('"amount": {"value": 1050, "currency": "USD"}');
    await amount.fill('10.005');
    await expect(page.locator('output')).toHaveText('USD has 2 decimal places: "10.005" has 3.');
    await expect(amount).toHaveAttribute('aria-invalid', 'true');
  });
});
