import {expect, test, type Locator, type Page} from '@playwright/test';

/**
 * A reader's first click, the moment the page is hydrated, takes effect: every time, on a fresh
 * load, without a second try. The click is aimed like a reader's: the target is brought into view,
 * its position read, and the mouse pressed there at once. If anything moves the target between
 * the aim and the press (a block laid out late at a guessed height, a part re-mounted after
 * hydration), the press lands elsewhere and the check fails.
 */

const loads = 10;

test.use({viewport: {width: 1280, height: 800}});

async function freshHydratedLoad(page: Page, path: string): Promise<void> {
  // A new document each time; no wait for images and prefetches, only for hydration.
  await page.goto(path, {waitUntil: 'commit'});
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true', {timeout: 20_000});
}

/** Scrolls the target into view and presses the mouse where it is, with no waiting for it to be stable and no retry. */
async function aimAndClick(page: Page, target: Locator): Promise<void> {
  await target.evaluate((element) => element.scrollIntoView({block: 'center', behavior: 'instant'}));
  const box = await target.boundingBox();
  if (!box) throw new Error('The target has no box');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

test.beforeEach(async ({page}) => {
  // Each load starts as a first visit: no remembered tab choice or opened panel.
  await page.addInitScript(() => window.localStorage.clear());
});

test(`the Try it opener opens its panel on the first click right after hydration, ${loads} fresh loads`, async ({page}) => {
  // Each load takes about a second here; the budget leaves room for a loaded machine.
  test.setTimeout(240_000);
  for (let load = 1; load <= loads; load += 1) {
    await freshHydratedLoad(page, '/docs/createorder');
    const opener = page.locator('[data-api-reference] button[aria-expanded][aria-controls$="-pane"]').first();
    await aimAndClick(page, opener);
    await expect(opener, `load ${load}`).toHaveAttribute('aria-expanded', 'true', {timeout: 2000});
  }
});

test(`a code-sample tab is selected by the first click right after hydration, ${loads} fresh loads`, async ({page}) => {
  // Each load takes about a second here; the budget leaves room for a loaded machine.
  test.setTimeout(240_000);
  for (let load = 1; load <= loads; load += 1) {
    await freshHydratedLoad(page, '/docs/createorder');
    const python = page.locator('[data-api-main]').getByRole('tab', {name: 'Python'}).first();
    await expect(python).toHaveAttribute('aria-selected', 'false');
    await aimAndClick(page, python);
    await expect(python, `load ${load}`).toHaveAttribute('aria-selected', 'true', {timeout: 2000});
  }
});

test(`a table-of-contents link scrolls to its heading on the first click right after hydration, ${loads} fresh loads`, async ({page}) => {
  // Each load takes about a second here; the budget leaves room for a loaded machine.
  test.setTimeout(240_000);
  for (let load = 1; load <= loads; load += 1) {
    await freshHydratedLoad(page, '/docs/integration-guide');
    // A link far down the list: the heading is many code blocks below the first screen.
    const link = page.locator('.table-of-contents a[href^="#"]').nth(-2);
    const id = decodeURIComponent((await link.getAttribute('href'))?.slice(1) ?? '');
    await aimAndClick(page, link);
    await expect(page, `load ${load}`).toHaveURL(new RegExp(`#${id}$`), {timeout: 2000});
    await expect
      .poll(() => page.evaluate((headingId) => document.getElementById(headingId)?.getBoundingClientRect().top ?? NaN, id), {message: `load ${load}: heading in view`})
      .toBeLessThan(200);
  }
});
