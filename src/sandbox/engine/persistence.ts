/**
 * The engine's state as store records and back: merchants, their collections, jobs and the clock offset,
 * under the keys the store and the state document use (state.ts recordKey and engineKey).
 */
import type {SandboxClock} from './clock';
import {collections, engineKey, MerchantRecords, recordKey, type Collection, type JobRecord, type MerchantRecord} from './state';
import type {RecordValue} from './store';

/** Where loaded records go: the merchants map, a job sink, and the clock. */
export interface RecordTarget {
  readonly merchants: Map<string, MerchantRecords>;
  addJob(job: JobRecord): void;
  readonly clock: SandboxClock;
}

/** Fills an empty engine from records; keys it does not know (another host's) are skipped. */
export function loadRecords(records: Iterable<readonly [string, RecordValue]>, target: RecordTarget): void {
  const rest: Array<readonly [string, RecordValue]> = [];
  for (const entry of records) {
    const [key, value] = entry;
    if (key.startsWith('~/merchant/')) {
      const merchant = value as unknown as MerchantRecord;
      target.merchants.set(merchant.clientId, new MerchantRecords(merchant));
    } else rest.push(entry);
  }
  for (const [key, value] of rest) {
    if (key.startsWith('~/job/')) {
      target.addJob(value as unknown as JobRecord);
      continue;
    }
    if (key === '~/clock/offset') {
      target.clock.advanceBy(Number(value) - target.clock.offsetMs);
      continue;
    }
    const [clientId = '', collection = '', ...id] = key.split('/');
    const state = target.merchants.get(clientId);
    if (!state || !(collections as readonly string[]).includes(collection)) continue;
    state.set(collection as Collection, id.join('/'), value);
  }
}

/** Every record the store would hold, copied, so the caller may keep or change them freely. */
export function exportRecords(
  merchants: Iterable<MerchantRecords>,
  jobs: readonly JobRecord[],
  clockOffsetMs: number,
): Array<[string, RecordValue]> {
  const records: Array<[string, RecordValue]> = [];
  const copy = (value: unknown) => JSON.parse(JSON.stringify(value)) as RecordValue;
  const states = [...merchants];
  for (const state of states) records.push([engineKey('merchant', state.merchant.clientId), copy(state.merchant)]);
  for (const state of states) {
    for (const collection of collections) {
      for (const [id, value] of state.map(collection)) records.push([recordKey(state.merchant.clientId, collection, id), copy(value)]);
    }
  }
  for (const job of [...jobs].sort((a, b) => a.seq - b.seq)) records.push([engineKey('job', job.id), copy(job)]);
  records.push([engineKey('clock', 'offset'), clockOffsetMs]);
  return records;
}
