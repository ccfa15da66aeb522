/**
 * The delivery log: every notification attempt, what `/_sandbox/notifications` lists. Where the store keeps it
 * (PostgreSQL: one log that every instance on the database reads), the engine only gathers the batch's changes
 * and hands them to the store with the records of the attempt's outcome, so both are written in one
 * transaction; reads go to the store. Elsewhere (in memory, the journal, IndexedDB) it lives in this process's
 * memory, as the newest entries only, and a restart forgets it.
 */
import type {DeliveryLogEntry} from './api';
import type {DeliveryLogChanges, SandboxStore} from './store';

/** The most entries a process keeps in memory, and the most one read answers. */
export const deliveryLogLimit = 10_000;

export class DeliveryLog {
  /** The log itself, when the store does not keep it. */
  private readonly entries: DeliveryLogEntry[] = [];
  /** Changes for the store's next batch, when it keeps the log. */
  private added: DeliveryLogEntry[] = [];
  private removed: Array<{clientId: string; before?: string}> = [];

  constructor(private readonly store: SandboxStore) {}

  private get kept(): boolean {
    return this.store.deliveries !== undefined;
  }

  /** One attempt, as it was answered. */
  record(entry: DeliveryLogEntry): void {
    const list = this.kept ? this.added : this.entries;
    list.push(entry);
    if (!this.kept && list.length > deliveryLogLimit) list.splice(0, list.length - deliveryLogLimit);
  }

  /** Forgets every entry of one merchant (reset or removed). */
  forget(clientId: string): void {
    this.forgetWhere([{clientId}]);
  }

  /** Forgets each merchant's entries dated before its cutoff (ISO seconds on its clock): the events' retention. */
  expire(cutoffs: ReadonlyMap<string, string>): void {
    this.forgetWhere([...cutoffs].map(([clientId, before]) => ({clientId, before})));
  }

  private forgetWhere(removed: ReadonlyArray<{clientId: string; before?: string}>): void {
    const cutoffs = new Map(removed.map(({clientId, before}) => [clientId, before ?? '~']));
    // '~' sorts after every date: all of that merchant's entries go.
    const keep = (entry: DeliveryLogEntry) => entry.at >= (cutoffs.get(entry.clientId) ?? '');
    const list = this.kept ? this.added : this.entries;
    list.splice(0, list.length, ...list.filter(keep));
    if (this.kept) this.removed.push(...removed);
  }

  /** Forgets everything in memory (a whole reset or import, where the store empties its own log). */
  clear(): void {
    this.entries.length = 0;
    this.added = [];
    this.removed = [];
  }

  /** The changes for the store's next batch: undefined when the store does not keep the log, or nothing changed. */
  drain(): DeliveryLogChanges | undefined {
    if (this.added.length === 0 && this.removed.length === 0) return undefined;
    const changes = {removed: this.removed, added: this.added};
    this.added = [];
    this.removed = [];
    return changes;
  }

  /** One merchant's attempts (every merchant's without `clientId`), oldest first. */
  async list(clientId?: string): Promise<readonly DeliveryLogEntry[]> {
    if (this.store.deliveries) return this.store.deliveries(clientId, deliveryLogLimit);
    return this.entries.filter((entry) => clientId === undefined || entry.clientId === clientId);
  }
}
