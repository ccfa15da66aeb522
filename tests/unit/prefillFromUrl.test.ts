/**
 * Try it opened from a link (src/components/widgets/TryItPanel/prefillFromUrl.ts), on the real contract: a
 * link made for an operation's page opens its panel with the parameters and body fields it carries, every
 * operation has a page to link to, and a link cannot reach beyond the body it fills.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {opensTryIt, prefillFromSearch, tryItLink, withBodyFields} from '../../src/components/widgets/TryItPanel/prefillFromUrl';
import {data} from '../support/tryItFixture';

const retrieve = data.operations.find((operation) => operation.operationId === 'retrieveOrderDetail');

describe('Try it prefilled from a link', () => {
  test('every operation knows its page', () => {
    const missing = data.operations.filter((operation) => !operation.page?.startsWith('/docs/')).map((operation) => operation.operationId);
    assert.deepEqual(missing, []);
  });

  test('a link to Retrieve order detail opens its panel with the order number, and reads back the same', () => {
    assert.ok(retrieve);
    const link = tryItLink(retrieve, {values: {merchantOrderNo: 'ORD 1/2'}});
    assert.equal(link, `${retrieve.page}?try-it&merchantOrderNo=ORD+1%2F2`);
    const search = (link ?? '').slice((link ?? '').indexOf('?'));
    assert.equal(opensTryIt(search), true);
    assert.deepEqual(prefillFromSearch(search, retrieve), {values: {merchantOrderNo: 'ORD 1/2'}, body: {}});
  });

  test('without try-it nothing is filled; names the operation lacks are left alone', () => {
    assert.ok(retrieve);
    assert.equal(prefillFromSearch('?merchantOrderNo=ORD-1', retrieve), undefined);
    assert.equal(opensTryIt('?language=python'), false);
    assert.deepEqual(prefillFromSearch('?try-it&language=python&merchantOrderNo=ORD-1', retrieve)?.values, {merchantOrderNo: 'ORD-1'});
  });

  test('body fields keep the type of the value they replace and create objects on the way', () => {
    const body = JSON.stringify({amount: {value: 100, currency: 'USD'}, subject: 'x'});
    const filled = JSON.parse(withBodyFields(body, {'amount.value': '4251', subject: '42', 'extra.note': 'hi'})) as unknown;
    assert.deepEqual(filled, {amount: {value: 4251, currency: 'USD'}, subject: '42', extra: {note: 'hi'}});
  });

  test('a link cannot reach a prototype, and a body that is not an object stays as written', () => {
    const filled = withBodyFields('{"a":1}', {'__proto__.polluted': 'yes', 'constructor.prototype.x': '1'});
    assert.deepEqual(JSON.parse(filled), {a: 1});
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(withBodyFields('not json', {a: '1'}), 'not json');
  });
});
