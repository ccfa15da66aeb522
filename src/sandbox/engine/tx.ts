/**
 * What a domain function works with: the contract's rules (spec), the sandbox clock, the hosts it names,
 * and the three ways to change state (put, touch, schedule), which the shell records as one batch per call.
 * Domain modules never see the store, the keys or the job heap.
 */
import type {SandboxClock} from './clock';
import type {EngineSpec} from './spec';
import type {Collection, Json, JobRecord, MerchantState} from './state';
import type {RequestValidator, SandboxOptions} from './api';

export interface Tx {
  readonly spec: EngineSpec;
  readonly clock: SandboxClock;
  readonly hosts: SandboxOptions['hosts'];
  readonly validator: RequestValidator;
  /** Sets a record (undefined deletes it) and records the change. */
  put(state: MerchantState, collection: Collection, id: string, value: unknown): void;
  /** Records a change of a record edited in place. */
  touch(state: MerchantState, collection: Collection, id: string): void;
  /** Records a change of the merchant's own record (keys, settings). */
  saveMerchant(state: MerchantState): void;
  /** Adds a job on the sandbox clock. */
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
  if (!spec?.transitions.includes(`${from}>${to}`)) throw new Error(`${machine}: ${from} to ${to} is not a transition the contract declares.`);
}
