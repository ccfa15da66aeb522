/**
 * What the engine keeps per order (bench/sandbox.md, the 100,000-order memory budget): a new version of a record
 * shares what did not change with the old one, an event's notification shares the order it carries, and the heap
 * kept per order stays bounded.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import {importPrivateKey} from '../../src/lib/signing';
import {signRequest} from '../../src/sandbox/client/signing';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {deepFreeze, shareEqual} from '../../src/sandbox/engine/state';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

test('shareEqual shares the parts equal to the candidate, in the same member order, and nothing else', () => {
  const old = deepFreeze({order: {status: 'PENDING', amount: {value: 1, currency: 'USD'}, tags: ['a', 'b']}, key: 'k'});
  const next = {order: {status: 'PAID', amount: {value: 1, currency: 'USD'}, tags: ['a', 'b']}, key: 'k'};
  const shared = shareEqual(next, old);
  assert.equal(shared, next, 'a changed record stays the new object');
  assert.equal(shared.order.amount, old.order.amount);
  assert.equal(shared.order.tags, old.order.tags);
  assert.equal(shared.order.status, 'PAID');
  assert.equal(shareEqual({...old, order: {...old.order}}, old), old, 'an equal record is the old one');
  const reordered = {amount: {currency: 'USD', value: 1}};
  assert.notEqual(shareEqual(reordered, {amount: {value: 1, currency: 'USD'}}).amount, undefined);
  assert.equal(JSON.stringify(shareEqual(reordered, {amount: {value: 1, currency: 'USD'}})), '{"amount":{"currency":"USD","value":1}}');
  assert.deepEqual(shareEqual({a: {b: 1}}, {a: {b: 1, c: 2}}), {a: {b: 1}}, 'a candidate with more members is not equal');
  const frozen = deepFreeze({a: {b: 1}, c: 1});
  assert.equal(shareEqual(frozen, {a: {b: 1}, c: 2}), frozen, 'a frozen value is left as it is');
});

/** The heap V8 says is in use after a full collection, when the test can ask for one. */
function gcOrUndefined(): (() => void) | undefined {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('typeof gc === "function" ? gc : undefined') as (() => void) | undefined;
  return gc;
}

test('1,000 orders keep under 4 KB of heap each (about 1.9 today), and each event shares the order it carries', async () => {
  const files = sandboxFiles();
  const engine = await createNodeEngine({clock: fixedClock(Date.parse('2026-01-05T08:00:00Z')), rateLimits: false});
  const clientId = files.spec.sandbox.merchant.clientId;
  const signer = {clientId, keyVersion: 1, privateKey: await importPrivateKey(files.merchantPrivateKeyPem)};
  const paymentCode = files.spec.sandbox.paymentCodes.codes[0]?.code ?? '';
  const body = (index: number) => {
    const merchantOrderNo = `MEM-${String(index).padStart(8, '0')}`;
    return index % 2 === 0
      ? {
          merchantOrderNo,
          amount: {value: 500_000, currency: 'USD'},
          scene: 'QR_PAY',
          subject: 'Store 12 basket',
          payerPaymentCode: paymentCode,
          storeId: 'store-12',
          terminalId: 'till-03',
        }
      : {
          merchantOrderNo,
          amount: {value: 1250, currency: 'USD'},
          scene: 'HOSTED_PAYPAGE',
          subject: `Order ${merchantOrderNo}`,
          returnUrl: `https://shop.example.com/orders/${merchantOrderNo}`,
        };
  };
  const create = async (index: number) => {
    const signed = await signRequest(signer, {method: 'POST', target: '/v1/orders', body: JSON.stringify(body(index))}, engine.clock.now());
    const response = await engine.handle(signed);
    assert.equal(response.status, 200, response.body);
  };
  const createMany = async (from: number, count: number) => {
    for (let start = from; start < from + count; start += 8) {
      await Promise.all(Array.from({length: Math.min(8, from + count - start)}, (_, offset) => create(start + offset)));
    }
    // Past the nonces' retention and the hosted orders' expiry, as the bench runs it: nonces and jobs are gone.
    await engine.advance(1800 + 1);
  };
  const gc = gcOrUndefined();
  // The first orders warm up what calls compile or cache once; the orders after them are measured.
  const warmUp = 200;
  await createMany(0, warmUp);
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const orders = 1000;
  await createMany(warmUp, orders);
  gc?.();
  const perOrder = (process.memoryUsage().heapUsed - before) / orders;

  const snapshot = engine.snapshot(clientId);
  assert.ok(snapshot);
  const ordersByNo = new Map(snapshot.orders.map((order) => [order['merchantOrderNo'], order]));
  const carried = snapshot.events.filter((record) => {
    const data = (record.event['notification'] as {data?: {merchantOrderNo?: string}}).data;
    return data !== undefined && data === ordersByNo.get(data.merchantOrderNo);
  });
  // Each order's last event (ORDER.PAID, or ORDER.CLOSED at expiry) carries the order as it is now.
  assert.ok(carried.length >= warmUp + orders, `${carried.length} of ${snapshot.events.length} events share their order's object`);
  console.log(perOrder);
  if (gc) assert.ok(perOrder < 4096, `${Math.round(perOrder)} bytes of heap kept per order`);
});
