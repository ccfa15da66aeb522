/**
 * The layout an API page promises (issue 31): its endpoint block's button (Try it, or Simulate on a notification
 * page) in the first viewport, and every table beside the example pane fitting its column.
 */
import path from 'node:path';
import type {Page} from '@playwright/test';
import {scanApiPages} from '../../src/contract/node/apiPages';
import {loadContract} from '../../src/contract/node/loadContract';
import {repoRoot} from './routeContract';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first viewport the button must be in: a common laptop screen. */
export const firstViewport = {width: 1280, height: 800};

/** Every API page (operations and notifications), by URL, with the label of its endpoint block's button. */
export const apiPageButtons: ReadonlyMap<string, RegExp> = (() => {
  const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
  return new Map(
    scanApiPages(repoRoot).map((page) => {
      const location = contract.operations.get(page.operationId);
      const summary = location?.operation.summary ?? page.operationId;
      return [page.url, location?.kind === 'webhook' ? /^Simulate a / : new RegExp(`^Try ${escapeRegExp(summary)} in the sandbox$`)];
    }),
  );
})();

/** Where the endpoint block's button is, when it is not wholly in the first viewport (the page at its top); undefined when it is. */
export async function buttonOutsideFirstViewport(page: Page, label: RegExp): Promise<string | undefined> {
  const buttons = page.locator('[data-api-reference] button[aria-controls]').filter({hasText: label});
  const count = await buttons.count();
  if (count !== 1) return `${count} buttons named ${String(label)}`;
  const box = await buttons.boundingBox();
  if (box && box.y >= 0 && box.y + box.height <= firstViewport.height) return undefined;
  return box ? `at ${Math.round(box.y)} px` : 'not shown';
}

/** The names of the API page's table boxes whose table is wider than the box (it scrolls sideways), its folds opened. */
export async function tablesWiderThanTheirBox(page: Page): Promise<string[]> {
  await page.locator('[data-api-reference] details:not([open])').evaluateAll((folds) => {
    for (const fold of folds) (fold as HTMLDetailsElement).open = true;
  });
  return page
    .locator('[data-api-reference] [role="region"]:has(table)')
    .evaluateAll((boxes) =>
      boxes.filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => box.getAttribute('aria-label') ?? 'unnamed'),
    );
}
