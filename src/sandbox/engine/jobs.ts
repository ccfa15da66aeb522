/** Jobs on the sandbox clock: the queue the shell runs, and each kind's domain completion, each run as a unit of work. */
import type {SandboxClock} from './clock';
import {setAgreementStatus} from './domain/agreements';
import {recordDelivery, sendDelivery, type DeliveryChannel} from './domain/events';
import {expireOrder} from './domain/orders';
import {resolveAttempt} from './domain/payments';
import {completePayout, returnBankTransfer} from './domain/payouts';
import {completeRefund} from './domain/refunds';
import {creditVam} from './domain/virtualAccounts';
import {MinHeap} from './heap';
import {randomToken} from './ids';
import {engineKey, type ChangeSet, type JobRecord, type MerchantRecords, type MerchantState} from './state';
import type {RecordValue} from './store';
import type {Tx} from './tx';
import {msPerSecond} from './values';

type StateJob = JobRecord & {kind: Exclude<JobRecord['kind'], 'event.deliver'>};

function completeJob(tx: Tx, state: MerchantState, job: StateJob): void {
  switch (job.kind) {
    case 'attempt.resolve':
      return resolveAttempt(tx, state, job);
    case 'order.expire':
      return expireOrder(tx, state, job);
    case 'refund.complete':
      return completeRefund(tx, state, job);
    case 'payout.complete':
      return completePayout(tx, state, job);
    case 'bank.return':
      return returnBankTransfer(tx, state, job);
    case 'vam.credit':
      return creditVam(tx, state, job);
    case 'agreement.expire': {
      const record = state.agreements.get(job.ref);
      if (record?.agreement.status === 'PENDING_AUTHORIZATION') setAgreementStatus(tx, state, record, 'EXPIRED', {});
      return;
    }
  }
}

/** What running a job needs from the shell: a Tx that only reads, the delivery channel, and units of work. */
export interface JobRunner {
  readonly readTx: Tx;
  readonly channel: DeliveryChannel;
  inUnit<T>(state: MerchantRecords, work: (tx: Tx, view: MerchantState) => T | Promise<T>): Promise<T>;
}

/**
 * Runs one job as a unit of work. A delivery attempt is sent outside any (a receiver may call the sandbox
 * back, and the gate lets one unit run at a time); what it answered is then recorded as one.
 */
export async function runJob(runner: JobRunner, state: MerchantRecords, job: JobRecord): Promise<void> {
  if (job.kind !== 'event.deliver') return runner.inUnit(state, (tx, view) => completeJob(tx, view, job as StateJob));
  const sent = await sendDelivery(runner.readTx, runner.channel, state, job);
  if (sent) await runner.inUnit(state, (tx, view) => recordDelivery(tx, runner.channel, view, sent));
}

/** What the job queue needs from the shell: the clock, the batch of changes, and how to run and commit. */
export interface JobHost {
  readonly clock: SandboxClock;
  readonly changes: ChangeSet;
  run(job: JobRecord): Promise<void>;
  commit(): Promise<void>;
  /** How far a merchant's own clock runs ahead of the sandbox clock (hosted sandbox, merchantClock.ts); 0 elsewhere. */
  offsetOf(clientId: string): number;
}

/** The jobs waiting on the sandbox clock, earliest first, and the deliveries runDue started. */
export class JobQueue {
  private readonly heap = new MinHeap<JobRecord>((a, b) => this.due(a) < this.due(b) || (this.due(a) === this.due(b) && a.seq < b.seq));
  private seq = 0;
  /** Deliveries runDue started and that have not answered yet. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The same, by the notificationId they deliver. */
  private readonly inFlightByEvent = new Map<string, Promise<void>>();

  constructor(private readonly host: JobHost) {}

  /** When a job falls due on the sandbox clock: its time on its merchant's clock, less that clock's lead. */
  private due(job: JobRecord): number {
    return job.at - this.host.offsetOf(job.clientId);
  }

  /** Orders the queue again after a merchant's clock moved (its jobs fall due earlier on the sandbox clock). */
  reorder(): void {
    this.keepOnly(() => true);
  }

  /** A job from the store or an import: kept as it is, and later jobs numbered after it. */
  restore(job: JobRecord): void {
    this.heap.push(job);
    this.seq = Math.max(this.seq, job.seq + 1);
  }

  schedule(job: Omit<JobRecord, 'id' | 'seq'>): void {
    const record: JobRecord = {...job, id: randomToken(12), seq: this.seq++};
    this.heap.push(record);
    this.host.changes.touch(engineKey('job', record.id), () => record as unknown as RecordValue);
  }

  values(): JobRecord[] {
    return this.heap.values();
  }

  nextAt(): number | undefined {
    const job = this.heap.peek();
    return job && this.due(job);
  }

  clear(): void {
    this.heap.clear();
    this.seq = 0;
  }

  /** Drops the jobs `drop` picks (those of a merchant that is reset or removed), and records their removal. */
  removeWhere(drop: (job: JobRecord) => boolean): void {
    for (const job of this.heap.values()) if (drop(job)) this.host.changes.touch(engineKey('job', job.id), () => undefined);
    this.keepOnly((job) => !drop(job));
  }

  /**
   * Takes one job off the heap by its id and records its removal, for a host that claims due jobs in a shared
   * database (merchantCache.ts); undefined when this instance does not hold it.
   */
  takeById(id: string): JobRecord | undefined {
    const job = this.heap.values().find((candidate) => candidate.id === id);
    if (!job) return undefined;
    this.keepOnly((candidate) => candidate !== job);
    this.host.changes.touch(engineKey('job', job.id), () => undefined);
    return job;
  }

  /** Forgets one merchant's jobs without recording a change: the store still holds them (a merchant dropped from memory). */
  forget(clientId: string): void {
    this.keepOnly((job) => job.clientId !== clientId);
  }

  private keepOnly(keep: (job: JobRecord) => boolean): void {
    const kept = this.heap.values().filter(keep);
    this.heap.clear();
    for (const job of kept) this.heap.push(job);
  }

  /** Takes the earliest job if it is due by `until`, and records its removal. */
  private take(until: number): JobRecord | undefined {
    const job = this.heap.peek();
    if (!job || this.due(job) > until) return undefined;
    this.heap.pop();
    this.host.changes.touch(engineKey('job', job.id), () => undefined);
    return job;
  }

  /**
   * Runs a job taken from the heap. One that crashes (a bug, never a rejection) threw its unit of work away;
   * it goes back on the heap as it was, so it leaves no trace either, and the error is passed on.
   */
  private async runTaken(job: JobRecord): Promise<void> {
    try {
      await this.host.run(job);
    } catch (error) {
      this.heap.push(job);
      this.host.changes.touch(engineKey('job', job.id), () => job as unknown as RecordValue);
      throw error;
    }
  }

  /** Runs every job due by now (the server calls it on a timer). */
  async runDue(): Promise<number> {
    let ran = 0;
    for (let job = this.take(this.host.clock.now()); job; job = this.take(this.host.clock.now())) {
      if (job.kind === 'event.deliver') {
        // In real time a delivery is not awaited here: one slow receiver must not hold up the other
        // merchants' notifications, nor the jobs behind it. Its result is committed when it comes.
        const ref = job.ref;
        const delivery = this.runTaken(job).then(() => this.host.commit());
        this.inFlight.add(delivery);
        this.inFlightByEvent.set(ref, delivery);
        void delivery.finally(() => {
          this.inFlight.delete(delivery);
          if (this.inFlightByEvent.get(ref) === delivery) this.inFlightByEvent.delete(ref);
        });
      } else {
        await this.runTaken(job);
      }
      ran += 1;
    }
    if (ran > 0) await this.host.commit();
    return ran;
  }

  /** Waits for the delivery of one notification that runDue started, if one is under way; not for the others. */
  async settleDelivery(notificationId: string): Promise<void> {
    await this.inFlightByEvent.get(notificationId)?.catch(() => undefined);
  }

  /** Waits for every delivery in flight (before a reset, or when a host stops). */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Advances the sandbox clock, running each job at its own time, in order. */
  async advance(seconds: number): Promise<number> {
    if (!(seconds >= 0) || !Number.isFinite(seconds)) throw new RangeError('advance: seconds must be a finite number, zero or more.');
    const target = this.host.clock.now() + seconds * msPerSecond;
    let ran = 0;
    for (let job = this.take(target); job; job = this.take(target)) {
      this.host.clock.advanceTo(this.due(job));
      await this.runTaken(job);
      ran += 1;
    }
    this.host.clock.advanceTo(target);
    await this.host.commit();
    return ran;
  }
}
