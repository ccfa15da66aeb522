/**
 * I-4: the ordering rule the pages give receivers (docs/_partials/notification-ordering.mdx) holds for every
 * sequence the sandbox can deliver. The rule: apply a notification only if its `data.version` is greater than
 * the version you hold; otherwise ignore it (stale or a duplicate).
 *
 * A receiver applying it to notifications in any delivered order, with redeliveries and retries, must end with
 * the newest notification of every object, and with the object's current state when nothing changed it since.
 * The review's case comes first: a payment declined, then paid within one second, delivered in reverse.
 *
 * Run: node --import tsx --test tests/sandbox/notificationOrder.test.ts   (ORDER_RUNS=<n> for longer hunts)
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {fixedClock} from '../../src/sandbox/engine/clock';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import type {JsonObject} from '../../src/sandbox/engine/state';
import {createNodeEngine} from '../../src/sandbox/hosts/server/loadEngine';
import {engineClient} from '../support/sandboxClient';

const start = Date.parse('2026-11-26T12:58:50Z');
const paidCard = '4000000000000002';
const declinedCard = '4000000000009995';

interface Delivered {
  readonly notificationId: string;
  readonly eventType: string;
  readonly data: JsonObject;
}

/** Which object a notification is about: its kind and the merchant's (or provider's) key of it. */
function objectKey(notification: Delivered): string {
  const data = notification.data;
  const id =
    data['refundId'] ?? data['chargebackId'] ?? data['merchantTransferNo'] ?? data['merchantAgreementNo'] ?? data['merchantOrderNo'];
  return `${notification.eventType.split('.')[0] ?? ''}:${String(id)}`;
}

/** The receiver the pages describe: per object, the data of the highest version applied so far. */
function applyInOrder(notifications: readonly Delivered[]): Map<string, JsonObject> {
  const held = new Map<string, JsonObject>();
  for (const notification of notifications) {
    const key = objectKey(notification);
    const version = notification.data['version'];
    assert.ok(
      typeof version === 'number' && Number.isInteger(version) && version >= 1,
      `${notification.eventType} carries an integer version`,
    );
    const current = held.get(key);
    if (current === undefined || version > (current['version'] as number)) held.set(key, notification.data);
  }
  return held;
}

async function setUp(acknowledge: () => boolean = () => true) {
  const delivered: Delivered[] = [];
  const transport: NotificationTransport = {
    deliver: async (delivery) => {
      delivered.push(JSON.parse(delivery.body) as Delivered);
      return acknowledge() ? {status: 200, body: '{"code":"SUCCESS"}'} : {status: 500, body: 'busy'};
    },
  };
  const engine = await createNodeEngine({clock: fixedClock(start), transport, rateLimits: false});
  return {engine, client: engineClient(engine), delivered};
}

const hostedOrder = (merchantOrderNo: string, value: number) => ({
  merchantOrderNo,
  amount: {value, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: `Order ${merchantOrderNo}`,
  returnUrl: 'https://shop.example.com/return',
  notifyUrl: 'https://shop.example.com/payments/notify',
});

test('the review case: declined then paid in the same second, delivered in reverse, leaves the order PAID', async () => {
  const {engine, client, delivered} = await setUp();
  const no = 'ORD-20261126-10af0a95ed';
  assert.equal((await client.call('POST', '/v1/orders', hostedOrder(no, 2200))).json.code, 'SUCCESS');
  assert.ok((await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: declinedCard})).ok);
  assert.ok((await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: paidCard})).ok);
  await engine.runDue();
  await engine.settle();
  // Both are sent; in which order they reach the receiver is not promised (each delivery runs on its own), which is
  // the point of the version: pick each by its event type.
  assert.deepEqual(delivered.map((delivery) => delivery.eventType).sort(), ['ORDER.PAID', 'ORDER.PAYMENT_FAILED']);
  const failed = delivered.find((delivery) => delivery.eventType === 'ORDER.PAYMENT_FAILED');
  const paid = delivered.find((delivery) => delivery.eventType === 'ORDER.PAID');
  assert.equal(failed?.data['updatedAt'], paid?.data['updatedAt'], 'the same second: updatedAt cannot order them');
  assert.ok((paid?.data['version'] as number) > (failed?.data['version'] as number));
  const held = applyInOrder([paid as Delivered, failed as Delivered]);
  assert.equal(held.get(`ORDER:${no}`)?.['status'], 'PAID');
});

/** One thing a session does to the sandbox. */
type Action =
  | {readonly kind: 'create'; readonly value: number}
  | {readonly kind: 'pay'; readonly order: number; readonly declined: boolean}
  | {readonly kind: 'refund'; readonly order: number; readonly value: number}
  | {readonly kind: 'revoke'; readonly order: number}
  | {readonly kind: 'cancel'; readonly order: number}
  | {readonly kind: 'chargeback'; readonly order: number; readonly won: boolean}
  | {readonly kind: 'redeliver'; readonly pick: number}
  | {readonly kind: 'advance'; readonly seconds: number};

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({kind: fc.constant('create' as const), value: fc.constantFrom(1000, 2500, 1093)}),
  fc.record({kind: fc.constant('pay' as const), order: fc.nat(5), declined: fc.boolean()}),
  fc.record({kind: fc.constant('refund' as const), order: fc.nat(5), value: fc.constantFrom(100, 400, 1000)}),
  fc.record({kind: fc.constant('revoke' as const), order: fc.nat(5)}),
  fc.record({kind: fc.constant('cancel' as const), order: fc.nat(5)}),
  fc.record({kind: fc.constant('chargeback' as const), order: fc.nat(5), won: fc.boolean()}),
  fc.record({kind: fc.constant('redeliver' as const), pick: fc.nat(50)}),
  fc.record({kind: fc.constant('advance' as const), seconds: fc.constantFrom(0, 1, 5, 30, 3600)}),
);

const numRuns = Number(process.env['ORDER_RUNS'] ?? 60);

test(
  `in any delivered order, with redeliveries and retries, the rule ends with each object's newest state (${numRuns} sessions)`,
  {timeout: 300_000},
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, {minLength: 4, maxLength: 18}),
        fc.array(fc.boolean(), {minLength: 1, maxLength: 20}),
        fc.infiniteStream(fc.nat()),
        async (actions, acks, shuffleSeeds) => {
          let ackIndex = 0;
          const {engine, client, delivered} = await setUp(() => acks[ackIndex++ % acks.length] ?? true);
          const orders: string[] = [];
          const orderAt = (index: number) => orders[index % Math.max(1, orders.length)];
          for (const [index, step] of actions.entries()) {
            const no = orderAt('order' in step ? step.order : 0);
            if (step.kind === 'create') {
              const created = `ORD-${start}-${index}`;
              await client.call('POST', '/v1/orders', hostedOrder(created, step.value));
              orders.push(created);
            } else if (step.kind === 'advance') {
              await engine.advance(step.seconds);
            } else if (step.kind === 'redeliver') {
              const events = engine.snapshot(client.clientId)?.events ?? [];
              const event = events[step.pick % Math.max(1, events.length)];
              if (event) await client.call('POST', `/v1/events/${event.event.notificationId}/redeliver`);
            } else if (no !== undefined) {
              if (step.kind === 'pay')
                await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: step.declined ? declinedCard : paidCard});
              if (step.kind === 'refund')
                await client.call('POST', `/v1/orders/${no}/refunds`, {
                  merchantRefundNo: `RFD-${start}-${index}`,
                  amount: {value: step.value, currency: 'USD'},
                });
              if (step.kind === 'revoke') await client.call('POST', `/v1/orders/${no}/revoke`);
              if (step.kind === 'cancel') await client.call('POST', `/v1/orders/${no}/cancel`);
              if (step.kind === 'chargeback') {
                const opened = await engine.control.openChargeback(client.clientId, no);
                if (opened.ok)
                  await engine.control.resolveChargeback(
                    client.clientId,
                    String((opened.value as JsonObject)['chargebackId']),
                    step.won ? 'WON' : 'LOST',
                  );
              }
            }
            await engine.runDue();
            await engine.settle();
          }
          await engine.advance(3 * 86400); // every retry and pending job runs out
          await engine.settle();

          // Versions go up by one per change, and one version never carries two different states.
          const byKeyAndVersion = new Map<string, string>();
          for (const notification of delivered) {
            const signature = `${objectKey(notification)}#${String(notification.data['version'])}`;
            const seen = byKeyAndVersion.get(signature);
            const state = JSON.stringify(notification.data);
            assert.ok(seen === undefined || seen === state, `${signature}: two states under one version`);
            byKeyAndVersion.set(signature, state);
          }
          const newest = applyInOrder(delivered);
          const snapshot = engine.snapshot(client.clientId);
          const current = new Map<string, JsonObject>();
          for (const order of snapshot?.orders ?? []) current.set(`ORDER:${String(order['merchantOrderNo'])}`, order);
          for (const refund of snapshot?.refunds ?? []) current.set(`REFUND:${String(refund['refundId'])}`, refund);
          for (const chargeback of snapshot?.chargebacks ?? []) current.set(`CHARGEBACK:${String(chargeback['chargebackId'])}`, chargeback);

          // Any delivered order (a few shuffles of the whole log, redeliveries and retries included) ends the same.
          for (let round = 0; round < 4; round += 1) {
            const shuffled = delivered
              .map((notification, index) => ({notification, key: shuffleSeeds.next().value ?? index}))
              .sort((a, b) => a.key - b.key)
              .map((entry) => entry.notification);
            const held = applyInOrder(shuffled);
            assert.deepEqual(held, newest, 'the order of delivery does not change what the receiver ends with');
          }
          for (const [key, data] of newest) {
            const now = current.get(key);
            assert.ok(now, `${key} exists`);
            assert.ok((now['version'] as number) >= (data['version'] as number), `${key}: no notification is ahead of the object`);
            if (now['version'] === data['version']) assert.deepEqual(data, now, `${key}: the receiver holds the current state`);
          }
        },
      ),
      {numRuns},
    );
  },
);
