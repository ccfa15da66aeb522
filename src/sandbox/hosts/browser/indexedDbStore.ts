/**
 * The browser host's store: every record in one IndexedDB object store, each batch in one
 * readwrite transaction, so a reload finds the sandbox as it was after the last completed call.
 */
import type {RecordChange, RecordValue, SandboxStore} from '../../engine/store';
import {done, request} from './indexedDb';

const storeName = 'records';

export async function indexedDbStore(databaseName: string): Promise<SandboxStore> {
  const opening = indexedDB.open(databaseName, 1);
  opening.onupgradeneeded = () => {
    if (!opening.result.objectStoreNames.contains(storeName)) opening.result.createObjectStore(storeName);
  };
  const database = await request(opening);
  return {
    async load() {
      const transaction = database.transaction(storeName, 'readonly');
      const records = transaction.objectStore(storeName);
      const [keys, values] = await Promise.all([request(records.getAllKeys()), request(records.getAll())]);
      return keys.map((key, index) => [String(key), values[index] as RecordValue] as const);
    },
    async commit(changes: readonly RecordChange[]) {
      if (changes.length === 0) return;
      const transaction = database.transaction(storeName, 'readwrite');
      const records = transaction.objectStore(storeName);
      for (const {key, value} of changes) {
        if (value === undefined) records.delete(key);
        else records.put(value, key);
      }
      await done(transaction);
    },
    async clear() {
      const transaction = database.transaction(storeName, 'readwrite');
      transaction.objectStore(storeName).clear();
      await done(transaction);
    },
    async replace(entries: ReadonlyArray<readonly [string, RecordValue]>) {
      // One transaction: a closed tab or a failed write leaves the old state, never an empty one.
      const transaction = database.transaction(storeName, 'readwrite');
      const records = transaction.objectStore(storeName);
      records.clear();
      for (const [key, value] of entries) records.put(value, key);
      await done(transaction);
    },
  };
}
