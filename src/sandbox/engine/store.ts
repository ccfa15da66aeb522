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
 */
export type RecordValue = null | boolean | number | string | RecordValue[] | {[key: string]: RecordValue};

/** One changed record: its new value, or undefined when it was deleted. */
export interface RecordChange {
  readonly key: string;
  readonly value: RecordValue | undefined;
}

export interface SandboxStore {
  /** Every stored record, once, when the engine starts. */
  load(): Promise<Iterable<readonly [string, RecordValue]>>;
  /** Makes one batch durable, all or nothing, in the order batches are given. */
  commit(changes: readonly RecordChange[]): Promise<void>;
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
