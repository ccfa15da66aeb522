/** A commit's batch (state.ts, ChangeSet): what a store receives cannot change after the commit, and frozen records are not copied again. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {ChangeSet, deepFreeze} from '../../src/sandbox/engine/state';
import type {RecordValue} from '../../src/sandbox/engine/store';

test('a frozen record goes into the batch as it is; an unfrozen one (a job) is copied, so later edits miss the batch', () => {
  const changes = new ChangeSet();
  const order = deepFreeze({order: {merchantOrderNo: 'A-1', amount: {value: 100, currency: 'USD'}}});
  const job: {[key: string]: RecordValue} = {id: 'job_1', dueAt: 1000, attempts: 0};
  changes.touch('m/order/A-1', () => order);
  changes.touch('~/job/job_1', () => job);
  changes.touch('m/order/GONE', () => undefined);
  changes.touch('~/clock/offset', () => 5);
  const batch = new Map(changes.drain().map((change) => [change.key, change.value]));
  assert.equal(batch.get('m/order/A-1'), order, 'a frozen record is handed over without a JSON round trip');
  assert.notEqual(batch.get('~/job/job_1'), job);
  job['attempts'] = 1;
  assert.deepEqual(batch.get('~/job/job_1'), {id: 'job_1', dueAt: 1000, attempts: 0});
  assert.equal(batch.has('m/order/GONE') && batch.get('m/order/GONE'), undefined);
  assert.equal(batch.get('~/clock/offset'), 5);
  assert.throws(() => ((order.order.amount as {value: number}).value = 1), TypeError);
  assert.equal(changes.size, 0);
});
