import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import sharedChunksPlugin, {type sharedChunkGroups, sharedUiModules} from '../../plugins/performance/shared-chunks';

const ui = path.resolve(import.meta.dirname, '../../src/components/ui');

describe('shared-chunks', () => {
  test('shared-ui takes the three shared components, each still where the pattern looks, and no other', () => {
    for (const name of ['Button', 'TableScroller', 'BreakAfter']) {
      const file = path.join(ui, name, 'index.tsx');
      assert.ok(existsSync(file), `${file} moved: update sharedUiModules`);
      assert.ok(sharedUiModules.test(file), file);
    }
    for (const name of ['Field', 'CopyButton', 'OnDemand']) assert.ok(!sharedUiModules.test(path.join(ui, name, 'index.tsx')), name);
  });

  test('the client build gets both groups, for chunks loaded on demand only; the server build none', () => {
    const plugin = sharedChunksPlugin();
    const configure = plugin.configureWebpack as (
      config: object,
      isServer: boolean,
    ) => {optimization?: {splitChunks?: {cacheGroups?: object}}};
    assert.deepEqual(configure({}, true), {});
    const groups = configure({}, false).optimization?.splitChunks?.cacheGroups as typeof sharedChunkGroups;
    assert.deepEqual(Object.keys(groups).sort(), ['sharedByRoutes', 'sharedUi']);
    for (const group of Object.values(groups)) assert.equal(group.chunks, 'async');
    // Shared by two route chunks or more, below every named group (core's `common` is 40, page-type-styles' 60).
    assert.equal(groups.sharedByRoutes.minChunks, 2);
    assert.ok(groups.sharedByRoutes.priority < 0);
  });
});
