/**
 * JSON examples on the pages agree with the contract (issue 29, I-5): every response, notification and order a
 * page shows as JSON validates against a schema of api/openapi.yaml, and the check catches the defect the review
 * found (a scene guide's order without `updatedAt`).
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {checkJsonExamples, exampleKind, jsonBlocks, jsonExampleChecker} from '../../tooling/contentLint/jsonExamples';
import {contractRelativePath, loadContract} from '../../src/contract/node/loadContract';
import {contractExample} from '../../plugins/content/openapi-contract/remarkApiReference';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, contractRelativePath));
const check = jsonExampleChecker(contract);
const page = (value: unknown) => ['What comes back:', '', '```json', JSON.stringify(value, null, 2), '```', ''].join('\n');

describe('JSON examples on the pages', () => {
  test('every response, notification and order shown as JSON validates against the contract', () => {
    const {problems, checked} = checkJsonExamples(repoRoot);
    assert.deepEqual(
      problems.map((problem) => `${problem.file}:${problem.line}: ${problem.message}`),
      [],
    );
    assert.ok(checked > 0, 'no example was checked: is the classification still finding them?');
  });

  test('catches what the review found: a Create order response whose order lacks updatedAt', () => {
    const response = structuredClone(contractExample(contract, 'createOrder', 'ewallet', '200')) as {
      data: {order: Record<string, unknown>};
    };
    assert.deepEqual(check('x.md', page(response)).problems, [], 'the contract example itself passes');
    delete response.data.order['updatedAt'];
    const {problems} = check('x.md', page(response));
    assert.equal(problems.length, 1);
    assert.equal(problems[0]?.line, 3);
    assert.match(problems[0]?.message ?? '', /updatedAt/);
  });

  test('catches a paid order without its fee and net amount (the direct pay page had one)', () => {
    const response = structuredClone(contractExample(contract, 'createOrder', 'directPay', '200')) as {
      data: {order: Record<string, unknown>};
    };
    assert.equal(response.data.order['status'], 'PAID');
    assert.deepEqual(check('x.md', page(response)).problems, [], 'the contract example itself passes');
    delete response.data.order['fee'];
    delete response.data.order['netAmount'];
    const {problems} = check('x.md', page(response));
    assert.equal(problems.length, 1);
    assert.match(problems[0]?.message ?? '', /matches no schema/);
  });

  test('a bare order and a notification are checked too; request bodies and sketches are not', () => {
    const order = structuredClone(
      (contractExample(contract, 'createOrder', 'hostedPaypage', '200') as {data: {order: Record<string, unknown>}}).data.order,
    );
    order['status'] = 'SHIPPED';
    assert.equal(check('x.md', page(order)).problems.length, 1, 'an order with a status the contract lacks');
    const notification = structuredClone(contractExample(contract, 'paymentResultNotification', 'paid')) as {data: Record<string, unknown>};
    assert.deepEqual(check('x.md', page(notification)).problems, []);
    delete notification.data['orderId'];
    assert.equal(check('x.md', page(notification)).problems.length, 1, 'a notification whose order lacks orderId');
    assert.deepEqual(check('x.md', page(contractExample(contract, 'createOrder', 'ewallet'))), {problems: [], checked: 0});
    assert.deepEqual(check('x.md', '```json\n{"order": { ... }}\n```\n'), {problems: [], checked: 0});
  });

  test('blocks are found with their line, indented ones included, and classified by the members only that kind has', () => {
    const text = [
      'Intro',
      '',
      '```json',
      '{"code": "SUCCESS", "requestId": "req_1"}',
      '```',
      '',
      '  ```json title="x"',
      '  {"notificationId": "n", "eventType": "ORDER.PAID", "data": {}}',
      '  ```',
    ].join('\n');
    const blocks = jsonBlocks(text);
    assert.deepEqual(
      blocks.map((block) => block.line),
      [3, 7],
    );
    assert.deepEqual(
      blocks.map((block) => exampleKind(JSON.parse(block.source))),
      ['response', 'notification'],
    );
  });
});
