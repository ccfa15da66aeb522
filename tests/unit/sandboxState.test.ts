/**
 * The sandbox's state as a document: an export imported into a fresh engine is the same sandbox (objects,
 * balances, ledger, jobs still due, API calls carry on), the store receives it in one step, and a malformed
 * document is refused with a sentence naming the problem while the state stays as it was.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {fixedClock} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import {stateFormat, type SandboxStateDocument} from '../../src/sandbox/engine/stateDocument';
import type {RecordChange, RecordValue, SandboxStore} from '../../src/sandbox/engine/store';
import {createNodeEngine} from '../../src/sandbox/hosts/server/loadEngine';
import {engineClient} from '../support/sandboxClient';

const start = Date.parse('2026-11-25T10:00:00Z');
const hostedOrder = (merchantOrderNo: string, value: number) => ({
  merchantOrderNo,
  amount: {value, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'State test',
  returnUrl: 'https://shop.example.com/return',
});

/** A store that keeps its records and counts how it was written. */
function recordingStore(): SandboxStore & {records: Map<string, RecordValue>; replaced: number} {
  const records = new Map<string, RecordValue>();
  const store = {
    records,
    replaced: 0,
    load: async () => [...records],
    commit: async (changes: readonly RecordChange[]) => {
      for (const {key, value} of changes) {
        if (value === undefined) records.delete(key);
        else records.set(key, JSON.parse(JSON.stringify(value)) as RecordValue);
      }
    },
    clear: async () => records.clear(),
    replace: async (entries: ReadonlyArray<readonly [string, RecordValue]>) => {
      store.replaced += 1;
      records.clear();
      for (const [key, value] of entries) records.set(key, value);
    },
  };
  return store;
}

/** An engine with a paid order, a refund still PROCESSING (a job on the clock) and a notification. */
async function busyEngine(): Promise<{engine: SandboxEngine; orderNo: string; clientId: string}> {
  const engine = await createNodeEngine({
    clock: fixedClock(start),
    transport: {deliver: async () => ({status: 200, body: '{"code":"SUCCESS"}'})},
  });
  const client = engineClient(engine);
  const orderNo = 'ORD-STATE-1';
  assert.equal((await client.call('POST', '/v1/orders', hostedOrder(orderNo, 1000))).json.code, 'SUCCESS');
  assert.ok((await engine.shopper.pay(client.clientId, orderNo, {method: 'CARD', cardNumber: '4000000000000002'})).ok);
  assert.equal(
    (await client.call('POST', `/v1/orders/${orderNo}/refunds`, {merchantRefundNo: 'RFD-STATE-1', amount: {value: 400, currency: 'USD'}}))
      .json.code,
    'SUCCESS',
  );
  return {engine, orderNo, clientId: client.clientId};
}

/** What a reader of the state sees: objects, balances, ledger. */
function view(engine: SandboxEngine, clientId: string) {
  const snapshot = engine.snapshot(clientId);
  return {
    snapshot: JSON.parse(JSON.stringify(snapshot)) as unknown,
    balances: [...engine.balances(clientId)],
    ledger: engine.ledger(clientId),
    merchants: engine.merchantIds().sort(),
    jobs: engine.pendingJobs(),
  };
}

describe('sandbox state export and import', () => {
  test('an export imported into a fresh engine is the same sandbox, and the API carries on from it', async () => {
    const {engine, orderNo, clientId} = await busyEngine();
    const document = engine.exportState();
    assert.equal(document.format, stateFormat);
    assert.equal(document.version, 1);
    // Through text, as a downloaded file travels.
    const text = JSON.stringify(document);

    const store = recordingStore();
    const fresh = await createNodeEngine({clock: fixedClock(start), store});
    const imported = await fresh.importState(JSON.parse(text));
    assert.ok(imported.ok, JSON.stringify(imported));
    assert.deepEqual(view(fresh, clientId), view(engine, clientId));
    assert.equal(store.replaced, 1, 'the store took the records in one step');
    assert.equal(store.records.size, document.records.length);
    assert.deepEqual(engine.merchant(clientId), fresh.merchant(clientId));

    // The refund's job came along: moving the clock completes it in both.
    assert.ok(fresh.pendingJobs(clientId) > 0);
    await engine.advance(10);
    await fresh.advance(10);
    // Each engine raised its own REFUND.SUCCEEDED, with a random notification ID: the rest is the same.
    const settled = (of: SandboxEngine) => ({
      refunds: of.snapshot(clientId)?.refunds,
      balances: [...of.balances(clientId)],
      ledger: of.ledger(clientId),
      events: of.snapshot(clientId)?.events.length,
    });
    assert.deepEqual(settled(fresh), settled(engine));
    assert.equal(fresh.snapshot(clientId)?.refunds[0]?.['status'], 'SUCCEEDED');
    const client = engineClient(fresh);
    const order = await client.call('GET', `/v1/orders/${orderNo}`);
    assert.equal((order.json.data as {status: string}).status, 'PARTIALLY_REFUNDED');
    assert.equal((await client.call('POST', '/v1/orders', hostedOrder('ORD-STATE-2', 500))).json.code, 'SUCCESS');
    assert.equal(
      (await client.call('POST', '/v1/orders', hostedOrder(orderNo, 900))).json.code,
      'IDEMPOTENCY_CONFLICT',
      'the imported order still holds its number',
    );
  });

  test('a malformed document is refused with a clear sentence, and nothing changes', async () => {
    const {engine, clientId} = await busyEngine();
    const before = view(engine, clientId);
    const good = engine.exportState();
    const records = good.records.map(([key, value]) => [key, value] as [string, RecordValue]);
    const withRecord = (index: number, entry: unknown) => ({
      ...good,
      records: records.map((record, position) => (position === index ? entry : record)),
    });
    const ledgerIndex = records.findIndex(([key]) => key.includes('/ledger/'));
    const orderIndex = records.findIndex(([key]) => key.includes('/order/'));
    const cases: Array<[unknown, RegExp]> = [
      ['not an object', /not a JSON object/],
      [{...good, format: 'something-else'}, /format is "something-else", not "veloxa-sandbox-state"/],
      [{...good, version: 2}, /format version 2; this sandbox reads version 1/],
      [{...good, contractVersion: '99.0.0'}, /contract version 99\.0\.0.*different major version/],
      [{...good, records: 'none'}, /no records list/],
      [withRecord(0, ['only a key']), /Record 1 is not a \[key, value\] pair/],
      [
        withRecord(orderIndex, ['nobody/order/ORD-X', records[orderIndex]?.[1]]),
        /belongs to nobody, a merchant the document does not contain/,
      ],
      [withRecord(orderIndex, [`${clientId}/orders/ORD-X`, {}]), /not a sandbox record/],
      [
        withRecord(orderIndex, [records[orderIndex]?.[0], {order: {merchantOrderNo: 'OTHER'}}]),
        /merchantOrderNo "OTHER", not the "ORD-STATE-1" of its key/,
      ],
      [
        withRecord(ledgerIndex, [records[ledgerIndex]?.[0], {...(records[ledgerIndex]?.[1] as object), legs: {available: 'lots'}}]),
        /legs other than integer/,
      ],
      [{...good, records: records.filter((_, position) => position !== ledgerIndex)}, /ledger of .* not numbered/],
      [{...good, records: [...records, records[0]]}, /repeats the key/],
      [withRecord(orderIndex, [records[orderIndex]?.[0], JSON.parse(`{"__proto__": {"polluted": true}}`)]), /__proto__/],
    ];
    for (const [document, message] of cases) {
      const result = await engine.importState(document);
      assert.equal(result.ok, false, `accepted: ${JSON.stringify(document).slice(0, 80)}`);
      if (!result.ok) {
        assert.equal(result.code, 'INVALID_PARAMETER');
        assert.match(result.message, message);
      }
    }
    assert.deepEqual(view(engine, clientId), before, 'the state is untouched');
    assert.ok((await engine.importState(good as SandboxStateDocument)).ok, 'the unchanged export still imports');
  });

  test('an export without the test merchant gets it back as new, with its opening balances', async () => {
    const {engine, clientId} = await busyEngine();
    const document = engine.exportState();
    const withoutTestMerchant = {
      ...document,
      records: document.records.filter(([key]) => !key.includes(clientId) && !key.startsWith('~/job/')),
    };
    const result = await engine.importState(withoutTestMerchant);
    assert.ok(result.ok, JSON.stringify(result));
    assert.deepEqual(engine.snapshot(clientId)?.orders, []);
    assert.ok(engine.ledger(clientId).every((entry) => entry.memo.startsWith('opening balance')));
  });
});
