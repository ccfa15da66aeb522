/**
 * The accessibility scans check contrast on one text element per distinct style, not on every one (tests/support/axe.ts):
 * a code block's hundreds of spans come in a dozen styles. Here the sampled scan must find what the full scan finds:
 * nothing on the page as built, and a violation wherever a style is made too faint, whether it is a code token's
 * colour, a table cell's, or a single paragraph's own.
 */
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';

const contrastRule = {rules: ['color-contrast']};
const faults: Record<string, string | undefined> = {
  'the page as built': undefined,
  'one code token style': '.token.string { color: #cfcfcf !important }',
  'the code in table cells': 'table td code { color: #c4c4c4 !important }',
  'one paragraph': 'article p:nth-of-type(3) { color: #cacaca !important }',
};

test.describe('sampled contrast checks find what the full check finds', () => {
  for (const [fault, css] of Object.entries(faults)) {
    test(`${fault}: ${css ? 'both report the contrast violation' : 'neither reports anything'}`, async ({warm: {page}}) => {
      await page.goto('/docs/rate-limits');
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      if (css) await page.addStyleTag({content: css});
      const full = await axeViolations(page, {...contrastRule, everyTextElement: true});
      const sampled = await axeViolations(page, contrastRule);
      expect(full.length, `full scan with ${fault}`).toBe(css ? 1 : 0);
      expect(
        sampled.map((line) => line.replace(/ at .*/, '')),
        `sampled scan with ${fault}`,
      ).toEqual(full.map((line) => line.replace(/ at .*/, '')));
    });
  }
});
