/**
 * The sandbox engine against the contract and the sandbox data, one behaviour at a time, in memory on
 * a fixed clock. Every response is checked as a merchant would check it: its signature verifies with
 * the provider test key and its body matches the contract (CallResult.problems).
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {fixedClock} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import {transition} from '../../src/sandbox/engine/tx';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {canonicalString, importPublicKey, parseSignatureHeader, verifyCanonical} from '../../src/lib/signing';
import {engineClient, providerPublicKeyPem, type CallResult} from '../support/sandboxClient';

const start = Date.parse('2026-11-25T10:00:00Z');

interface Received {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

async function setUp(answer: (received: Received) => {status: number; body: string} = () => ({status: 200, body: '{"code":"SUCCESS"}'})) {
  const received: Received[] = [];
  const transport: NotificationTransport = {
    deliver: async (delivery) => {
      received.push(delivery);
      return answer(delivery);
    },
  };
  const engine = await createNodeEngine({clock: fixedClock(start), transport});
  const client = engineClient(engine);
  return {engine, client, received};
}

const ok = (result: CallResult, code = 'SUCCESS') => {
  assert.deepEqual(result.problems, [], `${result.status} ${result.body}`);
  assert.equal(result.json.code, code, result.body);
  return result.json.data as Record<string, unknown>;
};

let counter = 0;
const number = (prefix: string) => `${prefix}-${start}-${(counter += 1)}`;

function hostedOrder(merchantOrderNo: string, value: number, extra: Record<string, unknown> = {}) {
  return {
    merchantOrderNo,
    amount: {value, currency: 'USD'},
    scene: 'HOSTED_PAYPAGE',
    subject: 'Sandbox test',
    returnUrl: 'https://shop.example.com/return',
    notifyUrl: 'https://shop.example.com/payments/notify',
    ...extra,
  };
}

async function paidOrder(engine: SandboxEngine, client: ReturnType<typeof engineClient>, value = 1000): Promise<string> {
  const no = number('ORD');
  ok(await client.call('POST', '/v1/orders', hostedOrder(no, value)));
  const paid = await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'});
  assert.ok(paid.ok, JSON.stringify(paid));
  return no;
}

describe('the sandbox engine', () => {
  test('carries an order from creation to payment and a partial refund, every response signed and as the contract says', async () => {
    const {engine, client, received} = await setUp();
    const no = await paidOrder(engine, client);
    const refund = ok(
      await client.call('POST', `/v1/orders/${no}/refunds`, {merchantRefundNo: number('RFD'), amount: {value: 400, currency: 'USD'}}),
    );
    assert.equal(refund['status'], 'PROCESSING');
    const during = ok(await client.call('GET', `/v1/orders/${no}`));
    assert.deepEqual(
      during['refundableAmount'],
      {value: 600, currency: 'USD'},
      'a PROCESSING refund already reduces the refundable amount',
    );
    await engine.advance(5);
    const after = ok(await client.call('GET', `/v1/orders/${no}`));
    assert.equal(after['status'], 'PARTIALLY_REFUNDED');
    assert.deepEqual(after['refundedAmount'], {value: 400, currency: 'USD'});
    assert.deepEqual(
      received.map((delivery) => (JSON.parse(delivery.body) as {eventType: string}).eventType),
      ['ORDER.PAID', 'REFUND.SUCCEEDED'],
    );
  });

  test('latestReferences names the newest order and refund, and the newest event that has a URL to redeliver to', async () => {
    const {engine, client} = await setUp();
    assert.equal(engine.latestReferences(client.clientId)['merchantOrderNo'], undefined);
    const first = await paidOrder(engine, client);
    const refundNo = number('RFD');
    ok(await client.call('POST', `/v1/orders/${first}/refunds`, {merchantRefundNo: refundNo, amount: {value: 100, currency: 'USD'}}));
    const withoutUrl = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(withoutUrl, 1000, {notifyUrl: undefined})));
    ok(await client.call('POST', `/v1/orders/${withoutUrl}/cancel`, {}));
    const latest = engine.latestReferences(client.clientId);
    assert.equal(latest['merchantOrderNo'], withoutUrl);
    assert.equal(latest['merchantRefundNo'], refundNo);
    const events = engine.snapshot(client.clientId)?.events ?? [];
    const named = events.find((record) => record.event.notificationId === latest['notificationId']);
    assert.equal(named?.event['notifyUrl'], 'https://shop.example.com/payments/notify', 'not the ORDER.CLOSED of the order without a URL');
    assert.equal(engine.latestReferences('nobody')['merchantOrderNo'], undefined);
  });

  test('every notification verifies with the published provider key over POST, the notifyUrl path, the client ID and the raw body', async () => {
    const {engine, client, received} = await setUp();
    await paidOrder(engine, client);
    await engine.runDue(); // deliveries are jobs due now: the server runs them on its timer
    await engine.settle();
    const key = await importPublicKey(providerPublicKeyPem);
    assert.equal(received.length, 1);
    for (const delivery of received) {
      const header = parseSignatureHeader(delivery.headers['X-Signature'] ?? '');
      const canonical = canonicalString({
        method: 'POST',
        pathWithQuery: new URL(delivery.url).pathname,
        clientId: client.clientId,
        timestamp: delivery.headers['X-Timestamp'] ?? '',
        nonce: delivery.headers['X-Nonce'] ?? '',
        body: delivery.body,
      });
      assert.ok(await verifyCanonical(canonical, header.signature, key));
      const {validator} = sandboxFiles();
      assert.deepEqual(validator.problems('/components/schemas/PaymentResultNotification', JSON.parse(delivery.body)), []);
    }
  });

  test('idempotency: an equal body replays the current state, a different one conflicts, a rejected one reserves nothing', async () => {
    const {engine, client} = await setUp();
    const no = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 1200)));
    // Member order does not matter: bodies compare as JSON values.
    const reordered = Object.fromEntries(Object.entries(hostedOrder(no, 1200)).reverse());
    await engine.shopper.pay(client.clientId, no, {method: 'WALLET', phone: '+10000000001', pin: '123456'});
    const replay = await client.call('POST', '/v1/orders', reordered);
    assert.equal(
      ok(replay)['order'] && (ok(replay)['order'] as {status: string}).status,
      'PAID',
      'the current state, not a copy of the first answer',
    );
    assert.equal(replay.headers['Idempotent-Replayed'], 'true');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 1200, {metadata: {cart: '1'}})), 'IDEMPOTENCY_CONFLICT');
    const rejectedNo = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(rejectedNo, 1259)), 'RISK_REJECTED');
    ok(await client.call('POST', '/v1/orders', hostedOrder(rejectedNo, 1200)));
  });

  test('Revoke order on a number with no order leaves a tombstone: a late Create order fails with ORDER_CLOSED', async () => {
    const {client} = await setUp();
    const no = number('ORD');
    ok(await client.call('POST', `/v1/orders/${no}/revoke`, {reason: 'Till timed out'}), 'ORDER_NOT_FOUND');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 1000)), 'ORDER_CLOSED');
  });

  test('QR_PAY: ending 58 declines inside Create order, visible in lastAttempt and ORDER.PAYMENT_FAILED', async () => {
    const {engine, client, received} = await setUp();
    const data = ok(
      await client.call('POST', '/v1/orders', {
        merchantOrderNo: number('ORD'),
        amount: {value: 1858, currency: 'USD'},
        scene: 'QR_PAY',
        subject: 'Till sale',
        payerPaymentCode: '286510000000000001',
        storeId: 'store-1',
        terminalId: 'till-1',
        notifyUrl: 'https://shop.example.com/payments/notify',
      }),
    );
    const order = data['order'] as {status: string; lastAttempt: {status: string; failureCode: string}};
    assert.equal(order.status, 'PENDING');
    assert.deepEqual([order.lastAttempt.status, order.lastAttempt.failureCode], ['FAILED', 'RISK_DECLINED']);
    await engine.runDue();
    await engine.settle();
    assert.deepEqual(
      received.map((delivery) => (JSON.parse(delivery.body) as {eventType: string}).eventType),
      ['ORDER.PAYMENT_FAILED'],
    );
  });

  test('ending 93 keeps the payment PROCESSING for 20 seconds on the sandbox clock, then pays; ending 92 holds the response 40 seconds', async () => {
    const {engine, client} = await setUp();
    const no = number('ORD');
    ok(await client.call('POST', '/v1/orders', hostedOrder(no, 1093)));
    await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'});
    assert.equal(ok(await client.call('GET', `/v1/orders/${no}`))['status'], 'PROCESSING');
    ok(await client.call('POST', `/v1/orders/${no}/cancel`, {}), 'ORDER_PROCESSING');
    await engine.advance(19);
    assert.equal(ok(await client.call('GET', `/v1/orders/${no}`))['status'], 'PROCESSING');
    await engine.advance(1);
    assert.equal(ok(await client.call('GET', `/v1/orders/${no}`))['status'], 'PAID');
    const held = await engine.handle({method: 'GET', target: '/v1/balances', headers: {}, body: ''});
    assert.equal(held.holdSeconds, undefined);
  });

  test('money is a ledger: the statement of the day reconciles opening plus movements with closing, and with Get balance', async () => {
    const {engine, client} = await setUp();
    const no = await paidOrder(engine, client, 2500);
    ok(await client.call('POST', `/v1/orders/${no}/refunds`, {merchantRefundNo: number('RFD'), amount: {value: 500, currency: 'USD'}}));
    ok(
      await client.call('POST', '/v1/transfers', {
        merchantTransferNo: number('TRF'),
        amount: {value: 1000, currency: 'USD'},
        payee: {payeeType: 'PHONE', phoneNumber: '+10000000001'},
      }),
    );
    await engine.advance(60);
    const statement = engine.statementCsv(client.clientId, '2026-11-25', 'USD');
    assert.ok(statement);
    const rows = statement.csv
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(','));
    const net = (row: string[]) => Number(row[8]);
    const opening = rows.find((row) => row[1] === 'OPENING_BALANCE');
    const closing = rows.find((row) => row[1] === 'CLOSING_BALANCE');
    assert.ok(opening && closing);
    const movements = rows.filter((row) => !/_BALANCE$/.test(row[1] ?? ''));
    assert.deepEqual(
      movements.map((row) => row[1]),
      ['SANDBOX_FUNDING', 'PAYMENT', 'REFUND', 'TRANSFER'],
      'the merchant was created this day: its starting funds are a row',
    );
    assert.equal(net(opening) + movements.reduce((sum, row) => sum + net(row), 0), net(closing));
    const balance = engine.balances(client.clientId).get('USD');
    assert.ok(balance);
    assert.equal(balance.available + balance.pending + balance.frozen, net(closing));
    // Too early for the file: ready after 02:00 UTC the next day.
    ok(await client.call('GET', '/v1/statements/2026-11-25'), 'STATEMENT_NOT_READY');
    await engine.advance(86400);
    const download = ok(await client.call('GET', '/v1/statements/2026-11-25?currency=USD'));
    const file = await engine.statementFile(client.clientId, '2026-11-25', 'USD');
    assert.equal(download['sha256'], file?.sha256);
    assert.equal(download['rowCount'], rows.length);
  });

  test('a transition the contract does not declare is impossible: the engine refuses it', async () => {
    const {spec} = sandboxFiles();
    const guard = (machine: string, from: string, to: string) => transition({spec}, machine, from, to);
    assert.doesNotThrow(() => guard('OrderStatus', 'PENDING', 'PAID'));
    assert.throws(() => guard('OrderStatus', 'CLOSED', 'PAID'), /not a transition the contract declares/);
    assert.throws(() => guard('RefundStatus', 'FAILED', 'SUCCEEDED'), /not a transition the contract declares/);
    assert.throws(() => guard('BankTransferStatus', 'RETURNED', 'SUCCEEDED'), /not a transition the contract declares/);
  });

  test('signatures: an unknown client, a stale timestamp, a replayed nonce and a tampered body are refused with their codes', async () => {
    const {engine, client} = await setUp();
    const good = await client.call('GET', '/v1/balances');
    ok(good);
    const stranger = engineClient(engine, {clientId: 'nobody-here'});
    ok(await stranger.call('GET', '/v1/balances'), 'UNKNOWN_CLIENT');
    const request = {
      method: 'GET',
      target: '/v1/balances',
      body: '',
      headers: {
        'X-Client-Id': client.clientId,
        'X-Timestamp': '2026-11-25T09:50:00Z',
        'X-Nonce': 'c5e7a9b1-2d4f-4a6c-8e0b-1f3a5c7e9b2d',
        'X-Signature': 'algorithm=RSA-SHA256, keyVersion=1, signature=AAAA',
      },
    };
    assert.equal(JSON.parse((await engine.handle(request)).body).code, 'TIMESTAMP_OUT_OF_WINDOW');
    const fresh = {...request, headers: {...request.headers, 'X-Timestamp': '2026-11-25T10:00:00Z'}};
    assert.equal(JSON.parse((await engine.handle(fresh)).body).code, 'INVALID_SIGNATURE');
  });
});
