/**
 * Step 3: the sandbox's rate limits (x-rate-limits, per merchant and rate class, per second) and the faults
 * a reader set with the control tools (SYSTEM_BUSY answered instead of a call, INTERNAL_ERROR after it).
 */
import type {ActionResult, Fault} from '../api';
import type {SandboxClock} from '../clock';
import type {EngineSpec, OperationSpec} from '../spec';
import type {MerchantState} from '../state';
import {Rejected, type Reply} from '../tx';
import {msPerSecond} from '../values';

export interface RateAllowance {
  readonly limit: number;
  readonly remaining: number;
}

/** A number of calls a merchant may make per second: one of the contract's x-rate-limits classes, or the hosted test tools'. */
export interface RateClass {
  readonly name: string;
  readonly perSecond: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, {second: number; count: number}>();

  constructor(
    private readonly spec: EngineSpec,
    private readonly clock: SandboxClock,
    /** Off for load tests: calls are counted, never refused. */
    private readonly enforce: boolean,
  ) {}

  /** Whether a call over its allowance is refused (false with --no-rate-limits). */
  get enforced(): boolean {
    return this.enforce;
  }

  rateClassOf(operation: OperationSpec | undefined): RateClass | undefined {
    return operation ? this.spec.rateLimits.find((entry) => entry.name === operation.rateClass) : undefined;
  }

  /** The hosted sandbox's signed test tools (api/sandbox.yaml hosted.controlRequestsPerSecond), counted like an API class. */
  get testTools(): RateClass {
    return {name: 'test tool', perSecond: this.spec.sandbox.hosted.controlRequestsPerSecond};
  }

  /** Counts a call; RATE_LIMITED once this second's allowance is spent. */
  count(state: MerchantState, operation: OperationSpec): RateAllowance | undefined {
    const rateClass = this.rateClassOf(operation);
    return rateClass ? this.countIn(state.merchant.clientId, rateClass) : undefined;
  }

  /** Counts a verified call of `clientId` in `rateClass`; RATE_LIMITED once this second's allowance is spent. */
  countIn(clientId: string, rateClass: RateClass): RateAllowance {
    const second = Math.floor(this.clock.now() / msPerSecond);
    // Past seconds are forgotten now and then, so the map holds the merchants of the moment, not all ever served.
    if (this.windows.size > 10_000) for (const [seen, entry] of this.windows) if (entry.second !== second) this.windows.delete(seen);
    const key = `${clientId}/${rateClass.name}`;
    const window = this.windows.get(key);
    const count = window && window.second === second ? window.count + 1 : 1;
    this.windows.set(key, {second, count});
    if (this.enforce && count > rateClass.perSecond) {
      throw new Rejected('RATE_LIMITED', `More than ${rateClass.perSecond} ${rateClass.name} requests in one second for ${clientId}.`);
    }
    return {limit: rateClass.perSecond, remaining: Math.max(0, rateClass.perSecond - count)};
  }

  /**
   * What is left of this second's allowance for a request that was not counted (refused before it was
   * authenticated, or rate-limited): the real figure, never a made-up 0 that would stall a client pacing on it.
   */
  remainingUncounted(clientId: string, rateClass: RateClass): number {
    const window = this.windows.get(`${clientId}/${rateClass.name}`);
    const used = window && window.second === Math.floor(this.clock.now() / msPerSecond) ? window.count : 0;
    return Math.max(0, rateClass.perSecond - used);
  }

  clear(): void {
    this.windows.clear();
  }
}

export class FaultQueue {
  readonly entries: Fault[] = [];

  constructor(private readonly spec: EngineSpec) {}

  /** Answers the next `count` calls (of one operation, or all) with SYSTEM_BUSY or INTERNAL_ERROR. */
  add(fault: {resultCode: string; operationId?: string; count?: number; clientId?: string}): ActionResult<Fault> {
    if (!this.spec.sandbox.faults.codes.some((code) => code.resultCode === fault.resultCode)) {
      return {
        ok: false,
        code: 'INVALID_PARAMETER',
        message: `resultCode must be one of ${this.spec.sandbox.faults.codes.map((code) => code.resultCode).join(', ')}.`,
      };
    }
    if (fault.operationId !== undefined && !this.spec.operations.some((operation) => operation.operationId === fault.operationId)) {
      return {ok: false, code: 'INVALID_PARAMETER', message: `${fault.operationId} is not an operation of the contract.`};
    }
    const count = fault.count ?? 1;
    if (!Number.isInteger(count) || count < 1 || count > 1000)
      return {ok: false, code: 'INVALID_PARAMETER', message: 'count must be 1 to 1000.'};
    const entry: Fault = {
      resultCode: fault.resultCode,
      ...(fault.operationId ? {operationId: fault.operationId} : {}),
      ...(fault.clientId ? {clientId: fault.clientId} : {}),
      remaining: count,
    };
    this.entries.push(entry);
    return {ok: true, value: entry};
  }

  /** A fault set for this operation answers instead of it (SYSTEM_BUSY), or after it was carried out (INTERNAL_ERROR). */
  take(operation: OperationSpec, when: 'before' | 'after', clientId: string): Reply | undefined {
    const index = this.entries.findIndex(
      (fault) =>
        fault.remaining > 0 &&
        (fault.operationId === undefined || fault.operationId === operation.operationId) &&
        (fault.clientId === undefined || fault.clientId === clientId),
    );
    const fault = this.entries[index];
    if (!fault) return undefined;
    const rule = this.spec.sandbox.faults.codes.find((code) => code.resultCode === fault.resultCode);
    if (!rule || rule.carriedOut !== (when === 'after')) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.entries.splice(index, 1);
    return {
      code: fault.resultCode,
      message: rule.carriedOut
        ? 'Fault set in the sandbox: the call was carried out, then answered with an error.'
        : 'Fault set in the sandbox: nothing was changed.',
      ...(rule.retryAfterSeconds !== undefined ? {headers: {'Retry-After': String(rule.retryAfterSeconds)}} : {}),
    };
  }
}
