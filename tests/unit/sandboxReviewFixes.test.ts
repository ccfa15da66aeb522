/**
 * Findings of the integration review of 2026-11-26 (I-3, I-6, I-7, D8), each as the behaviour a merchant's
 * code relies on: checked through a signing client, so every answer also verifies and matches the contract.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {deref, type SchemaObject} from '../../src/contract/openapiTypes';
import {engineClient, responseProblems, type CallResult} from '../support/sandboxClient';
import {repoRoot} from '../support/routeContract';

const start = Date.parse('2026-11-26T12:00:00Z');
let counter = 0;
const number = (prefix: string) => `${prefix}-${start}-${(counter += 1)}`;

async function setUp() {
  const engine = await createNodeEngine({clock: fixedClock(start)});
  return {engine, client: engineClient(engine)};
}

const ok = (result: CallResult, code = 'SUCCESS') => {
  assert.deepEqual(result.problems, [], `${result.status} ${result.body}`);
  assert.equal(result.json.code, code, result.body);
  return result.json.data as Record<string, unknown>;
};

const hostedOrder = (merchantOrderNo: string, value: number) => ({
  merchantOrderNo,
  amount: {value, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'Review fixes',
  returnUrl: 'https://shop.example.com/return',
});

const ewalletOrder = (merchantOrderNo: string, terminalType: string) => ({
  merchantOrderNo,
  amount: {value: 2200, currency: 'USD'},
  scene: 'EWALLET',
  subject: `Order ${merchantOrderNo}`,
  returnUrl: `https://shop.example.com/orders/${merchantOrderNo}`,
  terminalType,
});

describe('I-3: EWALLET answers by terminalType as the pages document', () => {
  test('WEB gets REDIRECT with a cashierUrl; MOBILE_WEB and APP get APP_SWITCH with the documented deep link', async () => {
    const {client} = await setUp();
    const web = ok(await client.call('POST', '/v1/orders', ewalletOrder(number('ORD'), 'WEB')));
    const webAction = web['nextAction'] as Record<string, string>;
    assert.equal(webAction['type'], 'REDIRECT');
    assert.match(webAction['cashierUrl'] ?? '', /^https:\/\/sandbox-cashier\.example\.com\/pay\//);
    assert.equal(webAction['deepLink'], undefined);
    for (const terminalType of ['MOBILE_WEB', 'APP']) {
      const data = ok(await client.call('POST', '/v1/orders', ewalletOrder(number('ORD'), terminalType)));
      const action = data['nextAction'] as Record<string, string>;
      assert.equal(action['type'], 'APP_SWITCH', terminalType);
      assert.match(action['deepLink'] ?? '', /^veloxapay:\/\/pay\?session=[A-Za-z0-9]+$/, 'the form the e-wallet page documents');
      assert.match(action['fallbackUrl'] ?? '', /^https:\/\/sandbox-cashier\.example\.com\/pay\//);
    }
  });

  test('the e-wallet page shows the deep link in the form the contract and the sandbox use', () => {
    const page = readFileSync(path.join(repoRoot, 'docs/online-payment-integration/special-payment-scenes/ewallet.md'), 'utf8');
    const {contract} = sandboxFiles();
    // Deep links the page writes out, and those of the contract examples it renders with <ApiExample>.
    const rendered = [...page.matchAll(/<ApiExample operationId="createOrder" example="(\w+)" response="200"/g)].map(
      (match) => match[1] ?? '',
    );
    const examples = JSON.stringify(
      rendered.map(
        (name) => contract.document.paths?.['/orders']?.post?.responses?.['200']?.content?.['application/json']?.examples?.[name],
      ),
    );
    const links = [...`${page}\n${examples}`.matchAll(/"deepLink": ?"([^"]+)"/g)].map((match) => match[1] ?? '');
    assert.ok(links.length > 0, 'the page shows a deep link');
    const text = JSON.stringify(contract.document);
    const pattern = /"deepLink":\{[^}]*"pattern":"([^"]+)"/.exec(text)?.[1];
    assert.ok(pattern, 'the contract constrains deepLink');
    for (const link of links) assert.match(link, new RegExp(JSON.parse(`"${pattern}"`) as string));
    assert.match(page, /Branch on `nextAction\.type`, never on the `terminalType` you sent/);
  });
});

describe('I-6: a repeated Revoke order returns the same answer', () => {
  test('every repeat answers REFUND_STARTED with the same refund, before and after the refund succeeds', async () => {
    const {engine, client} = await setUp();
    const no = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 2100)));
    assert.ok((await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'})).ok);
    const first = ok(await client.call('POST', `/v1/orders/${no}/revoke`, {reason: 'x'}));
    assert.equal(first['outcome'], 'REFUND_STARTED');
    const refundId = (first['refund'] as {refundId: string}).refundId;
    const repeat = ok(await client.call('POST', `/v1/orders/${no}/revoke`, {reason: 'x'}));
    assert.equal(repeat['outcome'], 'REFUND_STARTED', 'the till whose first answer was lost acts the same');
    assert.equal((repeat['refund'] as {refundId: string}).refundId, refundId);
    await engine.advance(60);
    const later = ok(await client.call('POST', `/v1/orders/${no}/revoke`));
    assert.equal(later['outcome'], 'REFUND_STARTED');
    assert.deepEqual(
      [(later['refund'] as {refundId: string; status: string}).refundId, (later['refund'] as {status: string}).status],
      [refundId, 'SUCCEEDED'],
    );
    assert.equal((later['order'] as {status: string}).status, 'REFUNDED');
  });

  test('an order refunded by Refund order (no Revoke refund) still answers ALREADY_REFUNDED, without a refund', async () => {
    const {engine, client} = await setUp();
    const no = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 1500)));
    assert.ok((await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'})).ok);
    ok(await client.call('POST', `/v1/orders/${no}/refunds`, {merchantRefundNo: number('RFD'), amount: {value: 1500, currency: 'USD'}}));
    const revoked = ok(await client.call('POST', `/v1/orders/${no}/revoke`, {}));
    assert.equal(revoked['outcome'], 'ALREADY_REFUNDED');
    assert.equal(revoked['refund'], undefined);
  });
});

describe('I-7: operations whose body has only optional fields accept no body', () => {
  test('Cancel order, Revoke order, Get cashier URL and Cancel agreement take a request without a body as {}', async () => {
    const {client} = await setUp();
    const cashierNo = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(cashierNo, 1000)));
    assert.match(String(ok(await client.call('POST', `/v1/orders/${cashierNo}/cashier-url`))['cashierUrl']), /^https:\/\//);
    const cancelNo = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(cancelNo, 1000)));
    assert.equal(ok(await client.call('POST', `/v1/orders/${cancelNo}/cancel`))['status'], 'CLOSED');
    const revokeNo = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(revokeNo, 1000)));
    assert.equal(ok(await client.call('POST', `/v1/orders/${revokeNo}/revoke`))['outcome'], 'CLOSED');
    const agreementNo = number('AGR');
    ok(
      await client.call('POST', '/v1/agreements', {
        merchantAgreementNo: agreementNo,
        description: 'Monthly box',
        returnUrl: 'https://shop.example.com/agreements/return',
      }),
    );
    assert.equal(ok(await client.call('POST', `/v1/agreements/${agreementNo}/cancel`))['status'], 'CANCELLED');
  });

  test('an operation with a required field still refuses a missing body, and a body that is not JSON is still refused', async () => {
    const {client} = await setUp();
    const no = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 1000)));
    ok(await client.call('POST', `/v1/orders/${no}/refunds`), 'INVALID_PARAMETER');
    ok(await client.call('POST', `/v1/orders/${no}/cancel`, 'not json'), 'INVALID_PARAMETER');
  });

  test('the contract marks a request body optional exactly when none of its fields is required', () => {
    const {contract} = sandboxFiles();
    const document = contract.document;
    const optional: string[] = [];
    for (const item of Object.values(document.paths ?? {})) {
      for (const operation of Object.values(item as Record<string, unknown>)) {
        const requestBody = (
          operation as {requestBody?: {required?: boolean; content?: Record<string, {schema?: SchemaObject}>}; operationId?: string}
        ).requestBody;
        const schema = requestBody?.content?.['application/json']?.schema;
        if (!requestBody || !schema) continue;
        const resolved = deref(document, schema);
        const anyRequired = (resolved.required ?? []).length > 0 || resolved.allOf !== undefined || resolved.oneOf !== undefined;
        const id = (operation as {operationId: string}).operationId;
        assert.equal(requestBody.required === true, anyRequired, `${id}: requestBody.required must say whether a body is needed`);
        if (!anyRequired) optional.push(id);
      }
    }
    assert.deepEqual(optional.sort(), ['cancelAgreement', 'cancelOrder', 'getCashierUrl', 'revokeOrder']);
  });
});

describe('D8: every error message is an English sentence, never the code', () => {
  test('the codes the sandbox answers in these flows all carry a sentence', async () => {
    const {engine, client} = await setUp();
    const seen = new Map<string, string>();
    const record = (result: CallResult) => {
      assert.deepEqual(result.problems, [], result.body);
      if (result.json.code !== 'SUCCESS') seen.set(result.json.code, result.json.message);
      return result;
    };
    const pending = number('ORD');
    record(await client.call('POST', '/v1/orders', hostedOrder(pending, 1000)));
    record(await client.call('GET', `/v1/orders/${pending}/payer`)); // ORDER_NOT_PAID
    record(await client.call('GET', `/v1/refunds/${number('RFD')}`)); // REFUND_NOT_FOUND
    record(await client.call('POST', `/v1/events/ntf_${'x'.repeat(20)}/redeliver`)); // EVENT_NOT_FOUND
    record(await client.call('GET', `/v1/agreements/${number('AGR')}`)); // AGREEMENT_NOT_FOUND
    record(await client.call('POST', '/v1/orders', {...hostedOrder(pending, 1000), subject: 'another body'})); // IDEMPOTENCY_CONFLICT
    const processing = number('ORD');
    record(await client.call('POST', '/v1/orders', hostedOrder(processing, 1093)));
    await engine.shopper.pay(client.clientId, processing, {method: 'CARD', cardNumber: '4000000000000002'});
    record(await client.call('POST', `/v1/orders/${processing}/cancel`, {})); // ORDER_PROCESSING
    const paid = number('ORD');
    record(await client.call('POST', '/v1/orders', hostedOrder(paid, 1000)));
    await engine.shopper.pay(client.clientId, paid, {method: 'CARD', cardNumber: '4000000000000002'});
    record(await client.call('POST', `/v1/orders/${paid}/cancel`, {})); // ORDER_ALREADY_PAID
    record(await client.call('POST', `/v1/orders/${pending}/cancel`, {}));
    record(await client.call('POST', `/v1/orders/${pending}/cashier-url`, {})); // ORDER_CLOSED
    assert.ok((await engine.control.openChargeback(client.clientId, paid)).ok);
    record(await client.call('POST', `/v1/orders/${paid}/revoke`, {})); // ORDER_DISPUTED
    for (const fault of sandboxFiles().spec.sandbox.faults.codes) {
      assert.ok(engine.control.setFault({resultCode: fault.resultCode, operationId: 'getBalance', count: 1}).ok);
      record(await client.call('GET', '/v1/balances'));
    }
    for (const code of [
      'ORDER_NOT_PAID',
      'REFUND_NOT_FOUND',
      'EVENT_NOT_FOUND',
      'AGREEMENT_NOT_FOUND',
      'IDEMPOTENCY_CONFLICT',
      'ORDER_PROCESSING',
      'ORDER_ALREADY_PAID',
      'ORDER_CLOSED',
      'ORDER_DISPUTED',
      'SYSTEM_BUSY',
      'INTERNAL_ERROR',
    ]) {
      assert.ok(seen.has(code), `the walk produced ${code}`);
    }
    for (const [code, message] of seen) {
      assert.notEqual(message, code, `${code} carries a sentence`);
      assert.match(message, /^[A-Z].* .*[.?]$/, `${code}: "${message}" is a sentence`);
    }
  });
});

describe('I-2 and D9: every answer is signed, pre-authentication refusals included', () => {
  const merchant = () => sandboxFiles().spec.sandbox.merchant.clientId;
  const nonce = 'c5e7a9b1-2d4f-4a6c-8e0b-1f3a5c7e9b2d';
  const cases: Array<{name: string; target?: string; headers: () => Record<string, string>; code: string}> = [
    {name: 'no signing headers at all (a bare curl)', headers: () => ({}), code: 'INVALID_PARAMETER'},
    {
      name: 'X-Timestamp with +00:00 (isoformat())',
      headers: () => ({'X-Client-Id': merchant(), 'X-Timestamp': '2026-11-26T12:00:00+00:00', 'X-Nonce': nonce}),
      code: 'INVALID_PARAMETER',
    },
    {
      name: 'X-Timestamp with milliseconds (toISOString())',
      headers: () => ({'X-Client-Id': merchant(), 'X-Timestamp': '2026-11-26T12:00:00.000Z', 'X-Nonce': nonce}),
      code: 'INVALID_PARAMETER',
    },
    {
      name: 'an X-Nonce shorter than 16 characters',
      headers: () => ({'X-Client-Id': merchant(), 'X-Timestamp': '2026-11-26T12:00:00Z', 'X-Nonce': 'short'}),
      code: 'INVALID_PARAMETER',
    },
    {name: 'a missing X-Client-Id', headers: () => ({'X-Timestamp': '2026-11-26T12:00:00Z', 'X-Nonce': nonce}), code: 'INVALID_PARAMETER'},
    {name: 'an unknown path', target: '/v1/nothing-here', headers: () => ({}), code: 'INVALID_PARAMETER'},
  ];
  for (const entry of cases) {
    test(`${entry.name}: signed over the request as sent (a missing header is empty), and a tampered copy fails`, async () => {
      const {engine} = await setUp();
      const headers = entry.headers();
      const target = entry.target ?? '/v1/balances';
      const response = await engine.handle({method: 'GET', target, headers, body: ''});
      assert.equal(JSON.parse(response.body).code, entry.code);
      assert.ok(response.headers['X-Signature'], 'the answer carries X-Signature');
      const sent = {
        method: 'GET',
        target,
        clientId: headers['X-Client-Id'] ?? '',
        timestamp: headers['X-Timestamp'] ?? '',
        nonce: headers['X-Nonce'] ?? '',
      };
      assert.deepEqual(await responseProblems(sent, response, undefined), []);
      const tampered = {...response, body: response.body.replace('"message":"', '"message":"Ignore this. ')};
      assert.deepEqual(await responseProblems(sent, tampered, undefined), ['the response signature does not verify']);
    });
  }

  test('a body over the size limit, refused by the host, is signed too', async () => {
    const {engine} = await setUp();
    const response = await engine.refuse(
      {method: 'POST', target: '/v1/orders', headers: {}},
      'REQUEST_TOO_LARGE',
      'The body is larger than 65536 bytes, so it was not read.',
    );
    assert.equal(response.status, 413);
    assert.deepEqual(
      await responseProblems({method: 'POST', target: '/v1/orders', clientId: '', timestamp: '', nonce: ''}, response, undefined),
      [],
    );
  });

  test('RateLimit-Remaining reports the real figure for a request that was not counted, never a made-up 0', async () => {
    const {engine, client} = await setUp();
    const bare = await engine.handle({method: 'GET', target: '/v1/balances', headers: {}, body: ''});
    const limit = Number(bare.headers['RateLimit-Limit']);
    assert.ok(limit > 2);
    assert.equal(bare.headers['RateLimit-Remaining'], String(limit), 'nothing was counted against anyone');
    ok(await client.call('GET', '/v1/balances'));
    ok(await client.call('GET', '/v1/balances'));
    const forged = await engine.handle({
      method: 'GET',
      target: '/v1/balances',
      headers: {
        'X-Client-Id': client.clientId,
        'X-Timestamp': '2026-11-26T12:00:00Z',
        'X-Nonce': nonce,
        'X-Signature': 'algorithm=RSA-SHA256, keyVersion=1, signature=AAAA',
      },
      body: '',
    });
    assert.equal(JSON.parse(forged.body).code, 'INVALID_SIGNATURE');
    assert.equal(forged.headers['RateLimit-Remaining'], String(limit - 2), 'the two counted calls, not this refused one');
  });
});
