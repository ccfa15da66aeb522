/**
 * The engine's hooks for hosts whose instances share one database (hosts/server/sharedInstance.ts). There the
 * engine holds only the merchants an instance is serving, and the database says when its copy is out of date:
 * load one merchant's records in place of what memory holds, drop one from memory (idle, or after a commit
 * that failed), and run one job the host claimed in the database. A delivery runs in two steps, send and
 * record, so the host holds no lock while a receiver answers (a receiver may call the sandbox back).
 */
import type {SandboxClock} from './clock';
import {recordDelivery, sendDelivery, type SentDelivery} from './domain/events';
import {runJob, type JobQueue, type JobRunner} from './jobs';
import {merchantOffsetMs} from './merchantClock';
import {loadRecords} from './persistence';
import type {MerchantRecords} from './state';
import type {RecordValue} from './store';
import {Rejected} from './tx';

/** What the cache reaches inside the engine. */
export interface CacheCore {
  readonly merchants: Map<string, MerchantRecords>;
  clock(): SandboxClock;
  jobs(): JobQueue;
  runner(): JobRunner;
  /** Commits what changed since the last commit; resolves when the store has it. */
  commit(): Promise<void>;
}

export class MerchantCache {
  constructor(private readonly core: CacheCore) {}

  /** The merchants in memory. */
  ids(): string[] {
    return [...this.core.merchants.keys()];
  }

  /**
   * Replaces what memory holds of one merchant with `records`: every record the store holds for it (the
   * merchant, its collections, its jobs). Nothing is recorded as changed. Without the merchant's own record
   * among them, the merchant is simply dropped (the store does not know it).
   */
  load(clientId: string, records: Iterable<readonly [string, RecordValue]>): void {
    this.drop(clientId);
    const jobs = this.core.jobs();
    loadRecords(records, {merchants: this.core.merchants, addJob: (job) => jobs.restore(job), clock: this.core.clock()});
  }

  /** Now on the merchant's own clock (merchantClock.ts): a claimed job's lease is counted on it. */
  now(clientId: string): number {
    return this.core.clock().now() + merchantOffsetMs(this.core.merchants.get(clientId)?.merchant);
  }

  /** Forgets one merchant and its jobs; the store keeps them. */
  drop(clientId: string): void {
    this.core.merchants.delete(clientId);
    this.core.jobs().forget(clientId);
  }

  /**
   * Runs one job that is not a delivery, and commits: false when memory does not hold it (the host loads the
   * merchant first, so then the job is gone). A rejection means the state machine refused it: nothing happens.
   */
  async run(clientId: string, jobId: string): Promise<boolean> {
    const state = this.core.merchants.get(clientId);
    const job = state && this.core.jobs().takeById(jobId);
    if (!state || !job) return false;
    try {
      await runJob(this.core.runner(), state, job);
    } catch (error) {
      if (!(error instanceof Rejected)) throw error;
    }
    await this.core.commit();
    return true;
  }

  /** Sends one delivery attempt of a job memory holds; reads state, never writes it. */
  async send(clientId: string, jobId: string): Promise<SentDelivery | undefined> {
    const state = this.core.merchants.get(clientId);
    const job = this.core
      .jobs()
      .values()
      .find((candidate) => candidate.id === jobId);
    if (!state || job?.kind !== 'event.deliver') return undefined;
    return sendDelivery(this.core.runner().readTx, this.core.runner().channel, state, job);
  }

  /** Records what a delivery attempt answered, as one unit of work (retries scheduled there), takes its job off and commits. */
  async record(clientId: string, jobId: string, sent: SentDelivery): Promise<void> {
    const state = this.core.merchants.get(clientId);
    if (!state) return;
    this.core.jobs().takeById(jobId);
    const runner = this.core.runner();
    await runner.inUnit(state, (tx, view) => recordDelivery(tx, runner.channel, view, sent));
    await this.core.commit();
  }
}
