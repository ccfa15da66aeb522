/**
 * The hosted sandbox's tenants: what a merchant may do to its own sandbox and to no one else's. A test tool
 * call is authenticated by the API's own authenticate step (same headers, same canonical string, same nonce
 * rules) and counted against the merchant's test-tool rate; reset, export and faults touch the caller's
 * records alone; a sweep forgets events past their retention and removes merchants idle past the limit
 * (api/sandbox.yaml `hosted`). The local and in-browser sandboxes never use this: there the whole sandbox is
 * the reader's.
 */
import type {ActionResult, Fault} from './api';
import type {DeliveryLog} from './deliveryLog';
import type {SandboxClock} from './clock';
import {bookOpeningFunds} from './domain/ledger';
import {lowerCaseHeaders, type SandboxRequest} from './http';
import type {JobQueue} from './jobs';
import {exportRecords} from './persistence';
import type {FaultQueue} from './pipeline/limits';
import type {PipelineParts} from './pipeline/pipeline';
import type {EngineSpec} from './spec';
import {collections, engineKey, MerchantRecords, recordKey, type ChangeSet} from './state';
import {stateDocumentOf, type SandboxStateDocument} from './stateDocument';
import {Rejected} from './tx';
import {runUnit, type UnitGate, type UnitHost} from './unit';
import {isoSeconds} from './clock';
import {advanceMerchantClock, merchantOffsetMs, type MerchantClockHost} from './merchantClock';
import type {RecordValue} from './store';
import {msPerSecond} from './values';

const msPerDay = 86_400 * msPerSecond;

/** The engine's parts the tenant tools work on (the engine hands them over once, in SandboxEngine.create). */
export interface TenantHost extends MerchantClockHost {
  readonly spec: EngineSpec;
  readonly clock: SandboxClock;
  readonly unitHost: UnitHost;
  readonly gate: UnitGate;
  readonly merchants: Map<string, MerchantRecords>;
  readonly jobs: JobQueue;
  readonly faults: FaultQueue;
  readonly deliveryLog: DeliveryLog;
  readonly changes: ChangeSet;
  readonly pipeline: PipelineParts;
  commit(): Promise<void>;
  /** Waits for deliveries in flight: one that ends after its merchant is removed would write into a record that is gone. */
  settle(): Promise<void>;
}

export class Tenants {
  /**
   * Whether a merchant's clock move sends the notification attempts it makes due. Instances sharing a database
   * set it false: the move runs holding the merchant's lock, and the attempts are claimed and sent after it.
   */
  inlineDeliveries = true;

  constructor(private readonly host: TenantHost) {}

  /**
   * The merchant that signed a test-tool request, by the API's authenticate step: its nonce is remembered as
   * an API call's is, and the call is counted in the limiter's test-tool class (RATE_LIMITED beyond it), which the
   * hosted server's admission sheds on before the signature check (hosts/server/shedding.ts).
   */
  async caller(request: SandboxRequest): Promise<ActionResult<string>> {
    const {pipeline} = this.host;
    const result = await pipeline.inUnit(async (unit): Promise<ActionResult<string>> => {
      try {
        const state = await pipeline.authenticator.authenticate(unit, request, lowerCaseHeaders(request.headers));
        pipeline.limiter.countIn(state.merchant.clientId, pipeline.limiter.testTools);
        unit.end('done');
        return {ok: true, value: state.merchant.clientId};
      } catch (error) {
        unit.end(error instanceof Rejected ? 'rejected' : 'crashed');
        if (error instanceof Rejected) return {ok: false, code: error.code, message: error.message};
        throw error;
      }
    });
    await pipeline.commit();
    return result;
  }

  /** A fault that answers only this merchant's calls. */
  setFault(clientId: string, fault: {resultCode: string; operationId?: string; count?: number}): ActionResult<Fault> {
    return this.host.faults.add({...fault, clientId});
  }

  /**
   * Starts this merchant again, as if it had just registered: its objects, jobs, faults and delivery log go;
   * its keys, settings and remembered nonces stay (a reset must not let its own signed requests be replayed).
   */
  async reset(clientId: string): Promise<ActionResult<{ok: true}>> {
    if (!this.host.merchants.has(clientId)) return {ok: false, code: 'UNKNOWN_CLIENT', message: `No sandbox merchant ${clientId}.`};
    await this.host.settle();
    await this.host.gate.run(async () => {
      const current = this.host.merchants.get(clientId);
      if (!current) return;
      const record = {...current.merchant, createdAt: this.host.clock.now()};
      const nonces = [...current.nonces];
      this.removeNow(clientId);
      const fresh = new MerchantRecords(record);
      await runUnit(this.host.unitHost, fresh, (tx, view) => {
        tx.saveMerchant(view, record);
        bookOpeningFunds(tx, view);
      });
      for (const [nonce, until] of nonces) this.host.unitHost.write(fresh, 'nonce', nonce, until);
      this.host.merchants.set(clientId, fresh);
    });
    await this.host.commit();
    return {ok: true, value: {ok: true}};
  }

  /** Moves the merchant's own clock on, running its jobs that fall due (merchantClock.ts); no other merchant's. */
  async advanceClock(clientId: string, seconds: number): Promise<ActionResult<{now: string; jobsRun: number}>> {
    const state = this.host.merchants.get(clientId);
    if (!state) return {ok: false, code: 'UNKNOWN_CLIENT', message: `No sandbox merchant ${clientId}.`};
    const {now, jobsRun} = await advanceMerchantClock(this.host, state, seconds, {deliveries: this.inlineDeliveries});
    return {ok: true, value: {now: isoSeconds(now), jobsRun}};
  }

  /**
   * One merchant's records, its jobs and its clock, in the format of a whole export (it can be imported into a
   * local sandbox, where the merchant's clock becomes the sandbox clock).
   */
  exportOf(clientId: string): SandboxStateDocument | undefined {
    const state = this.host.merchants.get(clientId);
    if (!state) return undefined;
    const jobs = this.host.jobs.values().filter((job) => job.clientId === clientId);
    const offset = merchantOffsetMs(state.merchant);
    const records = exportRecords([state], jobs, this.host.clock.offsetMs + offset);
    const merchant = {...state.merchant};
    delete merchant.clockOffsetMs;
    records[0] = [records[0]?.[0] ?? '', JSON.parse(JSON.stringify(merchant)) as RecordValue];
    return stateDocumentOf(records, this.host.spec.contractVersion, isoSeconds(this.host.clock.now() + offset));
  }

  /** When the merchant last signed anything: the newest nonce it used (kept for the nonce retention), or its registration. */
  lastActive(state: MerchantRecords): number {
    const retention = this.host.spec.signing.nonceRetentionSeconds * msPerSecond;
    let last = state.merchant.createdAt;
    for (const until of state.nonces.values()) last = Math.max(last, until - retention);
    return last;
  }

  /**
   * Removes merchants that signed nothing for `idleMerchantDays` (never the shared test merchant), and the events
   * and delivery attempts of every merchant older than the events' retention; answers what it removed.
   */
  async sweep(): Promise<{merchantsRemoved: string[]; eventsRemoved: number}> {
    const {spec, clock, merchants} = this.host;
    const now = clock.now();
    const idleSince = now - spec.sandbox.hosted.idleMerchantDays * msPerDay;
    // Events are dated on their merchant's clock, so each merchant's are kept for the retention on its clock.
    const oldestEvent = (state: MerchantRecords) => now + merchantOffsetMs(state.merchant) - spec.delivery.eventRetentionDays * msPerDay;
    const idle = [...merchants.values()]
      .filter((state) => state.merchant.clientId !== spec.sandbox.merchant.clientId && this.lastActive(state) < idleSince)
      .map((state) => state.merchant.clientId);
    await this.host.settle();
    let eventsRemoved = 0;
    await this.host.gate.run(() => {
      for (const clientId of idle) this.removeNow(clientId);
      this.host.deliveryLog.expire(
        new Map([...merchants.values()].map((state) => [state.merchant.clientId, isoSeconds(oldestEvent(state))])),
      );
      for (const state of merchants.values()) {
        for (const [id, record] of [...state.events]) {
          if (Date.parse(record.event.createdAt) >= oldestEvent(state)) continue;
          this.host.unitHost.write(state, 'event', id, undefined);
          eventsRemoved += 1;
        }
      }
    });
    await this.host.commit();
    return {merchantsRemoved: idle, eventsRemoved};
  }

  /** Forgets a merchant in memory and marks every record of it deleted for the next commit. Only inside the gate. */
  private removeNow(clientId: string): void {
    const {merchants, changes, faults, deliveryLog} = this.host;
    const state = merchants.get(clientId);
    if (!state) return;
    for (const collection of collections)
      for (const id of state.map(collection).keys()) changes.touch(recordKey(clientId, collection, id), () => undefined);
    changes.touch(engineKey('merchant', clientId), () => undefined);
    this.host.jobs.removeWhere((job) => job.clientId === clientId);
    const keepFaults = faults.entries.filter((fault) => fault.clientId !== clientId);
    faults.entries.splice(0, faults.entries.length, ...keepFaults);
    deliveryLog.forget(clientId);
    merchants.delete(clientId);
  }
}
