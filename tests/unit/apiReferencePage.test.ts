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
  exampleBody,
  shopperEntry,
  timelineLength,
  withEntry,
} from '../../src/components/widgets/TryItPanel/model';
import {formatAmount} from '../../src/components/widgets/SandboxConsole/view';
import {breakParts} from '../../src/components/ui/BreakAfter';
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

  test('the form starts from an example whose subject and returnUrl name the merchantOrderNo it sends', () => {
    const examples = view('createOrder').requestExamples;
    assert.ok(examples.length > 0);
    let subjects = 0;
    for (const example of examples) {
      const given = example.value as Record<string, unknown>;
      const body = exampleBody(example.value, at.getTime()) as Record<string, unknown>;
      // The example's leading letters ("ORD", "SUB"), then the time.
      const number = `${/^[A-Z]+/.exec(String(given['merchantOrderNo']))?.[0] ?? ''}-${at.getTime()}`;
      assert.equal(body['merchantOrderNo'], number, example.name);
      assert.ok(!JSON.stringify(body).includes(String(given['merchantOrderNo'])), `${example.name}: the example's number is gone`);
      if (!String(given['subject']).includes(String(given['merchantOrderNo']))) continue;
      subjects += 1;
      assert.equal(body['subject'], String(given['subject']).replace(String(given['merchantOrderNo']), number), example.name);
    }
    // The first example, which the form opens on, names its order in the subject ("Order ORD-20250601-0001").
    assert.match(String((examples[0]?.value as Record<string, unknown>)['subject']), /^Order ORD-/);
    assert.ok(subjects > 0);
    // A call about an existing order names that order wherever the example named its own.
    const onOrder = exampleBody({merchantOrderNo: 'ORD-20250601-0001', reason: 'Refund ORD-20250601-0001'}, at.getTime(), 'ORD-7');
    assert.deepEqual(onOrder, {merchantOrderNo: 'ORD-7', reason: 'Refund ORD-7'});
  });

  test('anchoring moves only when the panel top is out of the upper half or under the navbar', () => {
    assert.equal(anchorScroll(200, 60, 800), 0);
    assert.equal(anchorScroll(-900, 60, 800), -968);
    assert.equal(anchorScroll(700, 60, 800), 632);
    assert.equal(anchorScroll(30, 60, 800), -38);
  });
});

describe('line breaks in long codes (ui/BreakAfter)', () => {
  test('after the given characters and, when asked, at camelCase humps; never at the very end', () => {
    assert.deepEqual(breakParts('PARTIALLY_REFUNDED', '_'), ['PARTIALLY_', 'REFUNDED']);
    assert.deepEqual(breakParts('SCENE_', '_'), ['SCENE_']);
    assert.deepEqual(breakParts('authorizationExpiresAt', '_'), ['authorizationExpiresAt']);
    assert.deepEqual(breakParts('nextAction.type', '_./', true), ['next', 'Action.', 'type']);
    assert.deepEqual(breakParts('MerchantOrderNo', '', true), ['Merchant', 'Order', 'No']);
    assert.deepEqual(breakParts('IBAN', '', true), ['IBAN']);
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
