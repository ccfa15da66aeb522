/**
 * Where the in-browser sandbox keeps its notification inbox (src/sandbox/client/inbox.ts): IndexedDB, so a
 * reload or another page finds the notifications the engine delivered. Its own database: the engine's
 * store replaces or clears its records without knowing about the inbox.
 */
import type {InboxEntry, InboxStorage} from '../../client/inbox';
import {done, request} from './indexedDb';

const storeName = 'entries';

export async function indexedDbInbox(databaseName: string): Promise<InboxStorage> {
  const opening = indexedDB.open(databaseName, 1);
  opening.onupgradeneeded = () => {
    if (!opening.result.objectStoreNames.contains(storeName)) opening.result.createObjectStore(storeName, {autoIncrement: true});
  };
  const database = await request(opening);
  /** The keys of the kept entries, oldest first, to delete the dropped ones without reading them. */
  let keys: IDBValidKey[] = [];
  return {
    async load() {
      const transaction = database.transaction(storeName, 'readonly');
      const entries = transaction.objectStore(storeName);
      const [found, values] = await Promise.all([request(entries.getAllKeys()), request(entries.getAll())]);
      keys = found;
      // Entries kept before they were numbered are numbered by their order.
      return (values as Array<Omit<InboxEntry, 'seq'> & {seq?: number}>).map((entry, index) => ({...entry, seq: entry.seq ?? index + 1}));
    },
    async add(entry, dropped) {
      const transaction = database.transaction(storeName, 'readwrite');
      const entries = transaction.objectStore(storeName);
      const adding = request(entries.add(entry));
      // Requested in the same transaction, without awaiting in between: it commits once nothing is queued.
      const gone = keys.splice(0, dropped.length);
      if (gone.length > 0) entries.delete(IDBKeyRange.upperBound(gone[gone.length - 1] as IDBValidKey));
      await done(transaction);
      keys.push(await adding);
    },
    async replace(list) {
      const transaction = database.transaction(storeName, 'readwrite');
      const entries = transaction.objectStore(storeName);
      entries.clear();
      const added = list.map((entry) => request(entries.add(entry)));
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
