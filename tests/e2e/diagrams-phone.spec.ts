/**
 * Diagrams drawn for their screen (issue 31): on a 390 px phone a sequence diagram keeps its drawn size, so
 * its text is as large as drawn (12 px or more), and scrolls sideways in its own labelled box with a hint,
 * while the page itself does not; the first participant is on screen at once.
 */
import {expect, test} from '@playwright/test';
import {smallestShownText} from '../support/diagramText';

test('a sequence diagram on a 390 px phone: drawn size in a sideways scroller with a hint, the page does not scroll', async ({page}) => {
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
