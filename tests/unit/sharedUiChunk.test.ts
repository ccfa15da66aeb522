import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import {sharedUiModules} from '../../plugins/performance/shared-ui-chunk';

const ui = path.resolve(import.meta.dirname, '../../src/components/ui');

describe('shared-ui-chunk', () => {
  test('takes the three shared components, each still where the pattern looks, and no other', () => {
    for (const name of ['Button', 'TableScroller', 'BreakAfter']) {
      const file = path.join(ui, name, 'index.tsx');
      assert.ok(existsSync(file), `${file} moved: update sharedUiModules`);
      assert.ok(sharedUiModules.test(file), file);
    }
    for (const name of ['Field', 'CopyButton', 'OnDemand']) assert.ok(!sharedUiModules.test(path.join(ui, name, 'index.tsx')), name);
  });
});
