/**
 * I-4: one ordering rule for notifications, in one place (docs/_partials/notification-ordering.mdx). Every page
 * that talks about the order in which notifications or answers arrive renders that partial, and no page states
 * another rule (comparing `updatedAt`, "ignore anything older"), which cannot order two changes of one second.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {readContentFiles} from '../../src/contract/node/contentFiles';
import {repoRoot} from '../support/routeContract';

const partial = 'docs/_partials/notification-ordering.mdx';
/** Words that mean a page is about the order of deliveries (not, say, the order of JSON members). */
const aboutOrdering = /out of order|arrive in any order|ignore anything older|older than what|which answer is newer|late retry/i;
/** Rules the review found wrong or that would drift from the partial. */
const otherRules = [/compare `updatedAt`/i, /ignore anything older/i, /updatedAt\s*<=/, /only forward steps of the state machine/i];

test('the partial states the version rule once', () => {
  const text = readFileSync(path.join(repoRoot, partial), 'utf8');
  assert.match(
    text,
    /Apply a notification only if its `data\.version` is greater than the `version` you hold; otherwise ignore it, because it is stale or a duplicate/,
  );
  assert.match(text, /Never move an object out of a final state/);
});

test('every page that talks about the order of notifications renders the ordering rule, and none states another', () => {
  const pages = readContentFiles(repoRoot).filter((file) => file.file.startsWith('docs/'));
  const talking = pages.filter((file) => aboutOrdering.test(file.text));
  assert.ok(talking.length >= 8, `found ${talking.length} pages about ordering`);
  for (const page of talking) {
    assert.match(
      page.text,
      /^import NotificationOrdering from '@site\/docs\/_partials\/notification-ordering\.mdx';$/m,
      `${page.file} imports the rule`,
    );
    assert.match(page.text, /^<NotificationOrdering \/>$/m, `${page.file} renders the rule`);
  }
  for (const page of pages) {
    for (const rule of otherRules) assert.doesNotMatch(page.text, rule, `${page.file} states another ordering rule`);
  }
});
