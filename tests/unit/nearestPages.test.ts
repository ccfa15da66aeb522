import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {editDistance, nearestPages, searchWords, type SitePage} from '../../src/lib/nearestPages';

const pages: SitePage[] = [
  {path: '/docs/createorder', title: 'Create order'},
  {path: '/docs/cancel', title: 'Cancel order'},
  {path: '/docs/refund', title: 'Refund order'},
  {path: '/docs/refund/order-refund-query', title: 'Query a refund'},
  {path: '/docs/transfer-to-bank/transfer-to-bank', title: 'Transfer to bank'},
  {path: '/demos/hosted-paypage', title: 'Hosted pay page demo'},
  {path: '/docs/online-payment-integration/checkout/hosted-paypage', title: 'Hosted pay page'},
];

describe('nearest pages of the not-found page', () => {
  test('edit distance', () => {
    assert.equal(editDistance('creatorder', 'createorder'), 1);
    assert.equal(editDistance('', 'abc'), 3);
    assert.equal(editDistance('kitten', 'sitting'), 3);
  });

  const cases: Array<[string, string[]]> = [
    ['/docs/creatorder', ['/docs/createorder']],
    ['/docs/refnd', ['/docs/refund']],
    ['/docs/Refund/', ['/docs/refund']],
    ['/docs/transfer-to-bnk', ['/docs/transfer-to-bank/transfer-to-bank']],
    ['/hosted-paypage', ['/demos/hosted-paypage', '/docs/online-payment-integration/checkout/hosted-paypage']],
    ['/this-page-does-not-exist', []],
  ];
  for (const [missing, expected] of cases) {
    test(`${missing} -> ${expected.join(', ') || 'nothing'}`, () => {
      assert.deepEqual(
        nearestPages(missing, pages).map((page) => page.path),
        expected,
      );
    });
  }

  test('search words from the address', () => {
    assert.equal(searchWords('/docs/transfer-to-bnk/'), 'transfer to bnk');
    assert.equal(searchWords('/'), '');
  });
});
