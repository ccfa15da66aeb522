/**
 * What a domain function works with: the contract's rules (spec), the sandbox clock, the hosts it names,
 * and the only ways to change state (put, touch, saveMerchant, schedule). Each call has its own Tx, from its
 * unit of work (unit.ts): what it writes is applied and recorded as one batch when the call succeeds, and
 * thrown away when it is rejected or crashes. Domain modules never see the store, the keys or the job heap.
 */
import type {SandboxClock} from './clock';
import type {EngineSpec} from './spec';
import type {Collection, Json, JobRecord, MerchantRecord, MerchantState} from './state';
import type {RequestValidator, SandboxOptions} from './api';

/** The collections a rejected call may still write (Tx.putEvenIfRejected). */
export type KeptOnRejection = Extract<Collection, 'nonce' | 'tombstone'>;

export interface Tx {
  readonly spec: EngineSpec;
  readonly clock: SandboxClock;
  readonly hosts: SandboxOptions['hosts'];
  readonly validator: RequestValidator;
  /** Sets a record (undefined deletes it) in this call's writes. */
  put(state: MerchantState, collection: Collection, id: string, value: unknown): void;
  /**
   * The same, for the only writes the contract keeps when the call is rejected: the request's nonce (replay
   * protection) and a Revoke order tombstone (x-idempotency.tombstone). A crash throws these away too.
   */
  putEvenIfRejected(state: MerchantState, collection: KeptOnRejection, id: string, value: unknown): void;
  /** Writes the call's own copy of a record it read with `get` and edited. */
  touch(state: MerchantState, collection: Collection, id: string): void;
  /** Replaces the merchant's own record (keys, settings): committed records are frozen, so a new one is given. */
  saveMerchant(state: MerchantState, merchant: MerchantRecord): void;
  /** Adds a job on the sandbox clock when the call succeeds. */
  schedule(job: Omit<JobRecord, 'id' | 'seq'>): void;
}

/** What a call produced, before it is turned into an HTTP response. */
export interface Reply {
  readonly code: string;
  readonly message?: string;
  readonly data?: Json;
  readonly headers?: Record<string, string>;
  readonly holdSeconds?: number;
}

/**
 * A rejection thrown inside an operation: answered with its code, nothing is changed. The message is
 * required: it is the English sentence the merchant reads, never the code again (docs/response-code).
 */
export class Rejected extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const reject = (code: string, message: string): never => {
  throw new Rejected(code, message);
};

/** Checks that the contract's state machine declares a transition; throws otherwise (a bug, never bad input). */
export function transition(tx: Pick<Tx, 'spec'>, machine: string, from: string, to: string): void {
  const spec = tx.spec.stateMachines[machine];
  if (!spec?.transitions.includes(`${from}>${to}`))
    throw new Error(`${machine}: ${from} to ${to} is not a transition the contract declares.`);
}
