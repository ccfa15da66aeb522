/**
 * Where the engine keeps its state, behind one small interface. The engine holds the working set in
 * memory and, after every call or clock step, hands the store the records that changed, as one
 * atomic batch, before the caller sees the result. A record is a JSON value under a string key:
 * "<clientId>/<collection>/<id>" for a merchant's objects, "~/<collection>/<id>" for the engine's own
 * (merchants, jobs, the clock).
 *
 * Hosts: in memory (this file), IndexedDB in the browser, an append-only journal file for the local
 * server. A shared database for a hosted sandbox with several instances fits the same shape: load
 * the records of the merchants an instance serves, and commit each batch in one transaction.
 *
 * The delivery log (every notification attempt, deliveryLog.ts) is not a record: the engine keeps it in memory,
 * unless the store keeps it (PostgreSQL, where several instances read one log). Such a store has `deliveries`,
 * and receives the log's changes with the batch of the attempt's outcome, to write them in its transaction.
 */
import type {DeliveryLogEntry} from './api';

export type RecordValue = null | boolean | number | string | RecordValue[] | {[key: string]: RecordValue};

/** One changed record: its new value, or undefined when it was deleted. */
export interface RecordChange {
  readonly key: string;
  readonly value: RecordValue | undefined;
}

/** What changed in the delivery log since the last batch: entries removed first, then entries added. */
export interface DeliveryLogChanges {
  /** One merchant's entries dated before `before` (ISO seconds, on its clock), or all of them without it. */
  readonly removed: ReadonlyArray<{readonly clientId: string; readonly before?: string}>;
  /** New attempts, oldest first. */
  readonly added: readonly DeliveryLogEntry[];
}

export interface SandboxStore {
  /** Every stored record, once, when the engine starts. */
  load(): Promise<Iterable<readonly [string, RecordValue]>>;
  /**
   * Makes one batch durable, all or nothing, in the order batches are given. `log` comes only to a store
   * with `deliveries`, and is part of the same batch.
   */
  commit(changes: readonly RecordChange[], log?: DeliveryLogChanges): Promise<void>;
  /**
   * A store that keeps the delivery log: one merchant's attempts (every merchant's without `clientId`), the
   * newest `limit`, oldest first. clear() and replace() empty the log too.
   */
  deliveries?(clientId: string | undefined, limit: number): Promise<DeliveryLogEntry[]>;
  /** Deletes everything (reset). */
  clear(): Promise<void>;
  /**
   * Replaces everything with `records` in one step (an imported state), so a crash leaves either the old
   * state or the new one. A store without it is cleared, then given the records as one batch.
   */
  replace?(records: ReadonlyArray<readonly [string, RecordValue]>): Promise<void>;
}

/** The default store: nothing outlives the process. */
export function memoryStore(): SandboxStore {
  return {
    load: async () => [],
    commit: async () => undefined,
    clear: async () => undefined,
    replace: async () => undefined,
  };
}
