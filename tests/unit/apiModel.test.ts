import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {loadContract} from '../../src/contract/node/loadContract';
import {renderMarkdown} from '../../plugins/content/openapi-contract/markdown';
import {buildOperationView, routeOf, type FieldView} from '../../src/contract/apiModel';
import {renderSamples, sampleInputFor} from '../../src/lib/samples';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const view = (id: string) => {
  const location = contract.operations.get(id);
  assert.ok(location, id);
  return buildOperationView(contract.document, location, renderMarkdown);
};
const field = (fields: readonly FieldView[] | undefined, name: string) => {
  const found = fields?.find((candidate) => candidate.name === name);
  assert.ok(found, `no field ${name}`);
  return found;
};

describe('buildOperationView', () => {
  const createOrder = view('createOrder');

  test('method, path, hosts and Markdown description', () => {
    assert.equal(createOrder.method, 'POST');
    assert.equal(createOrder.path, '/orders');
    assert.equal(createOrder.servers.length, 2);
    assert.match(createOrder.descriptionHtml, /<code>merchantOrderNo<\/code>/);
  });

  test('request body: common fields, nested PositiveMoney, and one variant per scene (oneOf)', () => {
    const body = createOrder.requestBody;
    assert.ok(body);
    assert.equal(field(body.fields, 'merchantOrderNo').required, true);
    const amount = field(body.fields, 'amount');
    assert.equal(amount.typeName, 'PositiveMoney');
    assert.deepEqual(
      amount.fields?.map((f) => [f.name, f.type, f.required]),
      [
        ['value', 'integer', true],
        ['currency', 'string', true],
      ],
    );
    assert.deepEqual(
      body.variants?.map((v) => v.title),
      ['HOSTED_PAYPAGE', 'IFRAME_PAYPAGE', 'IN_APP_SDK', 'DYNAMIC_QR', 'JSAPI', 'EWALLET', 'CASH_TOP_UP', 'DIRECT_PAY', 'QR_PAY'],
    );
    const qrPay = body.variants?.find((v) => v.title === 'QR_PAY');
    assert.equal(field(qrPay?.fields, 'payerPaymentCode').required, true);
    assert.ok(field(body.fields, 'scene').enumValues?.includes('JSAPI'));
  });

  test('response: envelope fields with the data object (allOf merged) and nextAction variants', () => {
    const ok = createOrder.responses.find((r) => r.status === '200');
    const data = field(ok?.body?.fields, 'data');
    assert.equal(field(ok?.body?.fields, 'code').constValue, 'SUCCESS');
    const nextAction = field(data.fields, 'nextAction');
    assert.ok(nextAction.variants?.some((v) => v.title === 'QR_CODE'));
    assert.ok(createOrder.responses.some((r) => r.status === 'default'));
  });

  test("response codes: the operation's own plus the common ones", () => {
    const codes = createOrder.resultCodes.map((c) => c.code);
    assert.ok(codes.includes('IDEMPOTENCY_CONFLICT'));
    assert.ok(codes.includes('INVALID_SIGNATURE'));
    assert.ok(!codes.includes('REFUND_NOT_FOUND'));
  });

  test('the shared error responses are shown once, under default, not as one block per status', () => {
    assert.deepEqual(
      createOrder.responses.map((r) => r.status),
      ['200', 'default'],
    );
    const errors = createOrder.responses.find((r) => r.status === 'default');
    assert.deepEqual(errors?.sharedErrorStatuses, ['400', '401', '409', '422', '429', '500', '503']);
    const getOrder = view('retrieveOrderDetail');
    assert.deepEqual(getOrder.responses.find((r) => r.status === 'default')?.sharedErrorStatuses, [
      '400',
      '401',
      '404',
      '429',
      '500',
      '503',
    ]);
  });

  test('state machines reachable from the operation', () => {
    assert.deepEqual(
      createOrder.stateMachines.map((m) => m.schemaName),
      ['OrderStatus'],
    );
    assert.deepEqual(
      view('refundOrder')
        .stateMachines.map((m) => m.schemaName)
        .sort(),
      ['RefundStatus'],
    );
  });

  test('webhooks: payload, acknowledgement, delivery schedule, no response codes', () => {
    const notification = view('paymentResultNotification');
    assert.equal(notification.kind, 'webhook');
    assert.equal(notification.resultCodes.length, 0);
    assert.equal(notification.delivery?.retrySchedule.length, 9);
    assert.ok(field(notification.requestBody?.fields, 'notificationId').required);
  });

  test('query parameters of a list call', () => {
    const page = view('queryOrderPage');
    assert.deepEqual(
      page.queryParameters.map((p) => p.name),
      ['createdFrom', 'createdTo', 'updatedFrom', 'updatedTo', 'status', 'scene', 'pageNo', 'pageSize'],
    );
  });
});

describe('code samples', () => {
  test('six languages, each with the signing step, for every operation', () => {
    for (const location of contract.operations.values()) {
      const samples = renderSamples(sampleInputFor(contract.document, location));
      assert.deepEqual(
        samples.map((s) => s.language),
        ['curl', 'node', 'python', 'java', 'php', 'go'],
      );
      for (const sample of samples) {
        assert.match(
          sample.code,
          /RSA-SHA256|SHA256withRSA|OPENSSL_ALGO_SHA256|SignPKCS1v15|VerifyPKCS1v15|sha256/i,
          `${location.operationId} ${sample.language}`,
        );
      }
    }
  });

  test('path and query parameters are filled from the contract examples', () => {
    const location = (id: string) => {
      const found = contract.operations.get(id);
      assert.ok(found, id);
      return found;
    };
    const input = sampleInputFor(contract.document, location('queryOrderPage'));
    assert.equal(
      input.kind === 'request' && input.pathWithQuery,
      '/orders?createdFrom=2025-06-01T00%3A00%3A00Z&createdTo=2025-06-02T00%3A00%3A00Z&pageNo=1&pageSize=20',
    );
    const detail = sampleInputFor(contract.document, location('retrieveOrderDetail'));
    assert.equal(detail.kind === 'request' && detail.pathWithQuery, '/orders/ORD-20250601-0001');
  });
});

describe('notification routing (x-notification-delivery.routing)', () => {
  test('every webhook page says where its notifications go', () => {
    const webhooks = [...contract.operations.values()].filter((l) => l.kind === 'webhook');
    const unrouted = webhooks.filter((l) => !view(l.operationId).delivery?.route).map((l) => l.operationId);
    assert.deepEqual(unrouted, []);
    assert.match(view('refundResultNotification').delivery?.route ?? '', /refund's notifyUrl/);
  });

  test('a rule covers a webhook only when it covers all of its event types', () => {
    const rules = [
      {events: 'ORDER.*', to: 'order'},
      {events: 'TRANSFER.*, CARD_PAYOUT.*', to: 'payout'},
    ];
    assert.equal(routeOf(rules, ['CARD_PAYOUT.FAILED']), 'payout');
    assert.equal(routeOf(rules, ['ORDER.PAID', 'REFUND.FAILED']), undefined);
    assert.equal(routeOf(rules, []), undefined);
  });
});
