/**
 * A rejected call changes nothing but what the contract says it keeps: the request's nonce (remembered so the
 * same signed request cannot be replayed) and, for Revoke order on an unknown number, its tombstone
 * (x-idempotency.tombstone). A crashed call, job or action changes nothing at all. These hold by construction
 * (engine/unit.ts: each call works on a copy-on-write view of the state), whatever a domain function does:
 * the properties below inject handlers that write and then reject or throw, and crashes at any point.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {fixedClock, type SandboxClock} from '../../src/sandbox/engine/clock';
import {handlers} from '../../src/sandbox/engine/operations';
import type {RecordChange, RecordValue, SandboxStore} from '../../src/sandbox/engine/store';
import {reject} from '../../src/sandbox/engine/tx';
import {createNodeEngine} from '../../src/sandbox/hosts/server/loadEngine';
import {engineClient} from '../support/sandboxClient';

const start = Date.parse('2026-11-25T10:00:00Z');
const order = (merchantOrderNo: string, value: number) => ({
  merchantOrderNo,
  amount: {value, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'Sandbox test',
  returnUrl: 'https://shop.example.com/return',
});

/** Requests that must each be refused, built from generated values. */
const rejecting = fc.oneof(
  fc.integer({min: 1, max: 10 ** 9}).map((value) => ({
    method: 'POST',
    target: '/v1/orders/ORD-PEND-0001/refunds',
    body: {merchantRefundNo: `RF-${value}`, amount: {value: 10 ** 10 + value, currency: 'USD'}},
  })),
  fc.stringMatching(/^[A-Z]{3}-[0-9]{6}$/).map((no) => ({method: 'POST', target: `/v1/orders/${no}/cancel`, body: undefined})),
  fc.integer({min: 1, max: 59}).map((seconds) => ({
    method: 'POST',
    target: '/v1/orders/ORD-PEND-0001/expiry-time',
    body: {expiresAt: new Date(start + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')},
  })),
  fc.integer({min: 32, max: 400}).map((days) => ({
    method: 'GET',
    target: `/v1/orders?createdFrom=2026-01-01T00:00:00Z&createdTo=${new Date(Date.parse('2026-01-01T00:00:00Z') + days * 86400000).toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    body: undefined,
  })),
  fc.string({maxLength: 30}).map((text) => ({method: 'POST', target: '/v1/orders', body: `{"merchantOrderNo": ${JSON.stringify(text)}`})),
  fc.constant({method: 'POST', target: '/v1/wallet-auth/token', body: {authCode: 'wac_unknown_code_0000000000'}}),
);

const withoutNonces = (records: ReadonlyArray<readonly [string, unknown]>) => records.filter(([key]) => !key.includes('/nonce/'));

test('a rejected call leaves the exported state as it was, but for its nonce', async () => {
  const engine = await createNodeEngine({clock: fixedClock(start)});
  const client = engineClient(engine);
  assert.equal((await client.call('POST', '/v1/orders', order('ORD-PEND-0001', 1000))).json.code, 'SUCCESS');
  await fc.assert(
    fc.asyncProperty(rejecting, async (request) => {
      const before = withoutNonces(engine.exportState().records);
      const result = await client.call(request.method, request.target, request.body);
      assert.notEqual(result.json.code, 'SUCCESS', `${request.method} ${request.target} was accepted`);
      assert.deepEqual(
        withoutNonces(engine.exportState().records),
        before,
        `${request.method} ${request.target} answered ${String(result.json.code)} and changed the state`,
      );
    }),
    {numRuns: 60},
  );
});

test('Revoke order on an unknown number is rejected and keeps only its nonce and the tombstone', async () => {
  const engine = await createNodeEngine({clock: fixedClock(start), rateLimits: false});
  const client = engineClient(engine);
  await fc.assert(
    fc.asyncProperty(fc.stringMatching(/^REV-[0-9]{8}$/), async (no) => {
      fc.pre(!engine.exportState().records.some(([key]) => key.endsWith(`/tombstone/${no}`)));
      const before = withoutNonces(engine.exportState().records);
      const result = await client.call('POST', `/v1/orders/${no}/revoke`);
      assert.equal(result.json.code, 'ORDER_NOT_FOUND');
      const added = withoutNonces(engine.exportState().records).filter(([key]) => !before.some(([seen]) => seen === key));
      assert.deepEqual(
        added.map(([key]) => key),
        [`${client.clientId}/tombstone/${no}`],
      );
      assert.deepEqual(
        withoutNonces(engine.exportState().records).filter(([key]) => !key.includes('/tombstone/')),
        before.filter(([key]) => !key.includes('/tombstone/')),
      );
    }),
    {numRuns: 20},
  );
});

/** A store that holds what it was given, to compare with what it held before a call. */
function recordingStore(): SandboxStore & {records(): Array<[string, RecordValue]>} {
  const held = new Map<string, RecordValue>();
  return {
    load: async () => [],
    commit: async (changes: readonly RecordChange[]) => {
      for (const {key, value} of changes) {
        if (value === undefined) held.delete(key);
        else held.set(key, JSON.parse(JSON.stringify(value)) as RecordValue);
      }
    },
    clear: async () => held.clear(),
    records: () => [...held].sort(([a], [b]) => (a < b ? -1 : 1)),
  };
}

/** A fixed clock whose now() throws at its `armed`-th call, for crashes at any point of a call. */
function faultyClock(at: number): {clock: SandboxClock; arm(calls: number): void; disarm(): void} {
  const inner = fixedClock(at);
  let countdown = Number.POSITIVE_INFINITY;
  const clock: SandboxClock = {
    now: () => {
      countdown -= 1;
      if (countdown === 0) throw new Error('injected clock fault');
      return inner.now();
    },
    get offsetMs() {
      return inner.offsetMs;
    },
    advanceBy: (ms) => inner.advanceBy(ms),
    advanceTo: (ms) => inner.advanceTo(ms),
  };
  return {clock, arm: (calls) => (countdown = calls), disarm: () => (countdown = Number.POSITIVE_INFINITY)};
}

type Handler = (typeof handlers)['cancelOrder'];
type Write = 'putOrder' | 'editCopy' | 'editCopyAndTouch' | 'editIterated' | 'ledger' | 'schedule' | 'merchant' | 'deleteOrder';

/** Writes of every kind a domain function can make, on the paid order `no`; each may also edit records in place. */
function writeAll(writes: readonly Write[], no: string): Handler {
  return (tx, call) => {
    for (const write of writes) {
      const record = call.state.orders.get(no) as {order: Record<string, unknown>} | undefined;
      if (!record) throw new Error(`the test order ${no} is missing`);
      if (write === 'putOrder') tx.put(call.state, 'order', no, {...record, order: {...record.order, status: 'CLOSED'}});
      if (write === 'editCopy') record.order['subject'] = 'edited in place';
      if (write === 'editCopyAndTouch') {
        record.order['status'] = 'CLOSED';
        tx.touch(call.state, 'order', no);
      }
      if (write === 'editIterated')
        for (const other of call.state.orders.values()) (other.order as Record<string, unknown>)['status'] = 'CLOSED';
      if (write === 'ledger')
        tx.put(call.state, 'ledger', `led_injected_${writes.length}`, {
          id: 'led_injected',
          at: 0,
          currency: 'USD',
          legs: {available: 1},
          memo: 'injected',
        });
      if (write === 'schedule') tx.schedule({at: start + 1000, clientId: call.state.merchant.clientId, kind: 'order.expire', ref: no});
      if (write === 'merchant')
        tx.saveMerchant(call.state, {...call.state.merchant, defaultNotifyUrl: 'https://shop.example.com/payments/notify-injected'});
      if (write === 'deleteOrder') tx.put(call.state, 'order', no, undefined);
    }
    return {code: 'SUCCESS'};
  };
}

const writes = fc.array(
  fc.constantFrom<Write>('putOrder', 'editCopy', 'editCopyAndTouch', 'editIterated', 'ledger', 'schedule', 'merchant', 'deleteOrder'),
  {minLength: 1, maxLength: 6},
);

/** Runs `body` with Cancel order's handler replaced by `handler` (a test-only domain handler). */
async function withHandler<T>(handler: Handler, body: () => Promise<T>): Promise<T> {
  const original = handlers.cancelOrder;
  handlers.cancelOrder = handler;
  try {
    return await body();
  } finally {
    handlers.cancelOrder = original;
  }
}

async function engineWithPaidOrder() {
  const store = recordingStore();
  const faulty = faultyClock(start);
  const engine = await createNodeEngine({clock: faulty.clock, store, rateLimits: false});
  const client = engineClient(engine);
  const no = 'ORD-PAID-0001';
  assert.equal((await client.call('POST', '/v1/orders', order(no, 1000))).json.code, 'SUCCESS');
  assert.ok((await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'})).ok);
  await engine.advance(60);
  return {engine, client, store, faulty, no};
}

test('a domain handler that writes and then rejects leaves no trace but its nonce, in memory and in the store', async () => {
  const {engine, client, store, no} = await engineWithPaidOrder();
  await fc.assert(
    fc.asyncProperty(writes, async (made) => {
      const before = {memory: withoutNonces(engine.exportState().records), store: withoutNonces(store.records())};
      const handler = writeAll(made, no);
      const result = await withHandler(
        (tx, call) => (handler(tx, call), reject('ORDER_NOT_PAYABLE', 'Injected: rejected after writing.')),
        () => client.call('POST', `/v1/orders/${no}/cancel`),
      );
      assert.notEqual(result.json.code, 'SUCCESS');
      assert.deepEqual(withoutNonces(engine.exportState().records), before.memory, `${made.join(', ')} then a rejection changed the state`);
      assert.deepEqual(withoutNonces(store.records()), before.store, `${made.join(', ')} then a rejection changed the store`);
    }),
    {numRuns: 40},
  );
});

test('a call that crashes after writing leaves the state and the store exactly as they were, nonce included', async () => {
  const {engine, client, store, no} = await engineWithPaidOrder();
  await fc.assert(
    fc.asyncProperty(writes, async (made) => {
      const before = {memory: engine.exportState().records, store: store.records()};
      const handler = writeAll(made, no);
      const result = await withHandler(
        (tx, call) => {
          handler(tx, call);
          throw new Error('injected crash after writing');
        },
        () => client.call('POST', `/v1/orders/${no}/cancel`),
      );
      assert.equal(result.json.code, 'INTERNAL_ERROR');
      assert.deepEqual(engine.exportState().records, before.memory, `${made.join(', ')} then a crash changed the state`);
      assert.deepEqual(store.records(), before.store, `${made.join(', ')} then a crash changed the store`);
    }),
    {numRuns: 40},
  );
});

test('a shopper action or a job that crashes at any point leaves no trace', async () => {
  const crashed = {action: 0, job: 0};
  const withoutClock = (records: ReadonlyArray<readonly [string, unknown]>) => records.filter(([key]) => key !== '~/clock/offset');
  await fc.assert(
    fc.asyncProperty(fc.integer({min: 1, max: 12}), fc.integer({min: 1, max: 12}), async (actionAt, jobAt) => {
      const store = recordingStore();
      const faulty = faultyClock(start);
      const engine = await createNodeEngine({clock: faulty.clock, store, rateLimits: false});
      const client = engineClient(engine);
      const no = 'ORD-EXPIRING-01';
      assert.equal((await client.call('POST', '/v1/orders', order(no, 1000))).json.code, 'SUCCESS');
      // The customer pays: the action crashes at its actionAt-th reading of the clock, if it reads it that often.
      let before = {memory: engine.exportState().records, store: store.records()};
      faulty.arm(actionAt);
      const paid = await engine.shopper
        .pay(client.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'})
        .catch((error: Error) => error);
      faulty.disarm();
      if (!(paid instanceof Error)) return;
      crashed.action += 1;
      assert.deepEqual(engine.exportState().records, before.memory, `pay crashing at clock reading ${actionAt} changed the state`);
      assert.deepEqual(store.records(), before.store, `pay crashing at clock reading ${actionAt} changed the store`);
      // The unpaid order's expiry job comes due and crashes at its jobAt-th reading of the clock (advance reads it once first).
      before = {memory: engine.exportState().records, store: store.records()};
      faulty.arm(jobAt + 1);
      const ran = await engine.advance(31 * 60).catch((error: Error) => error);
      faulty.disarm();
      if (!(ran instanceof Error)) return;
      crashed.job += 1;
      // The clock moved to the job's time before it ran: that is advance's doing, not the job's.
      assert.deepEqual(
        withoutClock(engine.exportState().records),
        withoutClock(before.memory),
        `a job crashing at clock reading ${jobAt} changed the state`,
      );
      assert.deepEqual(store.records(), before.store, `a job crashing at clock reading ${jobAt} changed the store`);
      assert.equal(engine.pendingJobs(), 1, 'the crashed job is queued again');
    }),
    {numRuns: 30},
  );
  assert.ok(crashed.action > 0 && crashed.job > 0, `the injected fault must hit both: ${JSON.stringify(crashed)}`);
});
