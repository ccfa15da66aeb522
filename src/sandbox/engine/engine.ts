export type * from './api';
/**
 * The sandbox engine's shell: the contract, executed with real state. One instance serves any number of
 * merchants. It owns what the domain modules must not touch: the store and its commits, the job heap, the
 * keys, deliveries in flight, and the unit of work of each call (./unit). Requests go through ./pipeline (route,
 * authenticate, limits and faults, validate, dispatch, respond); operations are rows of ./operations; every
 * business rule lives in ./domain and comes from the EngineSpec (the contract and the sandbox data). Pure
 * TypeScript over WebCrypto: no DOM, no Node built-ins, so the browser and the local server run the same code.
 */
import {importPrivateKey, signCanonical} from '../../lib/signing';
import {controlActions, shopperActions, type ActionHost} from './shopperAndControl';
import type {ActionResult, MerchantView, SandboxOptions} from './api';
import {createClock, isoSeconds, type SandboxClock} from './clock';
import {DeliveryLog} from './deliveryLog';
import {type DeliveryChannel} from './domain/events';
import {balancesOf, bookOpeningFunds} from './domain/ledger';
import {statementCsv, statementFile} from './domain/statements';
import {lowerCaseHeaders, type NotificationTransport, type SandboxRequest, type SandboxResponse} from './http';
import {randomId} from './ids';
import {JobQueue, runJob, type JobRunner} from './jobs';
import {MerchantCache} from './merchantCache';
import {merchantOffsetMs, offsetClock} from './merchantClock';
import {exportRecords, loadRecords} from './persistence';
import {latestReferences, merchantView, snapshotOf, type MerchantSnapshot} from './reads';
import {createAuthenticator, type Authenticator} from './pipeline/authenticate';
import {FaultQueue, RateLimiter} from './pipeline/limits';
import {runPipeline, signedRequestOf, type PipelineParts} from './pipeline/pipeline';
import {respond, type Responder} from './pipeline/respond';
import type {EngineSpec} from './spec';
import {ChangeSet, MerchantRecords, engineKey, recordKey} from './state';
import type {Collection, JobRecord, JsonObject, LedgerEntry, MerchantRecord, MerchantState, PayoutKind} from './state';
import {checkStateDocument, stateDocumentOf, type SandboxStateDocument} from './stateDocument';
import {memoryStore, type RecordValue, type SandboxStore} from './store';
import {Tenants} from './tenants';
import {Rejected, type Tx} from './tx';
import {readOnlyTx, UnitGate, UnitOfWork, type UnitHost} from './unit';

export {sandboxFundingType} from './domain/ledger';
export {gzipWithDigest} from './domain/statements';

export class SandboxEngine {
  readonly clock: SandboxClock;
  private readonly spec: EngineSpec;
  private readonly store: SandboxStore;
  private readonly transport: NotificationTransport | undefined;
  private readonly merchants = new Map<string, MerchantRecords>();
  private readonly changes = new ChangeSet();
  private readonly jobs: JobQueue;
  private readonly faults: FaultQueue;
  /** Read by a host that sheds calls beyond a merchant's rate before verifying them (hosts/server/shedding.ts). */
  readonly limiter: RateLimiter;
  private readonly authenticator: Authenticator;
  /** What each unit of work applies its writes through. */
  private readonly unitHost: UnitHost;
  private readonly gate = new UnitGate();
  /** A Tx for reads outside any unit (balances, statements): it has no way to write. */
  private readonly readTx: Tx;
  private providerPrivateKey!: CryptoKey;
  private pipeline!: PipelineParts;
  /** The hosted sandbox's per-merchant tools (tenants.ts), over this engine's parts. */
  tenants!: Tenants;
  private readonly providerKeyVersion: number;
  private readonly deliveryLog: DeliveryLog;
  /** Serialises store commits, so batches are durable in the order they were made. */
  private commitChain: Promise<void> = Promise.resolve();
  private readonly defaultMerchantKeyPem: string;
  private readonly providerPrivateKeyPem: string;

  private constructor(options: SandboxOptions) {
    this.spec = options.spec;
    this.store = options.store ?? memoryStore();
    this.clock = options.clock ?? createClock();
    this.deliveryLog = new DeliveryLog(this.store);
    const offsetOf = (clientId: string) => merchantOffsetMs(this.merchants.get(clientId)?.merchant);
    const run = (job: JobRecord) => this.runJob(job);
    this.jobs = new JobQueue({clock: this.clock, changes: this.changes, run, commit: () => this.commit(), offsetOf});
    this.transport = options.transport;
    this.providerKeyVersion = options.providerKey.keyVersion;
    this.providerPrivateKeyPem = options.providerKey.privateKeyPem;
    this.defaultMerchantKeyPem = options.defaultMerchantPublicKeyPem;
    this.faults = new FaultQueue(this.spec);
    this.limiter = new RateLimiter(this.spec, this.clock, options.rateLimits ?? true);
    this.unitHost = {
      spec: this.spec,
      clock: this.clock,
      hosts: options.hosts,
      validator: options.validator,
      write: (state, collection, id, value) => this.write(state, collection, id, value),
      writeMerchant: (state, merchant) => this.writeMerchant(state, merchant),
      schedule: (job) => this.jobs.schedule(job),
    };
    this.readTx = readOnlyTx(this.unitHost);
    this.authenticator = createAuthenticator(this.unitHost, (clientId) => this.merchantOf(clientId));
  }

  /** Creates an engine over its store: what the store holds is loaded, and the test merchant exists. */
  static async create(options: SandboxOptions): Promise<SandboxEngine> {
    const engine = new SandboxEngine(options);
    engine.providerPrivateKey = await importPrivateKey(options.providerKey.privateKeyPem);
    const responder: Responder = {
      spec: engine.spec,
      clock: engine.clock,
      limiter: engine.limiter,
      provider: {key: engine.providerPrivateKey, keyVersion: engine.providerKeyVersion},
    };
    const inUnit = <T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T> => engine.gate.run(() => work(new UnitOfWork(engine.unitHost)));
    const {spec, authenticator, limiter, faults} = engine;
    const commit = () => engine.commit();
    engine.pipeline = {spec, validator: options.validator, authenticator, limiter, faults, responder, inUnit, commit};
    const {merchants, jobs, deliveryLog, changes, gate, unitHost, clock} = engine;
    const parts = {spec, clock, unitHost, gate, merchants, jobs, faults, deliveryLog, changes, pipeline: engine.pipeline};
    const runJob = (job: JobRecord) => engine.runJob(job);
    const writeMerchant = (state: MerchantRecords, record: MerchantRecord) => engine.writeMerchant(state, record);
    engine.tenants = new Tenants({...parts, commit, settle: () => engine.settle(), runJob, writeMerchant});
    await engine.load();
    return engine;
  }

  /** Loads the store's records, or `records` (an import the store already holds), into an empty engine. */
  private async load(records?: Iterable<readonly [string, RecordValue]>): Promise<void> {
    loadRecords(records ?? (await this.store.load()), {
      merchants: this.merchants,
      addJob: (job) => this.jobs.restore(job),
      clock: this.clock,
    });
    const data = this.spec.sandbox.merchant;
    if (this.merchants.has(data.clientId)) return;
    const keys = {[String(data.merchantKey.keyVersion)]: this.defaultMerchantKeyPem};
    await this.addMerchant({
      clientId: data.clientId,
      keys,
      defaultNotifyUrl: data.defaultNotifyUrl,
      compressedRetries: false,
      createdAt: this.clock.now(),
    });
    await this.commit();
  }

  /** Applies one write of a finished unit of work to the records, and adds it to the next batch. */
  private write(state: MerchantRecords, collection: Collection, id: string, value: unknown): void {
    state.set(collection, id, value);
    const map = state.map(collection);
    this.changes.touch(recordKey(state.merchant.clientId, collection, id), () => map.get(id) as RecordValue | undefined);
  }

  private writeMerchant(state: MerchantRecords, merchant: MerchantRecord): void {
    state.setMerchant(merchant);
    this.changes.touch(engineKey('merchant', state.merchant.clientId), () => state.merchant as unknown as RecordValue);
  }

  /** Runs domain work on one merchant as one unit of work (unit.ts): applied when it returns, thrown away when it throws. */
  private inUnit<T>(state: MerchantRecords, work: (tx: Tx, view: MerchantState) => T | Promise<T>): Promise<T> {
    return this.gate.runOn(this.unitHost, state, work);
  }

  /** Commits what changed since the last commit; resolves when the store has it. */
  private commit(): Promise<void> {
    const offset = this.clock.offsetMs;
    this.changes.touch(engineKey('clock', 'offset'), () => offset);
    const batch = this.changes.drain();
    const log = this.deliveryLog.drain();
    this.commitChain = this.commitChain.then(() => (log ? this.store.commit(batch, log) : this.store.commit(batch)));
    return this.commitChain;
  }

  /** A new merchant, with its opening balances, as one unit of work. */
  private async addMerchant(record: MerchantRecord): Promise<void> {
    const state = new MerchantRecords(record);
    await this.inUnit(state, (tx, view) => {
      tx.saveMerchant(view, record);
      bookOpeningFunds(tx, view);
    });
    this.merchants.set(record.clientId, state);
  }

  /** A read-only Tx on the merchant's own clock (merchantClock.ts). */
  private readTxOf(state: MerchantRecords): Tx {
    return {...this.readTx, clock: offsetClock(this.clock, () => merchantOffsetMs(state.merchant))};
  }

  private merchantOf(clientId: string): MerchantRecords | undefined {
    return this.merchants.get(clientId);
  }

  /** Balances by currency now: the sums of the ledger's legs, with pending amounts whose day has come counted as available. */
  balances(clientId: string): Map<string, {available: number; pending: number; frozen: number}> {
    const state = this.merchantOf(clientId);
    return state ? balancesOf(this.readTxOf(state), state) : new Map();
  }

  /** The ledger of a merchant, oldest first (the sandbox console shows it). */
  ledger(clientId: string): readonly LedgerEntry[] {
    return [...(this.merchantOf(clientId)?.ledger.values() ?? [])];
  }

  /** The identifiers of a merchant's newest objects, for Try it to prefill (reads.ts). */
  latestReferences(clientId: string): Readonly<Record<string, string | undefined>> {
    const state = this.merchantOf(clientId);
    return state ? latestReferences(state) : {};
  }

  /** Carries out one API call. Never throws: bad input of any kind is answered with a documented code. */
  handle(request: SandboxRequest): Promise<SandboxResponse> {
    return runPipeline(this.pipeline, request);
  }

  /**
   * A refusal the host decides before the engine reads the request (a body over the size limit, bytes that
   * are not UTF-8), answered with the contract's envelope and, when the signing headers allow it, signed.
   */
  async refuse(request: Omit<SandboxRequest, 'body'>, code: string, message: string): Promise<SandboxResponse> {
    const signed = signedRequestOf(lowerCaseHeaders(request.headers));
    return respond(this.pipeline.responder, {request: {...request, body: ''}, signed, requestId: randomId('req_', 20)}, {code, message});
  }

  /** Statements: the CSV of one UTC day, and the gzip file Download statement's link serves. */
  statementCsv(clientId: string, day: string, currency?: string): {csv: string; rowCount: number} | undefined {
    const state = this.merchantOf(clientId);
    return state ? statementCsv(this.readTxOf(state), state, day, currency) : undefined;
  }

  async statementFile(
    clientId: string,
    day: string,
    currency?: string,
  ): Promise<{fileName: string; bytes: Uint8Array; sha256: string; csv: string} | undefined> {
    const state = this.merchantOf(clientId);
    return state ? statementFile(this.readTxOf(state), state, day, currency) : undefined;
  }

  /** Runs every job due by now (the server calls it on a timer). */
  runDue(): Promise<number> {
    return this.jobs.runDue();
  }

  /** Waits for the delivery of one notification that runDue started, if one is under way; not for the others. */
  settleDelivery(notificationId: string): Promise<void> {
    return this.jobs.settleDelivery(notificationId);
  }

  /** Waits for every delivery in flight (before a reset, or when a host stops). */
  settle(): Promise<void> {
    return this.jobs.settle();
  }

  /** Advances the sandbox clock, running each job at its own time, in order. */
  advance(seconds: number): Promise<number> {
    return this.jobs.advance(seconds);
  }

  /** When the next job is due, if any: the server sleeps until then. */
  nextJobAt(): number | undefined {
    return this.jobs.nextAt();
  }

  private get channel(): DeliveryChannel {
    return {
      sign: (canonical) => signCanonical(canonical, this.providerPrivateKey),
      keyVersion: this.providerKeyVersion,
      transport: this.transport,
      log: this.deliveryLog,
    };
  }

  private runner(): JobRunner {
    return {readTx: this.readTx, channel: this.channel, inUnit: (merchant, work) => this.inUnit(merchant, work)};
  }

  /** Hooks for hosts whose instances share one database: load or drop one merchant, run one claimed job (merchantCache.ts). */
  readonly cache = new MerchantCache({
    merchants: this.merchants,
    clock: () => this.clock,
    jobs: () => this.jobs,
    runner: () => this.runner(),
    commit: () => this.commit(),
  });

  private async runJob(job: JobRecord): Promise<void> {
    const state = this.merchantOf(job.clientId);
    if (!state) return;
    try {
      await runJob(this.runner(), state, job);
    } catch (error) {
      // A job that finds its object in an unexpected state does nothing: the state machine guards it.
      if (!(error instanceof Rejected)) throw error;
    }
  }

  /** Runs a shopper or control action as one unit of work: a rejection becomes {ok: false}; changes are committed. */
  private async act<T>(clientId: string, action: (state: MerchantState, tx: Tx) => T): Promise<ActionResult<T>> {
    const state = this.merchantOf(clientId);
    if (!state) return {ok: false, code: 'UNKNOWN_CLIENT', message: `No sandbox merchant ${clientId}.`};
    try {
      const value = await this.inUnit(state, (tx, view) => action(view, tx));
      await this.commit();
      return {ok: true, value};
    } catch (error) {
      if (error instanceof Rejected) return {ok: false, code: error.code, message: error.message};
      throw error;
    }
  }

  /** The engine as the shopper's actions and the control tools see it (shopperAndControl.ts). */
  private readonly actionHost: ActionHost = {
    act: (clientId, action) => this.act(clientId, action),
    now: () => this.clock.now(),
    hasMerchant: (clientId) => this.merchants.has(clientId),
    addMerchant: (record) => this.addMerchant(record),
    commit: () => this.commit(),
    addFault: (fault) => this.faults.add(fault),
    reset: () => this.reset(),
    deliveries: (clientId) => this.deliveryLog.list(clientId),
  };

  /** What customers, payees and banks do; each is a domain action run as one unit of work. */
  readonly shopper = shopperActions(this.actionHost);

  /** The sandbox's own tools. */
  readonly control = controlActions(this.actionHost);

  private async reset(): Promise<void> {
    // Deliveries under way first: one that fails schedules its retry, which is forgotten with the rest.
    await this.settle();
    this.forget();
    this.changes.drain();
    await this.commitChain;
    await this.store.clear();
    await this.load();
  }

  /** Empties the working set: no merchants, jobs, faults, rate windows or delivery log (reset and import). */
  private forget(): void {
    this.merchants.clear();
    this.jobs.clear();
    this.faults.entries.length = 0;
    this.limiter.clear();
    this.deliveryLog.clear();
  }

  /** The whole state as a versioned JSON document of every record the store would hold, copied. */
  exportState(): SandboxStateDocument {
    const records = exportRecords(this.merchants.values(), this.jobs.values(), this.clock.offsetMs);
    return stateDocumentOf(records, this.spec.contractVersion, isoSeconds(this.clock.now()));
  }

  /**
   * Replaces the whole state with a checked export (a malformed one changes nothing), in one store step where it
   * can. The clock only moves forward: an export from an earlier time leaves it where it is.
   */
  async importState(document: unknown): Promise<ActionResult<{merchants: number; records: number}>> {
    const checked = checkStateDocument(document, this.spec.contractVersion);
    if (!checked.ok) return {ok: false, code: 'INVALID_PARAMETER', message: checked.message};
    await this.settle();
    await this.commitChain;
    // The store first: if it fails, the old state is still both in memory and stored.
    if (this.store.replace) {
      await this.store.replace(checked.records);
    } else {
      await this.store.clear();
      await this.store.commit(checked.records.map(([key, value]) => ({key, value})));
    }
    this.forget();
    this.changes.drain();
    await this.load(checked.records);
    return {ok: true, value: {merchants: this.merchants.size, records: checked.records.length}};
  }

  merchantIds(): string[] {
    return [...this.merchants.keys()];
  }

  /** A merchant's settings and public keys (newest key version last), for the console; undefined when unknown. */
  merchant(clientId: string): MerchantView | undefined {
    const merchant = this.merchantOf(clientId)?.merchant;
    return merchant ? merchantView(merchant) : undefined;
  }

  /** A merchant's payouts with their product: wallet transfers, bank transfers and card payouts. */
  payouts(clientId: string): Array<{kind: PayoutKind; payout: JsonObject}> {
    return [...(this.merchantOf(clientId)?.payouts.values() ?? [])].map((record) => ({kind: record.kind, payout: record.payout}));
  }

  /** How many jobs wait on the clock (for one merchant, or all): payments, refunds, settlement, retries. */
  pendingJobs(clientId?: string): number {
    return this.jobs.values().filter((job) => clientId === undefined || job.clientId === clientId).length;
  }

  /** A merchant's objects, as the API shows them. */
  snapshot(clientId: string): MerchantSnapshot | undefined {
    const state = this.merchantOf(clientId);
    return state ? snapshotOf(state) : undefined;
  }

  /** The provider key's version and PEM (public information: the test key is published). */
  get providerKey(): {keyVersion: number; privateKeyPem: string} {
    return {keyVersion: this.providerKeyVersion, privateKeyPem: this.providerPrivateKeyPem};
  }
}
