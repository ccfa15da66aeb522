/**
 * The in-browser sandbox's notification inbox in IndexedDB, so a reload or another page finds the
 * notifications the engine delivered. Its own database: the engine's store replaces or clears its
 * records without knowing about the inbox. Only the newest `limit` entries are kept.
 */
import type {InboxEntry} from './host';
import {done, request} from './indexedDb';

const storeName = 'entries';

export interface InboxStore {
  /** The kept entries, oldest first. */
  load(): Promise<InboxEntry[]>;
  /** Adds one entry, dropping the oldest beyond the limit. */
  add(entry: InboxEntry): Promise<void>;
  /** Replaces every entry (an import), in one transaction. */
  replace(entries: readonly InboxEntry[]): Promise<void>;
  clear(): Promise<void>;
}

export async function indexedDbInbox(databaseName: string, limit: number): Promise<InboxStore> {
  const opening = indexedDB.open(databaseName, 1);
  opening.onupgradeneeded = () => {
    if (!opening.result.objectStoreNames.contains(storeName)) opening.result.createObjectStore(storeName, {autoIncrement: true});
  };
  const database = await request(opening);
  /** The keys of the kept entries, oldest first, to find the ones past the limit without reading them. */
  let keys: IDBValidKey[] = [];
  return {
    async load() {
      const transaction = database.transaction(storeName, 'readonly');
      const entries = transaction.objectStore(storeName);
      const [found, values] = await Promise.all([request(entries.getAllKeys()), request(entries.getAll())]);
      keys = found;
      return values as InboxEntry[];
    },
    async add(entry) {
      const transaction = database.transaction(storeName, 'readwrite');
      const entries = transaction.objectStore(storeName);
      const adding = request(entries.add(entry));
      // Requested in the same transaction, without awaiting in between: it commits once nothing is queued.
      const excess = keys.length + 1 - limit;
      if (excess > 0) {
        const dropped = keys.splice(0, excess);
        entries.delete(IDBKeyRange.upperBound(dropped[dropped.length - 1] as IDBValidKey));
      }
      await done(transaction);
      keys.push(await adding);
    },
    async replace(list) {
      const transaction = database.transaction(storeName, 'readwrite');
      const entries = transaction.objectStore(storeName);
      entries.clear();
      const added = list.slice(-limit).map((entry) => request(entries.add(entry)));
      await done(transaction);
      keys = await Promise.all(added);
    },
    async clear() {
      const transaction = database.transaction(storeName, 'readwrite');
      transaction.objectStore(storeName).clear();
      await done(transaction);
      keys = [];
    },
  };
}
