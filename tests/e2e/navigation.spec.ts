import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';
import {switchToDarkMode} from '../support/colourMode';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
}

/** Records whether the nprogress bar was ever added to the page. */
async function watchProgressBar(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as Window & {progressBarSeen?: boolean};
    w.progressBarSeen = false;
    new MutationObserver(() => {
      if (document.getElementById('nprogress')) w.progressBarSeen = true;
    }).observe(document.body, {childList: true, subtree: true});
  });
}

const progressBarSeen = (page: Page) => page.evaluate(() => (window as Window & {progressBarSeen?: boolean}).progressBarSeen === true);

test.describe('route-change progress bar', () => {
  test('appears when the next route takes long to load', async ({clean: {page}}) => {
    let slow = false;
    await page.route('**/assets/js/**', async (route) => {
      if (slow) await sleep(1500);
      await route.continue();
    });
    await page.goto('/');
    await waitForHydration(page);
    await watchProgressBar(page);
    slow = true;
    await page.locator('a.navbar__item', {hasText: 'APIs'}).click();
    await expect(page.locator('#nprogress .bar')).toBeAttached();
    // The route above delays every script by 1.5 s on purpose, and the guide needs several.
    await expect(page.locator('article h1')).toHaveText('Integration guide', {timeout: 15_000});
    await expect(page.locator('#nprogress')).toHaveCount(0);
    expect(await progressBarSeen(page)).toBe(true);
  });

  // A fresh tab: the shared one reads with Data Saver on (tests/support/warmPage.ts), and Docusaurus's
  // window.docusaurus.preload, what hovering a link calls, does nothing for a reader saving data.
  test('does not appear when the next route is already loaded', async ({page}) => {
    await page.goto('/');
    await waitForHydration(page);
    // What hovering a link starts: the route's chunks load; the promise settles when they have. It returns false when
    // it loads nothing (a reader saving data, or a route already loaded).
    const preloaded = await page.evaluate(async () => {
      const loading = window.docusaurus.preload('/docs/integration-guide');
      if (loading === false) return false;
      await loading;
      return true;
    });
    expect(preloaded, 'window.docusaurus.preload loaded the route').toBe(true);
    await watchProgressBar(page);
    // When the new page is on screen, measured from the click in the page's own clock.
    await page.evaluate(() => {
      const w = window as Window & {clickedAt?: number; renderedAt?: number};
      document.addEventListener('click', () => (w.clickedAt = performance.now()), {capture: true, once: true});
      const observer = new MutationObserver(() => {
        if (document.querySelector('article h1')?.textContent !== 'Integration guide') return;
        w.renderedAt = performance.now();
        observer.disconnect();
      });
      observer.observe(document.body, {childList: true, subtree: true, characterData: true});
    });
    await page.locator('a.navbar__item', {hasText: 'APIs'}).click();
    await expect(page.locator('article h1')).toHaveText('Integration guide');
    const took = await page.evaluate(() => {
      const w = window as Window & {clickedAt?: number; renderedAt?: number};
      return (w.renderedAt ?? Number.NaN) - (w.clickedAt ?? Number.NaN);
    });
    // The bar is shown 200 ms after a route change starts unless the new route rendered first; it has rendered now,
    // so a bar that did not appear by this point never will. Rendering the guide can itself take longer than that on
    // a machine this busy (nothing to load, the main thread shared); the bar is then right to show.
    expect(took, 'milliseconds from the click to the new page').toBeGreaterThanOrEqual(0);
    if (took < 200)
      expect(await progressBarSeen(page), `the bar, with the page on screen ${Math.round(took)} ms after the click`).toBe(false);
  });
});

test.describe('chunks that fail to load', () => {
  test('a route that fails to preload makes the page reload', async ({clean: {page}}) => {
    await page.goto('/');
    await waitForHydration(page);
    // Only the chunks the home page ran stay reachable (script loads, not prefetch hints).
    const reachable = new Set(
      await page.evaluate(() =>
        (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
          .filter((entry) => entry.initiatorType === 'script')
          .map((entry) => entry.name),
      ),
    );
    expect([...reachable].some((url) => /\/assets\/js\/main\.\w+\.js$/.test(url))).toBe(true);
    await page.route('**/assets/js/**', (route) => (reachable.has(route.request().url()) ? route.continue() : route.abort('failed')));
    await page.evaluate(() => {
      (window as Window & {beforeReload?: boolean}).beforeReload = true;
    });

    const reloaded = page.waitForEvent('load');
    await page.locator('a.navbar__item', {hasText: 'APIs'}).click();
    await reloaded;
    await expect(page).toHaveURL(/\/docs\/integration-guide$/);
    expect(await page.evaluate(() => (window as Window & {beforeReload?: boolean}).beforeReload)).toBeUndefined();
    // The server-rendered page is still readable while its scripts are unreachable.
    await expect(page.locator('article h1')).toHaveText('Integration guide');

    await page.unrouteAll();
    await page.reload();
    await waitForHydration(page);
  });

  test('a failed page chunk shows its error and Retry recovers', async ({clean: {page}}) => {
    let reachable = false;
    await page.route('**/assets/js/minor-units-converter*.js', (route) => (reachable ? route.continue() : route.abort('failed')));
    await page.goto('/blog/mdx-blog-post');
    await waitForHydration(page);
    const retry = page.getByRole('button', {name: 'Retry'});
    await expect(retry).toBeVisible();
    await expect(page.locator('article')).toContainText(/ChunkLoadError: Loading chunk \S+ failed[\s\S]*minor-units-converter/);

    reachable = true;
    await retry.click();
    await expect(retry).toHaveCount(0);
    await expect(page.getByLabel('Currency')).toBeVisible();
  });
});

test.describe('a page that crashes', () => {
  test('shows the crash screen with the error, and Try again recovers', async ({clean: {page}}) => {
    await page.goto('/tests/crash');
    await waitForHydration(page);
    await expect(page.getByText('The crash switch is off')).toBeVisible();

    await page.evaluate(() => window.localStorage.setItem('portal-test-crash', 'on'));
    await page.reload();
    await expect(page.getByRole('heading', {name: 'This page crashed.'})).toBeVisible();
    await expect(page.getByText('Deliberate crash: the crash switch is on.')).toBeVisible();
    // The screen readers meet when anything breaks: every rule in light mode, the colour rules again in dark mode.
    expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']})).toEqual([]);
    await switchToDarkMode(page);
    expect(await axeViolations(page, {rules: ['color-contrast', 'link-in-text-block']})).toEqual([]);

    await page.evaluate(() => window.localStorage.removeItem('portal-test-crash'));
    await page.getByRole('button', {name: 'Try again'}).click();
    await expect(page.getByText('The crash switch is off')).toBeVisible();
    await expect(page.getByRole('heading', {name: 'This page crashed.'})).toHaveCount(0);
  });
});
