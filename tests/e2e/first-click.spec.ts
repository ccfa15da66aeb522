import {expect, test, type Locator, type Page} from '@playwright/test';

/**
 * A reader's first click, the moment the page is hydrated, takes effect: every time, on a fresh
 * load, without a second try, on every kind of interactive part (a widget's button, a tab, a
 * table-of-contents link, the phone's menu). The click is aimed like a reader's: the target is
 * brought into view, its position read, and the mouse pressed there at once. If anything moves or
 * replaces the target between the aim and the press (a block laid out late at a guessed height, a
 * part re-mounted after hydration, a button not yet listening), the press lands elsewhere or is
 * dropped, and the check fails naming the load.
 */

// Eight loads per test, each widget pressed first on four of them. The suite is bound by the processor on two cores and
// must stay under 12 minutes: twenty loads became twelve, then eight (25 s of test time less), every target still pressed
// right after hydration on several fresh loads of its page.
const loads = 8;

async function freshHydratedLoad(page: Page, path: string): Promise<void> {
  // A new document each time; no wait for images and prefetches, only for hydration.
  await page.goto(path, {waitUntil: 'commit'});
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true', {timeout: 20_000});
}

/** Scrolls the target into view and presses the mouse where it is, with no waiting for it to be stable or enabled, and no retry. */
async function aimAndClick(page: Page, target: Locator): Promise<void> {
  await target.evaluate((element) => element.scrollIntoView({block: 'center', behavior: 'instant'}));
  const box = await target.boundingBox();
  if (!box) throw new Error('The target has no box');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** A part a reader clicks, and how to tell the click took effect. */
interface Target {
  name: string;
  locate: (page: Page) => Locator;
  tookEffect: (page: Page, target: Locator, load: string) => Promise<void>;
}

/**
 * `count` fresh loads of `path`, each with one press right after hydration on the next of `targets` in
 * turn (so a page with two widgets has each pressed first on half the loads), checked at once.
 */
async function firstPressOnEveryLoad(
  page: Page,
  path: string,
  targets: Target[],
  press: (page: Page, target: Locator) => Promise<void> = aimAndClick,
  count = loads,
): Promise<void> {
  for (let load = 1; load <= count; load += 1) {
    const target = targets[(load - 1) % targets.length] as Target;
    await freshHydratedLoad(page, path);
    const element = target.locate(page);
    await press(page, element);
    await target.tookEffect(page, element, `${path}, load ${load} of ${count}: ${target.name}`);
  }
}

/** Like aimAndClick, with a finger: a tap where the target is, no waiting and no retry. */
async function aimAndTap(page: Page, target: Locator): Promise<void> {
  await target.evaluate((element) => element.scrollIntoView({block: 'center', behavior: 'instant'}));
  const box = await target.boundingBox();
  if (!box) throw new Error('The target has no box');
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

const tryItOpener: Target = {
  name: 'the Try it opener opens its panel',
  locate: (page) => page.locator('[data-api-reference] button[aria-expanded][aria-controls$="-pane"]').first(),
  tookEffect: (_page, opener, load) => expect(opener, load).toHaveAttribute('aria-expanded', 'true', {timeout: 2000}),
};

const codeSampleTab: Target = {
  name: 'a code-sample tab is selected',
  locate: (page) => page.locator('[data-api-main]').getByRole('tab', {name: 'Python'}).first(),
  tookEffect: (_page, tab, load) => expect(tab, load).toHaveAttribute('aria-selected', 'true', {timeout: 2000}),
};

const sandboxOrderButton: Target = {
  name: "the home page's sandbox order starts",
  locate: (page) => page.getByRole('button', {name: 'Create a sandbox order'}),
  // The run leaves "idle" at once (running, then done); a lost press leaves it idle.
  tookEffect: (page, _button, load) =>
    expect(page.locator('section[data-run]'), load).not.toHaveAttribute('data-run', 'idle', {timeout: 2000}),
};

const mobileMenuToggle: Target = {
  name: 'the menu opens',
  locate: (page) => page.getByRole('button', {name: 'Toggle navigation bar'}),
  tookEffect: (_page, toggle, load) => expect(toggle, load).toHaveAttribute('aria-expanded', 'true', {timeout: 2000}),
};

const tocLink: Target = {
  // A link far down the list: the heading is many code blocks below the first screen.
  name: 'a table-of-contents link scrolls to its heading',
  locate: (page) => page.locator('.table-of-contents a[href^="#"]').nth(-2),
  tookEffect: async (page, link, load) => {
    const id = decodeURIComponent((await link.getAttribute('href'))?.slice(1) ?? '');
    await expect(page, load).toHaveURL(new RegExp(`#${id}$`), {timeout: 2000});
    await expect
      .poll(() => page.evaluate((headingId) => document.getElementById(headingId)?.getBoundingClientRect().top ?? NaN, id), {
        message: `${load}: heading in view`,
      })
      .toBeLessThan(200);
  },
};

test.beforeEach(async ({page}) => {
  // Each load starts as a first visit: no remembered tab choice or opened panel.
  await page.addInitScript(() => window.localStorage.clear());
  // A load takes about a second on a quiet machine and several under the full suite; the budget leaves room.
  test.setTimeout(240_000);
});

test.describe('at desktop width', () => {
  test.use({viewport: {width: 1280, height: 800}});

  test(`an API page's Try it opener and code-sample tabs take the first click right after hydration, ${loads} fresh loads`, async ({
    page,
  }) => {
    await firstPressOnEveryLoad(page, '/docs/createorder', [tryItOpener, codeSampleTab]);
  });

  test(`the home page's sandbox order and a guide's table of contents take the first click right after hydration, ${loads} fresh loads`, async ({
    page,
  }) => {
    // Half the loads each: the home demo runs the engine on every press, and the TOC landing is also checked by layout-stability.spec.ts.
    await firstPressOnEveryLoad(page, '/', [sandboxOrderButton], aimAndClick, loads / 2);
    await firstPressOnEveryLoad(page, '/docs/integration-guide', [tocLink], aimAndClick, loads / 2);
  });
});

test.describe('on a phone', () => {
  test.use({viewport: {width: 390, height: 844}, hasTouch: true});

  test(`an API page's menu toggle and code-sample tabs take the first tap right after hydration, ${loads} fresh loads`, async ({page}) => {
    await firstPressOnEveryLoad(page, '/docs/createorder', [mobileMenuToggle, codeSampleTab], aimAndTap);
  });
});
