/**
 * axe-core run inside the page, injected once per document.
 *
 * Not @axe-core/playwright: its analyze() evaluates axe's 560 kB source twice per scan even in its
 * legacy mode and, by default, also opens a blank tab and injects it a third time to merge the
 * results of frames. The site has no frames (every page test checks it), so that was 1 to 2 s of a
 * 0.5 to 1 s scan here, on over a hundred scans.
 */
import {readFileSync} from 'node:fs';
import type {Page} from '@playwright/test';
import type * as Axe from 'axe-core';

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeScan {
  /** Run only these rules… */
  rules?: string[];
  /** …or every rule with one of these tags… */
  tags?: string[];
  /** …except these. */
  disableRules?: string[];
  /** Leave these parts of the page out (CSS selectors). */
  exclude?: string[];
  /**
   * Fetch and parse the stylesheets first. Only css-orientation-lock reads them, so scans that
   * cannot include it skip the work.
   */
  readsStylesheets?: boolean;
}

/** The scan's violations, one line each: rule, impact, help and up to three places. */
export async function axeViolations(page: Page, scan: AxeScan): Promise<string[]> {
  const injected = await page.evaluate(() => 'axe' in window);
  if (!injected) await page.evaluate(axeSource);
  if (!scan.rules && !scan.tags) throw new Error('an axe scan names its rules or its tags');
  const options: Axe.RunOptions = {
    runOnly: scan.rules ? {type: 'rule', values: scan.rules} : {type: 'tag', values: scan.tags ?? []},
    rules: Object.fromEntries((scan.disableRules ?? []).map((id) => [id, {enabled: false}])),
    preload: scan.readsStylesheets ?? false,
    // Passes and incomplete results are not read; skipping their node details saves serialising them.
    resultTypes: ['violations'],
  };
  const exclude = (scan.exclude ?? []).map((selector) => [selector]);
  const violations = await page.evaluate(
    async ({exclude, options}) => {
      const axe = (window as unknown as {axe: typeof Axe}).axe;
      const results = await axe.run(exclude.length > 0 ? {exclude} : document, options);
      return results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    },
    {exclude, options},
  );
  return violations.map((v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.help} at ${v.targets.slice(0, 3).join(', ')}`);
}
