import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';

/*
 * What the page leaves for later at start-up, and that it is there when the
 * reader needs it: the mobile menu's sidebar, code block copying, the API
 * reference tables' layout, and the start-up bundle's build-time changes.
 */

const phone = {width: 412, height: 823};

async function hydrated(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
}

async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as Window & {samePage?: boolean}).samePage = true;
  });
}

async function isSamePage(page: Page) {
  return page.evaluate(() => (window as Window & {samePage?: boolean}).samePage === true);
}

test.describe('on a phone', () => {
  test.use({viewport: phone});

  test('the mobile menu opens with the sidebar, whose links navigate within the page', async ({clean: {page}}) => {
    await page.goto('/docs/integration-guide');
    await hydrated(page);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).click();
    const link = page.locator('.navbar-sidebar').getByRole('link', {name: 'Test accounts'});
    await expect(link).toBeVisible();
    await markPage(page);
    await link.click();
    await expect(page).toHaveURL(/\/docs\/general\/test-accounts$/);
    expect(await isSamePage(page)).toBe(true);
  });

  test('the menu also opens from the keyboard', async ({clean: {page}}) => {
    await page.goto('/docs/integration-guide');
    await hydrated(page);
    await page.getByRole('button', {name: 'Toggle navigation bar'}).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('.navbar-sidebar').getByRole('link', {name: 'Test accounts'})).toBeVisible();
  });
});

test('a code block far below the fold copies its code', async ({page, context}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/docs/createorder');
  await hydrated(page);
  const blocks = page.locator('article .theme-code-block');
  const last = blocks.last();
  const copy = last.getByRole('button', {name: 'Copy code to clipboard'});
  await last.scrollIntoViewIfNeeded();
  await copy.click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const shown = await last
    .locator('pre code')
    .evaluate((code) => [...code.querySelectorAll('.token-line')].map((line) => line.textContent).join('\n'));
  expect(copied.trim()).toBe(shown.trim());
});

test.describe('word wrap on code blocks', () => {
  test.use({viewport: phone});

  test('a block that scrolls sideways offers word wrap, which stops the scrolling and undoes; a block that fits does not', async ({
    clean: {page},
  }) => {
    // A notification page has both: long signed-request samples and a short acknowledgement body.
    await page.goto('/docs/payment/payment-result-notification');
    await hydrated(page);
    // Open the folded sections (ui/Fold): the samples are in them.
    await page.evaluate(() =>
      document.querySelectorAll('details:not([open])').forEach((fold) => ((fold as HTMLDetailsElement).open = true)),
    );
    const blocks = page.locator('article .theme-code-block');
    const scrolls = async (index: number) => {
      const block = blocks.nth(index);
      await block.scrollIntoViewIfNeeded();
      await expect(block.getByRole('button', {name: 'Copy code to clipboard'})).toHaveCount(1);
      return block.locator('pre').evaluate((pre) => pre.scrollWidth > pre.clientWidth);
    };
    let wide = -1;
    let narrow = -1;
    for (let index = 0; index < (await blocks.count()) && (wide < 0 || narrow < 0); index += 1) {
      if (await scrolls(index)) wide = wide < 0 ? index : wide;
      else narrow = narrow < 0 ? index : narrow;
    }
    expect(wide, 'a block wider than a phone').toBeGreaterThanOrEqual(0);
    expect(narrow, 'a block that fits a phone').toBeGreaterThanOrEqual(0);
    await expect(blocks.nth(narrow).getByRole('button', {name: 'Toggle word wrap'})).toHaveCount(0);

    const block = blocks.nth(wide);
    const pre = block.locator('pre');
    const wrap = block.getByRole('button', {name: 'Toggle word wrap'});
    await block.scrollIntoViewIfNeeded();
    await expect(wrap).toHaveCount(1);
    await wrap.click();
    await expect(block.locator('code')).toHaveCSS('white-space', 'pre-wrap');
    expect(await pre.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    await wrap.click();
    await expect(block.locator('code')).not.toHaveCSS('white-space', 'pre-wrap');
    expect(await pre.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
  });
});
