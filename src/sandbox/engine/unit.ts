/**
 * The unit of work: each API call, job run and shopper or control action works on a copy-on-write view of
 * the merchants it touches. Reads see the call's own writes; a record read with `get` is the call's own copy
 * (committed records are deep-frozen, so one reached any other way cannot be changed in place); writes stay in
 * the view until the call ends. Then the shell applies them to the records and records them as one batch, or,
 * on a rejection or a crash, throws them away, all but the writes declared kept on rejection
 * (Tx.putEvenIfRejected). Units run one at a time (UnitGate), so two calls never interleave their writes.
 */
import type {SandboxClock} from './clock';
import {merchantOffsetMs, offsetClock} from './merchantClock';
import type {EngineSpec} from './spec';
import {
  collections,
  deepFreeze,
  type AgreementRecord,
  type AuthCodeRecord,
  type ChargebackRecord,
  type Collection,
  type EventRecord,
  type JobRecord,
  type Json,
  type LedgerEntry,
  type MerchantRecord,
  type MerchantRecords,
  type MerchantState,
  type OrderRecord,
  type PayoutRecord,
  type QuoteRecord,
  type RefundRecord,
} from './state';
import type {RequestValidator, SandboxOptions} from './api';
import {Rejected, type Tx} from './tx';
import {copyJson} from './values';

/** What a unit needs from the shell: the read-only context, and where finished writes go. */
export interface UnitHost {
  readonly spec: EngineSpec;
  readonly clock: SandboxClock;
  readonly hosts: SandboxOptions['hosts'];
  readonly validator: RequestValidator;
  /** Writes one record to the merchant's committed records and to the next batch. */
  write(state: MerchantRecords, collection: Collection, id: string, value: unknown): void;
  writeMerchant(state: MerchantRecords, merchant: MerchantRecord): void;
  schedule(job: Omit<JobRecord, 'id' | 'seq'>): void;
}

/** How a unit ended: its writes are applied (done), only its kept ones (rejected), or none (crashed). */
export type UnitOutcome = 'done' | 'rejected' | 'crashed';

type Staged = Map<string, unknown>;

/** A unit's own copy of a committed record: a JSON copy that shares the record's strings (values.ts copyJson), which are immutable. */
const copyOf = <T>(value: T): T => (typeof value === 'object' && value !== null ? (copyJson(value as Json) as T) : value);

/**
 * One collection of a StagedMerchant: the committed map, overlaid with the unit's writes and copies. Both are
 * made on first use: most units touch two or three of a merchant's thirteen collections.
 */
class StagedMap<T> implements ReadonlyMap<string, T> {
  /** The unit's writes: a value, or undefined for a deletion. */
  private writes: Staged | undefined;
  /** Copies handed out by get, by id, with the committed value they were copied from. */
  private copies: Map<string, {from: T; copy: T}> | undefined;

  constructor(private readonly base: ReadonlyMap<string, T>) {}

  get(id: string): T | undefined {
    if (this.writes?.has(id)) return this.writes.get(id) as T | undefined;
    const committed = this.base.get(id);
    if (committed === undefined || typeof committed !== 'object') return committed;
    const held = this.copies?.get(id);
    if (held?.from === committed) return held.copy;
    const copy = copyOf(committed);
    (this.copies ??= new Map()).set(id, {from: committed, copy});
    return copy;
  }

  /** Stages a write (undefined deletes). */
  write(id: string, value: unknown): void {
    (this.writes ??= new Map()).set(id, value);
  }

  /** The unit's writes, in the order made. */
  written(): Iterable<[string, unknown]> {
    return this.writes ?? [];
  }

  /** Writes the unit's own copy of a record it read with get (or the record as it reads), unless written already. */
  touch(id: string): void {
    if (!this.writes?.has(id)) this.write(id, this.copies?.get(id)?.copy ?? this.get(id));
  }

  has(id: string): boolean {
    return this.writes?.has(id) ? this.writes.get(id) !== undefined : this.base.has(id);
  }

  get size(): number {
    let size = this.base.size;
    for (const [id, value] of this.writes ?? []) {
      if (value !== undefined && !this.base.has(id)) size += 1;
      if (value === undefined && this.base.has(id)) size -= 1;
    }
    return size;
  }

  /** Whether the unit has neither written nor read a record of this collection. */
  private get untouched(): boolean {
    return (this.writes?.size ?? 0) === 0 && (this.copies?.size ?? 0) === 0;
  }

  entries(): MapIterator<[string, T]> {
    // A unit that has neither written nor read a record of this collection sees the committed map as it is: a list
    // reads every record of the merchant, and going through the overlay cost more than the list itself.
    return this.untouched ? this.base.entries() : this.overlaid();
  }

  private *overlaid(): MapIterator<[string, T]> {
    const writes: Staged = this.writes ?? new Map();
    for (const [id, committed] of this.base) {
      if (writes.has(id)) {
        const value = writes.get(id) as T | undefined;
        if (value !== undefined) yield [id, value];
      } else {
        yield [id, this.copies?.get(id)?.copy ?? committed];
      }
    }
    for (const [id, value] of writes) if (value !== undefined && !this.base.has(id)) yield [id, value as T];
  }

  *keys(): MapIterator<string> {
    for (const [id] of this.entries()) yield id;
  }

  values(): MapIterator<T> {
    return this.untouched ? this.base.values() : this.overlaidValues();
  }

  private *overlaidValues(): MapIterator<T> {
    for (const [, value] of this.overlaid()) yield value;
  }

  [Symbol.iterator](): MapIterator<[string, T]> {
    return this.entries();
  }

  forEach(callback: (value: T, key: string, map: ReadonlyMap<string, T>) => void): void {
    for (const [id, value] of this.entries()) callback(value, id, this);
  }
}

/** One merchant as a unit sees it; each collection's overlay is made when the unit first reaches for it. */
class StagedMerchant implements MerchantState {
  /** The writes kept even when the call is rejected (the nonce, a Revoke tombstone). */
  readonly kept = new Map<Collection, Staged>();
  private readonly staged = new Map<Collection, StagedMap<unknown>>();
  private stagedMerchant: Readonly<MerchantRecord> | undefined;

  constructor(readonly base: MerchantRecords) {}

  get orders(): StagedMap<OrderRecord> {
    return this.map('order') as StagedMap<OrderRecord>;
  }
  get tombstones(): StagedMap<string> {
    return this.map('tombstone') as StagedMap<string>;
  }
  get refunds(): StagedMap<RefundRecord> {
    return this.map('refund') as StagedMap<RefundRecord>;
  }
  get refundNos(): StagedMap<string> {
    return this.map('refundNo') as StagedMap<string>;
  }
  get payouts(): StagedMap<PayoutRecord> {
    return this.map('payout') as StagedMap<PayoutRecord>;
  }
  get agreements(): StagedMap<AgreementRecord> {
    return this.map('agreement') as StagedMap<AgreementRecord>;
  }
  get tokens(): StagedMap<string> {
    return this.map('token') as StagedMap<string>;
  }
  get chargebacks(): StagedMap<ChargebackRecord> {
    return this.map('chargeback') as StagedMap<ChargebackRecord>;
  }
  get quotes(): StagedMap<QuoteRecord> {
    return this.map('quote') as StagedMap<QuoteRecord>;
  }
  get events(): StagedMap<EventRecord> {
    return this.map('event') as StagedMap<EventRecord>;
  }
  get ledger(): StagedMap<LedgerEntry> {
    return this.map('ledger') as StagedMap<LedgerEntry>;
  }
  get nonces(): StagedMap<number> {
    return this.map('nonce') as StagedMap<number>;
  }
  get authCodes(): StagedMap<AuthCodeRecord> {
    return this.map('authCode') as StagedMap<AuthCodeRecord>;
  }

  get merchant(): Readonly<MerchantRecord> {
    return this.stagedMerchant ?? this.base.merchant;
  }

  get committed(): MerchantState {
    return this.base;
  }

  map(collection: Collection): StagedMap<unknown> {
    let map = this.staged.get(collection);
    if (!map) this.staged.set(collection, (map = new StagedMap(this.base.map(collection))));
    return map;
  }

  put(collection: Collection, id: string, value: unknown, keep: boolean): void {
    this.map(collection).write(id, value);
    if (!keep) return;
    let kept = this.kept.get(collection);
    if (!kept) this.kept.set(collection, (kept = new Map()));
    kept.set(id, value);
  }

  touch(collection: Collection, id: string): void {
    this.map(collection).touch(id);
  }

  saveMerchant(merchant: MerchantRecord): void {
    this.stagedMerchant = deepFreeze(merchant);
  }

  /** Applies the unit's writes (all of them, or only the kept ones) through the host, collection by collection. */
  apply(host: UnitHost, keptOnly: boolean): void {
    if (!keptOnly && this.stagedMerchant) host.writeMerchant(this.base, this.stagedMerchant);
    for (const collection of collections) {
      const writes = keptOnly ? this.kept.get(collection) : this.staged.get(collection)?.written();
      for (const [id, value] of writes ?? []) host.write(this.base, collection, id, value);
    }
  }
}

/** One call's unit of work: its Tx, its views of the merchants, the jobs it scheduled. */
export class UnitOfWork {
  readonly tx: Tx;
  private readonly views = new Map<MerchantRecords, StagedMerchant>();
  private readonly jobs: Array<Omit<JobRecord, 'id' | 'seq'>> = [];
  private ended = false;

  constructor(private readonly host: UnitHost) {
    const staged = (state: MerchantState) => this.viewOf(state);
    this.tx = {
      spec: host.spec,
      // The clock of the merchant the unit works on (its first view): its own, on the hosted sandbox (merchantClock.ts).
      clock: offsetClock(host.clock, () => merchantOffsetMs(this.views.keys().next().value?.merchant)),
      hosts: host.hosts,
      validator: host.validator,
      put: (state, collection, id, value) => staged(state).put(collection, id, value, false),
      putEvenIfRejected: (state, collection, id, value) => staged(state).put(collection, id, value, true),
      touch: (state, collection, id) => staged(state).touch(collection, id),
      saveMerchant: (state, merchant) => staged(state).saveMerchant(merchant),
      schedule: (job) => {
        this.open();
        this.jobs.push(job);
      },
    };
  }

  /** The unit's view of a merchant's committed records (the same view each time). */
  view(state: MerchantRecords): MerchantState {
    this.open();
    let view = this.views.get(state);
    if (!view) this.views.set(state, (view = new StagedMerchant(state)));
    return view;
  }

  private viewOf(state: MerchantState): StagedMerchant {
    this.open();
    if (state instanceof StagedMerchant && this.views.get(state.base) === state) return state;
    throw new Error('A domain function wrote through a merchant view of another unit of work, or none.');
  }

  private open(): void {
    if (this.ended) throw new Error('This unit of work has ended: its Tx can no longer change state.');
  }

  /** Ends the unit: a finished call's writes and jobs are applied, a rejected call's kept writes only, a crashed call's none. */
  end(outcome: UnitOutcome): void {
    this.open();
    this.ended = true;
    if (outcome === 'crashed') return;
    for (const view of this.views.values()) view.apply(this.host, outcome === 'rejected');
    if (outcome === 'done') for (const job of this.jobs) this.host.schedule(job);
  }
}

/** Lets one unit of work run at a time: a call waits for the one before it to end. */
export class UnitGate {
  private tail: Promise<void> = Promise.resolve();

  async run<T>(work: () => T | Promise<T>): Promise<T> {
    const before = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    try {
      await before;
      return await work();
    } finally {
      release();
    }
  }

  /** Runs domain work on one merchant as a unit of work: applied when it returns; when it throws, thrown away (but for the writes kept on rejection) and passed on. */
  runOn<T>(host: UnitHost, state: MerchantRecords, work: (tx: Tx, view: MerchantState) => T | Promise<T>): Promise<T> {
    return this.run(() => runUnit(host, state, work));
  }
}

/** One unit of work on one merchant, for a caller that holds the gate already (runOn, and tenants.ts inside its own run). */
export async function runUnit<T>(
  host: UnitHost,
  state: MerchantRecords,
  work: (tx: Tx, view: MerchantState) => T | Promise<T>,
): Promise<T> {
  const unit = new UnitOfWork(host);
  let value: T;
  try {
    value = await work(unit.tx, unit.view(state));
  } catch (error) {
    unit.end(error instanceof Rejected ? 'rejected' : 'crashed');
    throw error;
  }
  unit.end('done');
  return value;
}

/** A Tx for reads outside any unit of work (balances, statements): every way to write throws. */
export function readOnlyTx(host: UnitHost): Tx {
  const refuse = (): never => {
    throw new Error('State changes only inside a unit of work: this Tx reads.');
  };
  return {
    spec: host.spec,
    clock: host.clock,
    hosts: host.hosts,
    validator: host.validator,
    put: refuse,
    putEvenIfRejected: refuse,
    touch: refuse,
    saveMerchant: refuse,
    schedule: refuse,
  };
}
