import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';

/**
 * Issue 31: an API page's long explanations fold (ui/Fold), and its state diagrams are drawn for phones. A folded
 * section opens for a #fragment inside it or on its heading, for a link to it, for printing and from the keyboard;
 * at 390 px a state diagram gives way to its transitions, which read at 12 px or more with nothing cut.
 */

const apiPage = '/docs/createorder';
const notificationPage = '/docs/payment/payment-result-notification';

async function hydrated(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true', {timeout: 20_000});
}

/** The fold right under the heading with this id. */
function foldAfter(page: Page, headingId: string) {
  return page.locator(`[id="${headingId}"] + details[data-fold]`);
}

test.describe('long sections of an API page fold', () => {
  test.use({viewport: {width: 1280, height: 800}});

  test('a prose section past the first starts folded, and its summary opens and folds it from the keyboard', async ({clean: {page}}) => {
    await page.goto(apiPage);
    await hydrated(page);
    const fold = foldAfter(page, 'how-it-works');
    await expect(fold).toHaveCount(1);
    expect(await fold.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    const summary = fold.locator('> summary');
    await expect(summary).toContainText('Show “How it works”');
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => fold.evaluate((details: HTMLDetailsElement) => details.open)).toBe(true);
    await expect(summary).toContainText('Fold “How it works”');
    await page.keyboard.press(' ');
    await expect.poll(() => fold.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    // The request and the code samples are what a reader comes for: open, and still foldable.
    for (const id of ['api-request', 'api-code-samples']) {
      expect(await foldAfter(page, id).evaluate((details: HTMLDetailsElement) => details.open), id).toBe(true);
    }
    // The first section, which the first screen shows, does not fold.
    await expect(page.locator('article details[data-fold]').first().locator('> summary')).not.toHaveText(/When to use it/);
  });

  test('a #fragment inside a folded section, loaded fresh, opens it and lands on its heading', async ({clean: {page}}) => {
    await page.goto(`${notificationPage}#verify-the-notification`);
    await hydrated(page);
    await page.waitForLoadState('networkidle');
    const heading = page.locator('[id="verify-the-notification"]');
    await expect(heading).toBeVisible();
    expect(await heading.evaluate((element) => element.closest('details')?.open)).toBe(true);
    const where = await heading.evaluate((element) => ({
      top: element.getBoundingClientRect().top,
      margin: parseFloat(getComputedStyle(element).scrollMarginTop) || 0,
    }));
    expect(Math.abs(where.top - where.margin), `heading top ${where.top}, margin ${where.margin}`).toBeLessThanOrEqual(4);
  });

  test("a link to a folded section's heading, clicked in the page, opens the section", async ({clean: {page}}) => {
    await page.goto(apiPage);
    await hydrated(page);
    const fold = foldAfter(page, 'api-response-codes');
    expect(await fold.evaluate((details: HTMLDetailsElement) => details.open)).toBe(false);
    // A table-of-contents or search link is an anchor to the heading: one made here stands for them.
    await page.evaluate(() => {
      const link = document.createElement('a');
      link.href = '#api-response-codes';
      link.textContent = 'Response codes';
      link.id = 'probe-link';
      document.querySelector('article')?.prepend(link);
    });
    await page.locator('#probe-link').click();
    await expect.poll(() => fold.evaluate((details: HTMLDetailsElement) => details.open)).toBe(true);
    await expect(fold.locator('table tbody tr[data-result-code]').first()).toBeVisible();
  });

  test('every folded section opens for printing', async ({clean: {page}}) => {
    await page.goto(apiPage);
    await hydrated(page);
    const closed = () =>
      page.locator('details[data-fold]').evaluateAll((folds) => folds.filter((details) => !(details as HTMLDetailsElement).open).length);
    expect(await closed()).toBeGreaterThan(0);
    await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
    await expect.poll(closed).toBe(0);
  });
});

test.describe('state diagrams on a phone', () => {
  test.use({viewport: {width: 390, height: 844}});

  for (const mode of ['light', 'dark'] as const) {
    test(`at 390 px in ${mode} mode, a state diagram is its transitions: text of 12 px or more, nothing cut or overflowing`, async ({
      clean: {page},
    }) => {
      await page.goto(`${apiPage}?docusaurus-theme=${mode}#api-states-orderstatus`);
      await hydrated(page);
      const fold = foldAfter(page, 'api-states-orderstatus');
      await expect.poll(() => fold.evaluate((details: HTMLDetailsElement) => details.open)).toBe(true);
      const figure = fold.locator('figure[data-diagram][data-phone="transitions"]');
      await expect(figure).toHaveCount(1);
      // The drawing (edge labels a few pixels tall at this width) is not shown; the note says where the diagram went.
      await expect(figure.locator('img:visible')).toHaveCount(0);
      await expect(figure.getByText('On a narrow screen this diagram is the list of transitions below')).toBeVisible();
      const transitions = fold.locator('table').filter({has: page.locator('caption', {hasText: 'Transitions of OrderStatus'})});
      await expect(transitions.locator('tbody tr').first()).toBeVisible();
      const problems = await fold.evaluate((details) => {
        const found: string[] = [];
        const width = document.documentElement.clientWidth;
        for (const element of details.querySelectorAll('figure[data-diagram] *, table *')) {
          const box = element.getBoundingClientRect();
          if (box.width <= 1 || box.height <= 1) continue; // not shown on a phone, or visually hidden (a card table's header row)
          const hasText = [...element.childNodes].some((node) => node.nodeType === Node.TEXT_NODE && node.textContent?.trim());
          const size = parseFloat(getComputedStyle(element).fontSize);
          if (hasText && size < 12) found.push(`${element.tagName} "${element.textContent?.trim().slice(0, 30)}" at ${size} px`);
          if (box.left < -1 || box.right > width + 1)
            found.push(
              `${element.tagName} "${element.textContent?.trim().slice(0, 30)}" runs from ${Math.round(box.left)} to ${Math.round(box.right)} px`,
            );
          if (element.scrollWidth > element.clientWidth + 1 && getComputedStyle(element).overflowX !== 'visible')
            found.push(`${element.tagName} scrolls sideways`);
        }
        return found;
      });
      expect(problems).toEqual([]);
      // No word broken: a state name stays on one line.
      const stateNames = await transitions
        .locator('tbody code')
        .evaluateAll((codes) => codes.filter((code) => code.getClientRects().length > 1).map((code) => code.textContent));
      expect(stateNames, 'state names broken over lines').toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    });
  }
});
