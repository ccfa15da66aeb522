/**
 * Diagrams drawn for their screen (issue 31). At 1280 px a sequence diagram shows its text at 12 px or more and
 * scrolls, with a hint, only in a column narrower than it. On a 390 px phone a sequence diagram keeps its drawn size, so
 * its text is as large as drawn (12 px or more), and scrolls sideways in its own labelled box with a hint,
 * while the page itself does not; the first participant is on screen at once.
 */
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {smallestShownText} from '../support/diagramText';

test('a sequence diagram on a 390 px phone: drawn size in a sideways scroller with a hint, the page does not scroll', async ({
  clean: {page},
}) => {
  await page.setViewportSize({width: 390, height: 844});
  await page.goto('/docs/online-payment-integration/checkout/hosted-paypage');
  const figure = page.locator('figure[data-phone="scroll"]').first();
  const scroller = figure.getByRole('region', {name: /^Sequence diagram between .* Scrolls sideways\.$/});
  await scroller.scrollIntoViewIfNeeded();
  const image = scroller.locator('img:visible');
  await expect(image).toHaveJSProperty('complete', true);
  const drawn = Number(await image.getAttribute('width'));
  const shown = (await image.boundingBox())?.width ?? 0;
  expect(Math.abs(shown - drawn), 'shown at its drawn width, not shrunk').toBeLessThanOrEqual(1);
  // The drawn text size, read from the SVG file itself, as shown.
  const text = await smallestShownText(image);
  expect(text.texts).toBeGreaterThan(0);
  expect(text.shown, 'smallest text in the drawing as shown, px').toBeGreaterThanOrEqual(12);
  if (drawn > 390) {
    expect(await scroller.evaluate((box) => box.scrollWidth > box.clientWidth), 'the box scrolls').toBe(true);
    await expect(figure.getByText('Scroll sideways for the other participants →')).toBeVisible();
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page does not scroll sideways').toBeLessThanOrEqual(0);
});

test('sequence diagrams at 1280 px: 12 px text or more; they fit the docs column, and scroll with a hint in a narrower one', async ({
  clean: {page},
}) => {
  await page.setViewportSize({width: 1280, height: 800});
  const hintOpacity = (figure: ReturnType<typeof page.locator>) =>
    figure.getByText('Scroll sideways for the other participants →').evaluate((hint) => Number(getComputedStyle(hint).opacity));
  // The guide's column (about 700 px): the drawing fits, nothing to scroll, no hint.
  await page.goto('/docs/integration-guide');
  const wide = page.locator('figure[data-phone="scroll"]').first();
  const wideBox = wide.getByRole('region');
  await wideBox.scrollIntoViewIfNeeded();
  expect((await smallestShownText(wideBox.locator('img:visible'))).shown, 'guide: smallest text, px').toBeGreaterThanOrEqual(12);
  expect(await wideBox.evaluate((box) => box.scrollWidth - box.clientWidth), 'guide: fits its column').toBeLessThanOrEqual(0);
  expect(await hintOpacity(wide), 'guide: no hint').toBe(0);
  // An API page's explanation pane (about 520 px) is narrower than a five-lane flow: it scrolls, and says so.
  await page.goto('/docs/agreements/create-agreement');
  await page.evaluate(() => document.querySelectorAll('details:not([open])').forEach((fold) => ((fold as HTMLDetailsElement).open = true)));
  const narrow = page.locator('figure[data-phone="scroll"]').first();
  const narrowBox = narrow.getByRole('region');
  await narrowBox.scrollIntoViewIfNeeded();
  expect((await smallestShownText(narrowBox.locator('img:visible'))).shown, 'API page: smallest text, px').toBeGreaterThanOrEqual(12);
  expect(await narrowBox.evaluate((box) => box.scrollWidth - box.clientWidth), 'API page: the box scrolls').toBeGreaterThan(0);
  await expect.poll(() => hintOpacity(narrow), 'API page: the hint shows').toBe(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'the page does not scroll sideways').toBeLessThanOrEqual(0);
});
