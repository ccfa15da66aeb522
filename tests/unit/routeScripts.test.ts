import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {addRequestOrigins} from '../../plugins/performance/route-scripts';

const manifest = {
  entrypoints: ['main'],
  origins: {
    main: ['runtime~main', 'main'],
    '17896441': ['3358', '4014', '106'],
    a9461516: ['3358', 'a94'],
  },
  assets: {},
};

describe('route chunks in the client manifest', () => {
  test('adds each import request as a key with its chunk list, keeping the chunk-name keys', () => {
    const result = addRequestOrigins(
      manifest,
      new Map([
        ['17896441', ['@theme/DocItem']],
        ['a9461516', ['@site/docs/payment/createorder.md']],
      ]),
    );
    assert.deepEqual(result.origins['@theme/DocItem'], ['3358', '4014', '106']);
    assert.deepEqual(result.origins['@site/docs/payment/createorder.md'], ['3358', 'a94']);
    assert.deepEqual(result.origins['17896441'], ['3358', '4014', '106']);
    assert.deepEqual(result.entrypoints, ['main']);
  });

  test('skips groups the manifest does not know and never overwrites an existing key', () => {
    const result = addRequestOrigins(
      manifest,
      new Map([
        ['unknown', ['@theme/Nothing']],
        ['17896441', ['main']],
      ]),
    );
    assert.equal(result.origins['@theme/Nothing'], undefined);
    assert.deepEqual(result.origins.main, ['runtime~main', 'main']);
  });

  test('fails when one request would lead to two different chunk lists', () => {
    assert.throws(
      () =>
        addRequestOrigins(
          manifest,
          new Map([
            ['17896441', ['@theme/DocItem']],
            ['a9461516', ['@theme/DocItem']],
          ]),
        ),
      /"@theme\/DocItem" leads to two chunk lists/,
    );
  });
});
