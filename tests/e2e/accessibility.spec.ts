import AxeBuilder from '@axe-core/playwright';
import {expect, test} from '@playwright/test';
import {allPages, loadRouteContract} from '../support/routeContract';

const contract = loadRouteContract();

/** WCAG 2.1 A and AA rules, plus axe's best practices. */
const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

test.describe('axe finds no accessibility violation', () => {
  for (const path of allPages(contract)) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${path} (${theme})`, async ({page}) => {
        await page.goto(`${path}?docusaurus-theme=${theme}`);
        await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        // Diagrams render after hydration; scan them as readers see them.
        await page.waitForLoadState('networkidle');
        const results = await new AxeBuilder({page}).withTags(tags).analyze();
        const summary = results.violations.map(
          (violation) => `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).slice(0, 3).join(', ')}`,
        );
        expect(summary).toEqual([]);
      });
    }
  }
});
