/**
 * The delivery log (src/sandbox/engine/deliveryLog.ts): kept in memory for a store that does not keep it (newest
 * entries only), or handed to the store with the next batch for one that does (PostgreSQL), where reads go.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {DeliveryLogEntry} from '../../src/sandbox/engine/api';
import {DeliveryLog, deliveryLogLimit} from '../../src/sandbox/engine/deliveryLog';
import {memoryStore, type SandboxStore} from '../../src/sandbox/engine/store';

const entry = (clientId: string, at: string, notificationId = 'ntf_1'): DeliveryLogEntry => ({
  clientId,
  notificationId,
  eventType: 'ORDER.PAID',
  url: 'https://shop.example.com/notify',
  at,
  acknowledged: true,
  httpStatus: 200,
});

describe('the delivery log', () => {
  test('in memory: each merchant lists its own, oldest first; forget and expire act on one merchant; the newest entries are kept', async () => {
    const log = new DeliveryLog(memoryStore());
    log.record(entry('a', '2026-01-01T00:00:00Z'));
    log.record(entry('b', '2026-01-01T00:00:00Z'));
    log.record(entry('a', '2026-02-01T00:00:00Z'));
    assert.deepEqual(
      (await log.list('a')).map((kept) => kept.at),
      ['2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'],
    );
    assert.equal(log.drain(), undefined, 'nothing goes to a store that does not keep the log');
    log.expire(new Map([['a', '2026-01-15T00:00:00Z']]));
    assert.deepEqual(
      (await log.list()).map((kept) => [kept.clientId, kept.at]),
      [
        ['b', '2026-01-01T00:00:00Z'],
        ['a', '2026-02-01T00:00:00Z'],
      ],
      "a's old entry went, b's of the same day stayed",
    );
    log.forget('b');
    assert.deepEqual(
      (await log.list()).map((kept) => kept.clientId),
      ['a'],
    );
    for (let index = 0; index < deliveryLogLimit + 5; index += 1) log.record(entry('c', '2026-03-01T00:00:00Z', `ntf_${index}`));
    const kept = await log.list();
    assert.equal(kept.length, deliveryLogLimit);
    assert.equal(kept.at(-1)?.notificationId, `ntf_${deliveryLogLimit + 4}`, 'the newest are kept');
  });

  test('for a store that keeps it: changes go with the next batch (removals, then additions) and reads go to the store', async () => {
    const asked: Array<[string | undefined, number]> = [];
    const store: SandboxStore = {
      ...memoryStore(),
      deliveries: async (clientId, limit) => {
        asked.push([clientId, limit]);
        return [entry('stored', '2026-01-01T00:00:00Z')];
      },
    };
    const log = new DeliveryLog(store);
    log.record(entry('a', '2026-01-01T00:00:00Z'));
    log.record(entry('b', '2026-01-01T00:00:00Z'));
    log.forget('a');
    log.record(entry('a', '2026-01-02T00:00:00Z'));
    log.expire(new Map([['b', '2026-01-01T12:00:00Z']]));
    assert.deepEqual(log.drain(), {
      removed: [{clientId: 'a'}, {clientId: 'b', before: '2026-01-01T12:00:00Z'}],
      added: [entry('a', '2026-01-02T00:00:00Z')],
    });
    assert.equal(log.drain(), undefined, 'drained once');
    assert.deepEqual(
      (await log.list('a')).map((kept) => kept.clientId),
      ['stored'],
    );
    assert.deepEqual(asked, [['a', deliveryLogLimit]]);
    log.record(entry('a', '2026-01-03T00:00:00Z'));
    log.clear();
    assert.equal(log.drain(), undefined, 'a whole reset drops what was not yet handed over');
  });
});
