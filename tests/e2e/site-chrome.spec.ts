import {expect} from '@playwright/test';
import {test} from '../support/warmPage';

test.describe('navbar, footer and document metadata', () => {
  test('navbar has exactly APIs and Demos on the left, the colour switch on the right', async ({clean: {page}}) => {
    await page.goto('/');
    const left = page.locator('.navbar__items:not(.navbar__items--right) > a.navbar__item');
    await expect(left).toHaveText(['APIs', 'Demos']);
    await expect(left.nth(0)).toHaveAttribute('href', '/docs/integration-guide');
    await expect(left.nth(1)).toHaveAttribute('href', '/demos/overview');
    await expect(page.locator('.navbar__items--right').getByRole('button', {name: /dark and light mode/})).toBeVisible();

    await left.nth(0).click();
    await expect(page).toHaveURL(/\/docs\/integration-guide$/);
    await expect(page.locator('article h1')).toHaveText('Integration guide');
    await page.locator('a.navbar__item', {hasText: 'Demos'}).click();
    await expect(page).toHaveURL(/\/demos\/overview$/);
    await expect(page.locator('article h1')).toHaveText('Demos overview');
  });

  test('document is English, titled with the | separator, indexable, and the footer carries the 2025 copyright line', async ({
    clean: {page},
  }) => {
    await page.goto('/docs/createorder');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page).toHaveTitle('Create order | Veloxa Pay');
    await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
    await expect(page.locator('.footer__copyright')).toContainText('Copyright © 2025');
  });
});

test.describe('colour mode', () => {
  test('is light by default (with no system preference), toggles through light and dark and survives a reload', async ({clean: {page}}) => {
    await page.goto('/docs/integration-guide');
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'light');

    // Three states, as the theme does when it respects the system preference: system (light here), light, dark.
    const toggle = page.getByRole('button', {name: /dark and light mode/});
    await expect(toggle).toHaveAttribute('title', /system mode/);
    await toggle.click();
    await expect(toggle).toHaveAttribute('title', /light mode/);
    await toggle.click();
    await expect(html).toHaveAttribute('data-theme', 'dark');
    const stored = await page.evaluate(() => Object.entries(window.localStorage).filter(([key]) => /^theme(-|$)/.test(key)));
    expect(stored).toEqual([[expect.stringMatching(/^theme/), 'dark']]);

    await page.reload();
    await expect(html).toHaveAttribute('data-theme', 'dark');

    // A third click returns to the system's choice: light in this browser.
    await page.getByRole('button', {name: /dark and light mode/}).click();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await expect(page.getByRole('button', {name: /dark and light mode/})).toHaveAttribute('title', /system mode/);
  });
});

test.describe('keyboard', () => {
  test('skip to main content is the first tab stop and skips the navbar', async ({clean: {page}}) => {
    await page.goto('/docs/integration-guide');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', {name: 'Skip to main content'});
    await expect(skip).toBeFocused();

    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const inNavbar = await page.evaluate(() => Boolean(document.activeElement?.closest('.navbar, .theme-announcement-bar')));
    expect(inNavbar, 'focus after skipping must not be in the navbar').toBe(false);
    const inMain = await page.evaluate(() => Boolean(document.activeElement?.closest('main')));
    expect(inMain, 'focus after skipping is inside the main content').toBe(true);
  });
});

test.describe('responsive sidebar', () => {
  test('at 995 px the hamburger menu holds the sidebar', async ({clean: {page}}) => {
    await page.setViewportSize({width: 995, height: 800});
    await page.goto('/docs/integration-guide');
    await expect(page.locator('.theme-doc-sidebar-container')).toBeHidden();
    // The menu opens once the page has hydrated; a click before that would be lost.
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const toggle = page.getByRole('button', {name: 'Toggle navigation bar'});
    await expect(toggle).toBeVisible();
    await toggle.click();
    await expect(page.locator('.navbar-sidebar').getByRole('link', {name: 'Test accounts'})).toBeVisible();
  });

  for (const width of [997, 1280]) {
    test(`at ${width} px the desktop sidebar shows`, async ({clean: {page}}) => {
      await page.setViewportSize({width, height: 800});
      await page.goto('/docs/integration-guide');
      await expect(page.locator('.theme-doc-sidebar-container')).toBeVisible();
      await expect(page.getByRole('button', {name: 'Toggle navigation bar'})).toBeHidden();
    });
  }
});

test.describe('announcement bar', () => {
  test('takes one line on a phone and uses the theme colours in dark mode', async ({clean: {page}}) => {
    await page.setViewportSize({width: 390, height: 844});
    await page.goto('/?docusaurus-theme=dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    const bar = page.locator('.theme-announcement-bar');
    await expect(bar.getByRole('link', {name: 'Sandbox test accounts'})).toBeVisible();
    const lineHeight = await bar
      .locator('.announcement-narrow')
      .evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 24);
    const textHeight = (await bar.locator('.announcement-narrow').boundingBox())?.height ?? Infinity;
    expect(textHeight, 'one line of text').toBeLessThanOrEqual(lineHeight * 1.2);
    const background = await bar.evaluate((element) => getComputedStyle(element).backgroundColor);
    const channels = background.match(/\d+/g)?.slice(0, 3).map(Number) ?? [255, 255, 255];
    expect(Math.max(...channels), `a dark bar in dark mode, not ${background}`).toBeLessThan(100);
  });

  test('follows the system colour scheme when the reader has not chosen one', async ({browser}) => {
    const context = await browser.newContext({colorScheme: 'dark'});
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await context.close();
  });

  test('closes and stays closed after a reload', async ({clean: {page}}) => {
    await page.goto('/');
    const bar = page.locator('.theme-announcement-bar');
    await expect(bar).toContainText('test accounts');
    // The close button works once the page has hydrated; a click before that would be lost.
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await bar.getByRole('button', {name: 'Close'}).click();
    await expect(bar).toBeHidden();
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await expect(page.locator('.theme-announcement-bar')).toBeHidden();
  });
});

test.describe('page scripts', () => {
  test('start after the first paint, through the one inline loader, and still hydrate the page', async ({clean: {page}, request}) => {
    const html = await (await request.get('/docs/integration-guide')).text();
    // No script file in the HTML: the loader is inline in the head, ahead of the stylesheets, so it waits for no download.
    const external = [...html.matchAll(/<script[^>]*\ssrc=([^\s>]+)/g)].map((match) => match[1]);
    expect(external).toEqual([]);
    const head = html.slice(0, html.indexOf('</head>'));
    const loaderAt = head.indexOf('getElementById("page-scripts")');
    expect(loaderAt).toBeGreaterThan(0);
    expect(loaderAt).toBeLessThan(head.search(/<link rel="?stylesheet/));
    // The start-up scripts and the page's own route chunks (plugins/performance/route-scripts), so none is discovered late;
    // main.js, which starts the app, last (the ssrTemplate in docusaurus.config.ts).
    const listed = JSON.parse(
      html.match(/<script type="?application\/json"? id="?page-scripts"?>([^<]+)<\/script>/)?.[1] ?? '[]',
    ) as string[];
    expect(listed.filter((script) => /^\/assets\/js\/runtime~main\.\w+\.js$/.test(script))).toHaveLength(1);
    expect(listed.at(-1)).toMatch(/^\/assets\/js\/main\.\w+\.js$/);
    expect(listed.filter((script) => /^\/assets\/js\/[0-9a-f]+\.\w+\.js$/.test(script)).length).toBeGreaterThan(0);

    await page.goto('/docs/integration-guide');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const timing = await page.evaluate(() => ({
      firstContentfulPaint:
        performance.getEntriesByType('paint').find((entry) => entry.name === 'first-contentful-paint')?.startTime ?? NaN,
      mainScript: performance.getEntriesByType('resource').find((entry) => /\/main\.[\w]+\.js$/.test(entry.name))?.startTime ?? NaN,
    }));
    expect(timing.mainScript).toBeGreaterThanOrEqual(timing.firstContentfulPaint);
    // Every script the page needed to hydrate was in the list; only idle prefetches (<link>) come later.
    const scriptsOutsideTheList = await page.evaluate(
      (list) =>
        performance
          .getEntriesByType('resource')
          .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'script' && /\/assets\/js\//.test(entry.name))
          .map((entry) => new URL(entry.name).pathname)
          .filter((pathname) => !list.includes(pathname)),
      listed,
    );
    expect(scriptsOutsideTheList).toEqual([]);
  });

  test('are inserted one per task, so no insert shares its task with another fetch start', async ({page, request}) => {
    const html = await (await request.get('/docs/createorder')).text();
    const listed = JSON.parse(
      html.match(/<script type="?application\/json"? id="?page-scripts"?>([^<]+)<\/script>/)?.[1] ?? '[]',
    ) as string[];
    expect(listed.length).toBeGreaterThan(5);
    // A mutation observer's callback runs once at the end of each task that changed the DOM: one batch per task.
    await page.addInitScript(() => {
      const batches: string[][] = [];
      (window as Window & {scriptBatches?: string[][]}).scriptBatches = batches;
      new MutationObserver((records) => {
        const scripts = records
          .flatMap((record) => [...record.addedNodes])
          .filter((node): node is HTMLScriptElement => node instanceof HTMLScriptElement && node.src !== '');
        if (scripts.length > 0) batches.push(scripts.map((script) => new URL(script.src).pathname));
      }).observe(document, {childList: true, subtree: true});
    });
    await page.goto('/docs/createorder');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const batches = await page.evaluate(() => (window as Window & {scriptBatches?: string[][]}).scriptBatches ?? []);
    // In the listed order, one by one.
    expect(batches.slice(0, listed.length)).toEqual(listed.map((script) => [script]));
  });
});
