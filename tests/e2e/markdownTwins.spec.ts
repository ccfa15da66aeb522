import {expect, test} from '@playwright/test';
import {axeViolations} from '../support/axe';

// The production-like server (scripts/serve-production.ts) answers as hosting/nginx.conf does.
test.describe('Markdown twins', () => {
  test('a page asked for with Accept: text/markdown answers with its twin; without it, with HTML', async ({request}) => {
    const twin = await request.get('/docs/refund', {headers: {Accept: 'text/markdown'}});
    expect(twin.status()).toBe(200);
    expect(twin.headers()['content-type']).toBe('text/markdown; charset=utf-8');
    expect(twin.headers()['vary']).toMatch(/Accept(,|$)/);
    expect(await twin.text()).toMatch(/^# Refund order\n/);
    const html = await request.get('/docs/refund');
    expect(html.headers()['content-type']).toBe('text/html; charset=utf-8');
    const llms = await request.get('/llms.txt');
    expect(llms.headers()['content-type']).toBe('text/plain; charset=utf-8');
    expect(await llms.text()).toContain('/docs/refund.md)');
  });

  test('the "Page" menu beside the title: "View as Markdown" opens the twin and "Copy page as Markdown" copies it, by keyboard, at 360 px; axe clean open, in light and dark mode', async ({
    page,
    context,
    browserName,
  }) => {
    test.skip(browserName !== 'chromium', 'clipboard permissions are Chromium-only in Playwright');
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.setViewportSize({width: 360, height: 800});
    await page.goto('/docs/createorder?docusaurus-theme=light');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    // One "Page" menu beside the title (issue 31): on the title's line, not a row above it.
    const menu = page.getByRole('group', {name: 'This page as Markdown'});
    const summary = menu.locator('summary', {hasText: 'Page'});
    const title = page.locator('article h1').first();
    const [menuBox, titleBox] = [await summary.boundingBox(), await title.boundingBox()];
    expect(menuBox && titleBox, 'menu and title are drawn').toBeTruthy();
    if (menuBox && titleBox) {
      expect(menuBox.y, 'the menu starts on the title line').toBeLessThan(titleBox.y + titleBox.height / 2);
      expect(menuBox.y + menuBox.height, 'the menu ends on the title line').toBeGreaterThan(titleBox.y);
      expect(menuBox.x, 'the menu sits right of where the title starts').toBeGreaterThan(titleBox.x);
    }
    // Closed, the items are not in the accessibility tree; open, they are.
    const view = menu.getByRole('link', {name: 'View as Markdown'});
    await expect(menu.locator('a', {hasText: 'View as Markdown'})).toBeHidden();
    // A press before hydration would do nothing: the button's handler comes with React.
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(view).toBeVisible();
    await expect(view).toHaveAttribute('href', '/docs/createorder.md');
    await page.keyboard.press('Escape');
    await expect(view).toBeHidden();
    await expect(summary).toBeFocused();
    await page.keyboard.press('Enter');
    const copy = menu.getByRole('button', {name: 'Copy page as Markdown'});
    await copy.focus();
    await page.keyboard.press('Enter');
    await expect(menu.getByRole('status')).toHaveText('Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(/^# Create order\n/);
    expect(copied).toContain('### Go');
    // The open menu is scanned; the page around it is scanned at 360 px by api-reference.spec.ts and at 1280 px by
    // routes.spec.ts (a whole API page's scan is seconds of processor time, most of it the colour rule).
    const openMenu = '[role="group"][aria-label="This page as Markdown"]';
    expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], include: [openMenu]}), 'open menu, light').toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    const response = await page.request.get(`${await view.getAttribute('href')}`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toBe('text/markdown; charset=utf-8');

    await page.goto('/docs/createorder?docusaurus-theme=dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(view).toBeVisible();
    expect(
      await axeViolations(page, {rules: ['color-contrast', 'link-in-text-block'], include: [openMenu]}),
      'open menu, dark: the colour rules',
    ).toEqual([]);
  });
});
