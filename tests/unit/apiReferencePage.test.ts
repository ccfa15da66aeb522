/**
 * The API page's models: the endpoint block and pane of <ApiReference> (src/components/api/ApiReference/model.ts)
 * and Try it's timeline, shopper follow-up and anchoring (src/components/widgets/TryItPanel/model.ts); and every
 * API page hides the table of contents, whose place the example pane takes.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {buildOperationView} from '../../src/contract/apiModel';
import {endpointBlock, firstSuccessExample} from '../../src/components/api/ApiReference/model';
import {
  afterShopper,
  anchorScroll,
  callEntry,
  shopperEntry,
  timelineLength,
  withEntry,
} from '../../src/components/widgets/TryItPanel/model';
import {formatAmount} from '../../src/components/widgets/SandboxConsole/view';
import {scanApiPages} from '../../src/contract/node/apiPages';
import {loadContract} from '../../src/contract/node/loadContract';
import {renderMarkdown} from '../../plugins/content/openapi-contract/markdown';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const view = (operationId: string) => {
  const location = contract.operations.get(operationId);
  assert.ok(location, operationId);
  return buildOperationView(contract.document, location, renderMarkdown);
};

describe('ApiReference model', () => {
  test('an operation: the path with its base path, the sandbox URL and Try it', () => {
    const block = endpointBlock(view('createOrder'));
    assert.equal(block.method, 'POST');
    assert.equal(block.path, '/v1/orders');
    assert.equal(block.sandboxUrl, 'https://sandbox-api.example.com/v1/orders');
    assert.equal(block.panel, 'try-it');
    assert.equal(block.openLabel, 'Try Create order in the sandbox');
  });

  test('a notification: no sandbox URL, and the simulator', () => {
    const block = endpointBlock(view('paymentResultNotification'));
    assert.equal(block.sandboxUrl, undefined);
    assert.equal(block.panel, 'notification-simulator');
    assert.match(block.openLabel, /^Simulate a payment result notification$/);
  });

  test('the pane shows the first 2xx example', () => {
    const success = firstSuccessExample(view('createOrder'));
    assert.equal(success?.status, '200');
    assert.match(success?.json ?? '', /"code": "SUCCESS"/);
  });

  test('every API page hides the table of contents, whose place the pane takes', () => {
    const missing = scanApiPages(repoRoot)
      .map((page) => page.file)
      .filter((file) => !/^hide_table_of_contents: true$/m.test(readFileSync(path.join(repoRoot, file), 'utf8').split(/^---$/m)[1] ?? ''));
    assert.deepEqual(missing, []);
  });
});

describe('Try it model', () => {
  const at = new Date('2026-11-26T14:05:09Z');

  test('the timeline keeps the newest entries, calls with their status and code', () => {
    let timeline = withEntry([], callEntry(at, {method: 'POST', target: '/v1/orders', status: 200, code: 'SUCCESS'}));
    assert.deepEqual(timeline, [{at: '14:05:09', kind: 'call', text: 'POST /v1/orders → HTTP 200 SUCCESS', ok: true}]);
    assert.equal(callEntry(at, {method: 'GET', target: '/v1/orders/X', status: 404, code: 'ORDER_NOT_FOUND'}).ok, false);
    for (let index = 0; index < timelineLength + 3; index += 1)
      timeline = withEntry(timeline, shopperEntry(at, 'pay', {orderNo: `ORD-${index}`, cardNumber: '4111'}));
    assert.equal(timeline.length, timelineLength);
    assert.match(timeline[timeline.length - 1]?.text ?? '', /ORD-10$/);
    assert.equal(shopperEntry(at, 'expire', {orderNo: 'X', cardNumber: '1'}).text, 'Sandbox clock moved on 7 days');
  });

  test('after a shopper action the panel retrieves that order by itself', () => {
    assert.deepEqual(afterShopper('ORD-1'), {operationId: 'retrieveOrderDetail', values: {merchantOrderNo: 'ORD-1'}, send: true});
  });

  test('anchoring moves only when the panel top is out of the upper half or under the navbar', () => {
    assert.equal(anchorScroll(200, 60, 800), 0);
    assert.equal(anchorScroll(-900, 60, 800), -968);
    assert.equal(anchorScroll(700, 60, 800), 632);
    assert.equal(anchorScroll(30, 60, 800), -38);
  });
});

describe('Sandbox console amounts', () => {
  test('major units with thousands grouped, the sign in front', () => {
    assert.equal(formatAmount(99999750, 'USD'), '999,997.50 USD');
    assert.equal(formatAmount(-125000, 'USD'), '−1,250.00 USD');
    assert.equal(formatAmount(1234567, 'JPY'), '1,234,567 JPY');
    assert.equal(formatAmount(5, 'USD'), '0.05 USD');
  });
});
