/**
 * The sandbox engine: the contract, executed with real state. One instance serves any number of
 * merchants. Every business rule comes from the EngineSpec (the contract and the sandbox data); this
 * file carries them out. Pure TypeScript over WebCrypto: no DOM, no Node built-ins, so the browser and
 * the local server run the same code.
 *
 * Shape of a call: the request is matched to an operation, its signature checked (client ID, key by
 * version, timestamp window, nonce), rate-limited, validated against the contract's schemas, then carried
 * out synchronously on the in-memory state; the records it changed are committed to the store, and the
 * response is signed with the provider key. Later effects (a payment that confirms in 20 seconds, a
 * notification retry) are jobs on the sandbox clock.
 */
import {
  bytesToBase64,
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  importPublicKey,
  parseSignatureHeader,
  responseCanonicalString,
  signCanonical,
  timestampPattern,
  verifyCanonical,
} from '../../lib/signing';
import {
  amountEnding,
  createOrderOutcome,
  findAgreementToken,
  findBankAccount,
  findPaymentCard,
  findPayoutCard,
  findWallet,
  ibanCheckDigitsValid,
  paymentAttemptOutcome,
  paymentFee,
  paymentRuleFor,
  payoutOutcome,
  refundOutcome,
  type AttemptResult,
} from '../../lib/sandbox/rules';
import type {Wallet} from '../../lib/sandbox/types';
import {createClock, dayStart, isoSeconds, utcDay, type SandboxClock} from './clock';
import {MinHeap} from './heap';
import {isAcknowledgement, lowerCaseHeaders, type NotificationTransport, type SandboxRequest, type SandboxResponse} from './http';
import {randomDigits, randomId, randomNonce, randomToken} from './ids';
import {matchOperation, pathOf} from './pipeline/route';
import {canonicalJson, type EngineSpec, type NotifySource, type OperationSpec} from './spec';
import {
  ChangeSet,
  MerchantState,
  collections,
  engineKey,
  recordKey,
  type AgreementRecord,
  type Collection,
  type EventRecord,
  type JobRecord,
  type Json,
  type JsonObject,
  type LedgerEntry,
  type MerchantRecord,
  type Money,
  type OrderRecord,
  type PayoutKind,
  type PayoutRecord,
  type RefundRecord,
} from './state';
import {checkStateDocument, stateFormat, stateFormatVersion, type SandboxStateDocument} from './stateDocument';
import {memoryStore, type RecordValue, type SandboxStore} from './store';

/** Checks a value against the schema at a JSON pointer of the contract; one line per problem. */
export interface RequestValidator {
  problems(pointer: string, value: unknown): string[];
}

export interface SandboxOptions {
  readonly spec: EngineSpec;
  readonly validator: RequestValidator;
  /** The provider's test key, which signs every response and notification. */
  readonly providerKey: {readonly privateKeyPem: string; readonly keyVersion: number};
  /** The published test merchant's public key (the sandbox data names the client ID and version). */
  readonly defaultMerchantPublicKeyPem: string;
  /** Hosts of the hosted cashier and of statement files, from src/brand.ts. */
  readonly hosts: {readonly cashier: string; readonly files: string};
  readonly store?: SandboxStore;
  readonly clock?: SandboxClock;
  readonly transport?: NotificationTransport;
  /** Enforce the sandbox rate limits of x-rate-limits (default true); load tests turn them off. */
  readonly rateLimits?: boolean;
}

/** What a call produced, before it is turned into an HTTP response. */
interface Reply {
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
class Rejected extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const reject = (code: string, message: string): never => {
  throw new Rejected(code, message);
};

/** Result of the shopper and control actions: what changed, or why nothing did. */
export type ActionResult<T = Json> = {readonly ok: true; readonly value: T} | {readonly ok: false; readonly code: string; readonly message: string};

/** What a reader can pay with in the sandbox cashier, SDK or wallet. */
export type PaymentMethodChoice =
  | {readonly method: 'WALLET'; readonly phone: string; readonly pin: string}
  | {readonly method: 'CARD'; readonly cardNumber: string}
  | {readonly method: 'BANK_TRANSFER'}
  | {readonly method: 'CASH'};

export interface DeliveryLogEntry {
  readonly clientId: string;
  readonly notificationId: string;
  readonly eventType: string;
  readonly url: string;
  readonly at: string;
  readonly acknowledged: boolean;
  readonly httpStatus?: number;
  readonly error?: string;
}

/** What the notification simulator is asked for: a webhook (operationId or key), one of its scenarios, and optionally other data and URL. */
export interface SimulateNotificationInput {
  readonly operationId: string;
  readonly scenario: string;
  readonly data?: unknown;
  readonly notifyUrl?: string;
}

/** A simulated notification, raised as an event: its delivery is due now. */
export interface SimulatedNotification {
  readonly operationId: string;
  readonly scenario: string;
  readonly notificationId: string;
  readonly eventType: string;
  readonly notifyUrl: string;
  /** The body as delivered: notificationId, eventType, createdAt and data. */
  readonly notification: JsonObject;
}

/** A merchant as the sandbox console shows it. */
export interface MerchantView {
  readonly clientId: string;
  /** Public keys (SPKI PEM) by key version, oldest first. */
  readonly keys: ReadonlyArray<{readonly keyVersion: number; readonly publicKeyPem: string}>;
  readonly defaultNotifyUrl: string | null;
  /** The ten delivery attempts within 300 seconds instead of about 46 hours. */
  readonly compressedRetries: boolean;
  readonly createdAt: string;
}

export interface Fault {
  readonly resultCode: string;
  /** Only this operation; every operation when absent. */
  readonly operationId?: string;
  /** How many calls it answers. */
  remaining: number;
}

const msPerSecond = 1000;

interface BalanceCache {
  totals: Map<string, {available: number; pending: number; frozen: number}>;
  /** Pending amounts by the day they become available. */
  pendingByDay: Map<string, Map<string, number>>;
}

function addToCache(cache: BalanceCache, entry: LedgerEntry): void {
  const totals = cache.totals.get(entry.currency) ?? {available: 0, pending: 0, frozen: 0};
  totals.available += entry.legs.available ?? 0;
  totals.pending += entry.legs.pending ?? 0;
  totals.frozen += entry.legs.frozen ?? 0;
  cache.totals.set(entry.currency, totals);
  if (entry.availableOn !== undefined && entry.legs.pending) {
    const day = cache.pendingByDay.get(entry.availableOn) ?? new Map<string, number>();
    day.set(entry.currency, (day.get(entry.currency) ?? 0) + entry.legs.pending);
    cache.pendingByDay.set(entry.availableOn, day);
  }
}

/**
 * Records one change of an object that notifications carry: `version` goes up by one, and `updatedAt`
 * (where the object has it) is now. Receivers order notifications by `version`, which, unlike a
 * whole-second timestamp, tells apart two changes of the same second.
 */
function recordChange(object: JsonObject, now: number): void {
  object['version'] = (typeof object['version'] === 'number' ? object['version'] : 0) + 1;
  if ('updatedAt' in object) object['updatedAt'] = isoSeconds(now);
}

/** The amounts of an order that refunds and chargebacks move, as one comparable string. */
const amountsOf = (order: JsonObject): string => JSON.stringify([order['refundedAmount'], order['refundableAmount'], order['disputedAmount']]);

const processingMessage = (merchantOrderNo: string): string => `Order ${merchantOrderNo} has a payment attempt in PROCESSING: wait for its result notification, then try again.`;
const disputedMessage = (merchantOrderNo: string): string => `Order ${merchantOrderNo} has an OPEN chargeback: respond to it, then try again.`;

/**
 * The refund an earlier Revoke order of this order started and that has not failed, newest first: while it
 * exists, a repeated Revoke answers REFUND_STARTED with it, so a till whose first answer was lost acts the same.
 */
function revokeRefundOf(state: MerchantState, merchantOrderNo: string): RefundRecord | undefined {
  return [...state.refunds.values()]
    .filter((record) => record.refund.merchantOrderNo === merchantOrderNo && record.refund['origin'] === 'REVOKE' && record.refund.status !== 'FAILED')
    .at(-1);
}

/**
 * E-wallet: a desktop browser (`WEB`) is sent to the cashier, which shows a QR code for the wallet app;
 * a phone (`MOBILE_WEB`, `APP`) switches to the app by the documented deep link, with the cashier as fallback.
 */
function ewalletNextAction(terminalType: Json | undefined, cashierUrl: string, session: string): JsonObject {
  if (terminalType === 'WEB') return {type: 'REDIRECT', cashierUrl};
  return {type: 'APP_SWITCH', deepLink: `veloxapay://pay?session=${session}`, fallbackUrl: cashierUrl};
}

/** gzip, then SHA-256 in lower-case hex: the statement file as downloaded, and its digest. */
export async function gzipWithDigest(text: string): Promise<{bytes: Uint8Array; sha256: string}> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return {bytes, sha256: [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('')};
}
const paymentReferenceDigits = 12;

/** The statement row type of the starting balances (declared in api/statement-columns.yaml). */
export const sandboxFundingType = 'SANDBOX_FUNDING';


/** YYYY-MM-DDTHH:MM:SSZ naming an instant that exists: 2026-02-30 does not, although Date.parse rolls it over. */
function isRealTimestamp(text: string): boolean {
  return timestampPattern.test(text) && !Number.isNaN(Date.parse(text)) && isoSeconds(Date.parse(text)) === text;
}

/** Members a JSON body must never carry: JSON.parse makes "__proto__" an own member, which some schema keywords count as evaluated. */
function hasForbiddenMember(value: unknown, depth = 0): boolean {
  if (depth > 64 || typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => hasForbiddenMember(item, depth + 1));
  return Object.keys(value).some((key) => key === '__proto__' || hasForbiddenMember((value as Record<string, unknown>)[key], depth + 1));
}

/**
 * A deep copy of a JSON value that shares its strings, which are immutable, instead of making new ones as a
 * JSON round trip does: a notification's snapshot of an object then costs its structure, not its text again.
 * Members whose value is undefined are left out, as JSON would leave them; no data holds "__proto__" (refused
 * with the body it came in).
 */
function copyJson<T extends Json>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => copyJson(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(value)) if (item !== undefined) copy[key] = copyJson(item);
  return copy as T;
}

/**
 * What an idempotent create remembers of the request it accepted: the SHA-256 (base64) of the request's
 * canonical JSON, which compares exactly as the text does (x-idempotency.comparison) at a tenth of its
 * memory per object.
 */
async function requestKeyOf(value: Json): Promise<string> {
  return bytesToBase64(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalJson(value)))));
}

/** An absolute http or https URL (the local sandbox delivers to plain http on this machine too). */
function isHttpUrl(text: string): boolean {
  if (!/^https?:\/\/[^\s]+$/.test(text)) return false;
  try {
    return new URL(text).host !== '';
  } catch {
    return false;
  }
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function money(value: number, currency: string): Money {
  return {value, currency};
}

/** The masked form the contract's MaskedAccount pattern wants: stars, then the last four. */
function maskTail(account: string): string {
  return `${'*'.repeat(Math.max(1, account.length - 4))}${account.slice(-4)}`;
}

function maskCard(number: string): string {
  return `${number.slice(0, 6)}${'*'.repeat(number.length - 10)}${number.slice(-4)}`;
}

/** A decimal rate string as a fraction, for exact integer arithmetic. */
function rateFraction(rate: string): {numerator: bigint; denominator: bigint} {
  const [whole = '0', fraction = ''] = rate.split('.');
  return {numerator: BigInt(`${whole}${fraction}`), denominator: 10n ** BigInt(fraction.length)};
}

export class SandboxEngine {
  readonly clock: SandboxClock;
  private readonly spec: EngineSpec;
  private readonly validator: RequestValidator;
  private readonly store: SandboxStore;
  private readonly transport: NotificationTransport | undefined;
  private readonly hosts: SandboxOptions['hosts'];
  private readonly enforceRateLimits: boolean;
  private readonly merchants = new Map<string, MerchantState>();
  private readonly jobs = new MinHeap<JobRecord>((a, b) => a.at < b.at || (a.at === b.at && a.seq < b.seq));
  private jobSeq = 0;
  private readonly changes = new ChangeSet();
  private readonly faults: Fault[] = [];
  private readonly rateWindows = new Map<string, {second: number; count: number}>();
  private readonly publicKeys = new Map<string, CryptoKey>();
  private providerPrivateKey!: CryptoKey;
  private readonly providerKeyVersion: number;
  private readonly deliveryLog: DeliveryLogEntry[] = [];
  /** Serialises store commits, so batches are durable in the order they were made. */
  private commitChain: Promise<void> = Promise.resolve();
  private readonly defaultMerchantKeyPem: string;
  private readonly providerPrivateKeyPem: string;

  private constructor(options: SandboxOptions) {
    this.spec = options.spec;
    this.validator = options.validator;
    this.store = options.store ?? memoryStore();
    this.clock = options.clock ?? createClock();
    this.transport = options.transport;
    this.hosts = options.hosts;
    this.enforceRateLimits = options.rateLimits ?? true;
    this.providerKeyVersion = options.providerKey.keyVersion;
    this.providerPrivateKeyPem = options.providerKey.privateKeyPem;
    this.defaultMerchantKeyPem = options.defaultMerchantPublicKeyPem;
  }

  /** Creates an engine over its store: what the store holds is loaded, and the test merchant exists. */
  static async create(options: SandboxOptions): Promise<SandboxEngine> {
    const engine = new SandboxEngine(options);
    engine.providerPrivateKey = await importPrivateKey(options.providerKey.privateKeyPem);
    await engine.load();
    return engine;
  }

  // ---- State, store and jobs ----------------------------------------------------------------------

  /** Loads the store's records, or `records` (an import the store already holds), into an empty engine. */
  private async load(records?: Iterable<readonly [string, RecordValue]>): Promise<void> {
    records ??= await this.store.load();
    const merchantRecords: MerchantRecord[] = [];
    const rest: Array<[string, RecordValue]> = [];
    for (const [key, value] of records) {
      if (key.startsWith('~/merchant/')) merchantRecords.push(value as unknown as MerchantRecord);
      else rest.push([key, value]);
    }
    for (const merchant of merchantRecords) this.merchants.set(merchant.clientId, new MerchantState(merchant));
    for (const [key, value] of rest) {
      if (key.startsWith('~/job/')) {
        const job = value as unknown as JobRecord;
        this.jobs.push(job);
        this.jobSeq = Math.max(this.jobSeq, job.seq + 1);
        continue;
      }
      if (key === '~/clock/offset') {
        this.clock.advanceBy(Number(value) - this.clock.offsetMs);
        continue;
      }
      const [clientId = '', collection = '', ...id] = key.split('/');
      const state = this.merchants.get(clientId);
      if (!state || !(collections as readonly string[]).includes(collection)) continue;
      state.map(collection as Collection).set(id.join('/'), value);
    }
    if (!this.merchants.has(this.spec.sandbox.merchant.clientId)) {
      this.addMerchant({
        clientId: this.spec.sandbox.merchant.clientId,
        keys: {[String(this.spec.sandbox.merchant.merchantKey.keyVersion)]: this.defaultMerchantKeyPem},
        defaultNotifyUrl: this.spec.sandbox.merchant.defaultNotifyUrl,
        compressedRetries: false,
        createdAt: this.clock.now(),
      });
      await this.commit();
    }
  }

  private put(state: MerchantState, collection: Collection, id: string, value: unknown): void {
    const map = state.map(collection);
    if (value === undefined) map.delete(id);
    else map.set(id, value);
    this.changes.touch(recordKey(state.merchant.clientId, collection, id), () => map.get(id) as RecordValue | undefined);
  }

  /** Marks a record changed after editing it in place. */
  private touch(state: MerchantState, collection: Collection, id: string): void {
    const map = state.map(collection);
    this.changes.touch(recordKey(state.merchant.clientId, collection, id), () => map.get(id) as RecordValue | undefined);
  }

  private saveMerchant(state: MerchantState): void {
    this.changes.touch(engineKey('merchant', state.merchant.clientId), () => state.merchant as unknown as RecordValue);
  }

  private schedule(job: Omit<JobRecord, 'id' | 'seq'>): void {
    const record: JobRecord = {...job, id: randomToken(12), seq: this.jobSeq++};
    this.jobs.push(record);
    this.changes.touch(engineKey('job', record.id), () => record as unknown as RecordValue);
  }

  /** Commits what changed since the last commit; resolves when the store has it. */
  private commit(): Promise<void> {
    const offset = this.clock.offsetMs;
    this.changes.touch(engineKey('clock', 'offset'), () => offset);
    const batch = this.changes.drain();
    this.commitChain = this.commitChain.then(() => this.store.commit(batch));
    return this.commitChain;
  }

  private addMerchant(record: MerchantRecord): MerchantState {
    const state = new MerchantState(record);
    this.merchants.set(record.clientId, state);
    this.saveMerchant(state);
    this.bookOpeningFunds(state);
    return state;
  }

  /**
   * The starting balances, booked as a movement (a SANDBOX_FUNDING row per currency) at the instant the
   * merchant is created: the statement of that day opens at 0 and adds up, and so does every earlier day's
   * (0, no rows, 0). Issue 29, I-9.
   */
  private bookOpeningFunds(state: MerchantState): void {
    const at = state.merchant.createdAt;
    for (const balance of this.spec.sandbox.merchant.balances) {
      this.post(state, {
        at,
        currency: balance.currency,
        legs: {available: balance.available, pending: balance.pending, frozen: balance.frozen},
        row: {
          transactionType: sandboxFundingType,
          merchantReference: '',
          providerReference: randomId('fnd_', 16),
          relatedOrderNo: '',
          gross: balance.available + balance.pending + balance.frozen,
          fee: 0,
          status: 'SUCCEEDED',
          paymentMethod: '',
          createdAt: isoSeconds(at),
          completedAt: isoSeconds(at),
          storeId: '',
        },
        memo: 'opening balance of the sandbox merchant',
      });
    }
  }

  private merchantOf(clientId: string): MerchantState | undefined {
    return this.merchants.get(clientId);
  }

  // ---- Ledger -------------------------------------------------------------------------------------

  private post(state: MerchantState, entry: Omit<LedgerEntry, 'id' | 'at'> & {at?: number}): LedgerEntry {
    const record: LedgerEntry = {...entry, id: `${String(state.ledger.size).padStart(10, '0')}`, at: entry.at ?? this.clock.now()};
    this.put(state, 'ledger', record.id, record);
    const cache = this.balanceCaches.get(state);
    if (cache) addToCache(cache, record);
    return record;
  }

  /** Running sums of the ledger per merchant, so a balance check does not read every entry. Derived: rebuilt after a load. */
  private readonly balanceCaches = new WeakMap<MerchantState, BalanceCache>();

  private cacheOf(state: MerchantState): BalanceCache {
    let cache = this.balanceCaches.get(state);
    if (!cache) {
      cache = {totals: new Map(), pendingByDay: new Map()};
      for (const entry of state.ledger.values()) addToCache(cache, entry);
      this.balanceCaches.set(state, cache);
    }
    return cache;
  }

  /** Balances by currency now: the sums of the ledger's legs, with pending amounts whose day has come counted as available. */
  balances(clientId: string): Map<string, {available: number; pending: number; frozen: number}> {
    const state = this.merchantOf(clientId);
    const result = new Map<string, {available: number; pending: number; frozen: number}>();
    if (!state) return result;
    const cache = this.cacheOf(state);
    const today = utcDay(this.clock.now());
    for (const [currency, totals] of cache.totals) result.set(currency, {...totals});
    for (const [day, amounts] of cache.pendingByDay) {
      if (day > today) continue;
      for (const [currency, amount] of amounts) {
        const balance = result.get(currency);
        if (!balance) continue;
        balance.pending -= amount;
        balance.available += amount;
      }
    }
    return result;
  }

  private available(state: MerchantState, currency: string): number {
    return this.balances(state.merchant.clientId).get(currency)?.available ?? 0;
  }

  /** The ledger of a merchant, oldest first (the sandbox console shows it). */
  ledger(clientId: string): readonly LedgerEntry[] {
    return [...(this.merchantOf(clientId)?.ledger.values() ?? [])];
  }

  /**
   * The identifiers of a merchant's newest objects, by the name a path parameter or body field gives them
   * (merchantOrderNo, merchantRefundNo, notificationId, ...), so Try it can prefill "the order you just made".
   * Payouts are kept apart by kind: a wallet transfer's number does not answer Query transfer to bank.
   */
  latestReferences(clientId: string): Readonly<Record<string, string | undefined>> {
    const state = this.merchantOf(clientId);
    if (!state) return {};
    const last = <T>(map: Map<string, T>): T | undefined => [...map.values()].at(-1);
    const payouts = [...state.payouts.values()];
    const newestPayout = (kind: PayoutKind) => payouts.filter((record) => record.kind === kind).at(-1)?.payout.merchantTransferNo;
    return {
      merchantOrderNo: last(state.orders)?.order.merchantOrderNo,
      merchantRefundNo: last(state.refunds)?.refund['merchantRefundNo'] as string | undefined,
      merchantAgreementNo: last(state.agreements)?.agreement.merchantAgreementNo,
      // The newest event that has somewhere to go: Redeliver event refuses one without a URL.
      notificationId: ([...state.events.values()].filter((record) => typeof record.event['notifyUrl'] === 'string').at(-1) ?? last(state.events))?.event.notificationId,
      quoteId: last(state.quotes)?.quote.quoteId,
      WALLET: newestPayout('WALLET'),
      BANK: newestPayout('BANK'),
      CARD: newestPayout('CARD'),
    };
  }

  // ---- HTTP ---------------------------------------------------------------------------------------

  /** Carries out one API call. Never throws: bad input of any kind is answered with a documented code. */
  async handle(request: SandboxRequest): Promise<SandboxResponse> {
    const headers = lowerCaseHeaders(request.headers);
    const requestId = randomId('req_', 20);
    const clientId = headers['x-client-id'] ?? '';
    const requestTimestamp = headers['x-timestamp'] ?? '';
    const requestNonce = headers['x-nonce'] ?? '';
    let reply: Reply;
    let operation: OperationSpec | undefined;
    let rate: {limit: number; remaining: number} | undefined;
    try {
      const routed = this.route(request.method, request.target);
      operation = routed.operation;
      const state = await this.authenticate(request, headers);
      rate = this.rateLimit(state, operation);
      // One fault per call: a SYSTEM_BUSY answered before the call leaves an INTERNAL_ERROR behind it for the next.
      const before = this.fault(operation, 'before');
      reply = before ?? (await this.invoke(state, operation, routed.pathParams, routed.query, request.body));
      if (!before) reply = this.fault(operation, 'after') ?? reply;
      if (operation.operationId === 'downloadStatement' && reply.code === 'SUCCESS') reply = await this.finishStatement(state, reply);
    } catch (error) {
      reply = error instanceof Rejected ? {code: error.code, message: error.message} : {code: 'INTERNAL_ERROR', message: `The sandbox failed: ${(error as Error).message}`};
      if (!(error instanceof Rejected)) this.changes.drain(); // a half-done call leaves nothing behind
    }
    await this.commit();
    return this.respond(request, {clientId, timestamp: requestTimestamp, nonce: requestNonce}, requestId, reply, operation, rate);
  }

  /**
   * A refusal the host decides before the engine reads the request (a body over the size limit, bytes that
   * are not UTF-8), answered with the contract's envelope and, when the signing headers allow it, signed.
   */
  async refuse(request: Omit<SandboxRequest, 'body'>, code: string, message: string): Promise<SandboxResponse> {
    const headers = lowerCaseHeaders(request.headers);
    const signed = {clientId: headers['x-client-id'] ?? '', timestamp: headers['x-timestamp'] ?? '', nonce: headers['x-nonce'] ?? ''};
    return this.respond({...request, body: ''}, signed, randomId('req_', 20), {code, message}, undefined, undefined);
  }

  private route(method: string, target: string): {operation: OperationSpec; pathParams: Record<string, string>; query: URLSearchParams} {
    if (!target.startsWith('/')) reject('INVALID_PARAMETER', `The request target must be a path starting with ${this.spec.basePath}/, got "${target.slice(0, 80)}".`);
    const path = pathOf(target);
    const query = new URLSearchParams(target.slice(path.length + 1));
    const match = matchOperation(this.spec.operations, method, path);
    if (match.found) return {operation: match.operation, pathParams: {...match.pathParams}, query};
    if (match.reason === 'path') return reject('INVALID_PARAMETER', `No operation at ${path.slice(0, 120)}: paths start with ${this.spec.basePath}/, as on the API reference pages.`);
    if (match.reason === 'method') return reject('INVALID_PARAMETER', `${path} takes ${match.methods.join(' or ')}, not ${method.slice(0, 10)}.`);
    return reject('INVALID_PARAMETER', `The path parameter ${match.parameter} is not valid percent-encoding.`);
  }

  private async authenticate(request: SandboxRequest, headers: Record<string, string | undefined>): Promise<MerchantState> {
    const clientId = headers['x-client-id'];
    if (!clientId) reject('INVALID_PARAMETER', 'The X-Client-Id header is missing.');
    const timestamp = headers['x-timestamp'] ?? '';
    if (!isRealTimestamp(timestamp)) reject('INVALID_PARAMETER', `X-Timestamp must be YYYY-MM-DDTHH:MM:SSZ naming a real instant, got "${timestamp.slice(0, 40)}".`);
    const nonce = headers['x-nonce'] ?? '';
    if (!/^[A-Za-z0-9-]{16,64}$/.test(nonce)) reject('INVALID_PARAMETER', 'X-Nonce must be 16 to 64 letters, digits or hyphens.');
    const state = this.merchantOf(clientId as string);
    if (!state) reject('UNKNOWN_CLIENT', `No sandbox merchant has the client ID "${(clientId as string).slice(0, 64)}". Register one, or use ${this.spec.sandbox.merchant.clientId}.`);
    const merchant = state as MerchantState;
    const window = this.spec.signing.timestampWindowSeconds;
    if (Math.abs(this.clock.now() - Date.parse(timestamp)) > window * msPerSecond) {
      reject('TIMESTAMP_OUT_OF_WINDOW', `X-Timestamp ${timestamp} is more than ${window} seconds from the sandbox clock, ${isoSeconds(this.clock.now())}.`);
    }
    let signature: {keyVersion: number; signature: string};
    try {
      signature = parseSignatureHeader(headers['x-signature'] ?? '');
    } catch (error) {
      return reject('INVALID_SIGNATURE', `X-Signature: ${(error as Error).message}`);
    }
    const pem = merchant.merchant.keys[String(signature.keyVersion)];
    if (!pem) reject('UNKNOWN_CLIENT', `No public key is registered under key version ${signature.keyVersion} for ${merchant.merchant.clientId}.`);
    const canonical = canonicalString({method: request.method, pathWithQuery: request.target, clientId: clientId as string, timestamp, nonce, body: request.body});
    const valid = await verifyCanonical(canonical, signature.signature, await this.publicKey(pem as string));
    if (!valid) reject('INVALID_SIGNATURE', 'The signature does not verify over the canonical string of this request: method, the target exactly as sent, client ID, timestamp, nonce and the raw body.');
    this.sweepNonces(merchant);
    if (merchant.nonces.has(nonce)) reject('NONCE_REUSED', `X-Nonce ${nonce} was used in the last ${this.spec.signing.nonceRetentionSeconds} seconds.`);
    this.put(merchant, 'nonce', nonce, this.clock.now() + this.spec.signing.nonceRetentionSeconds * msPerSecond);
    return merchant;
  }

  private async publicKey(pem: string): Promise<CryptoKey> {
    let key = this.publicKeys.get(pem);
    if (!key) {
      key = await importPublicKey(pem);
      this.publicKeys.set(pem, key);
    }
    return key;
  }

  /** Forgets expired nonces, at most once a minute per merchant: a sweep walks them all. */
  private sweepNonces(state: MerchantState): void {
    const now = this.clock.now();
    if (state.nonces.size < 256 || now - (this.lastSweep.get(state) ?? 0) < 60 * msPerSecond) return;
    this.lastSweep.set(state, now);
    for (const [nonce, until] of state.nonces) if (until < now) this.put(state, 'nonce', nonce, undefined);
  }

  private readonly lastSweep = new WeakMap<MerchantState, number>();

  private rateLimit(state: MerchantState, operation: OperationSpec): {limit: number; remaining: number} | undefined {
    const rateClass = this.spec.rateLimits.find((entry) => entry.name === operation.rateClass);
    if (!rateClass) return undefined;
    const second = Math.floor(this.clock.now() / msPerSecond);
    const key = `${state.merchant.clientId}/${rateClass.name}`;
    const window = this.rateWindows.get(key);
    const count = window && window.second === second ? window.count + 1 : 1;
    this.rateWindows.set(key, {second, count});
    const remaining = Math.max(0, rateClass.perSecond - count);
    if (this.enforceRateLimits && count > rateClass.perSecond) {
      throw new Rejected('RATE_LIMITED', `More than ${rateClass.perSecond} ${rateClass.name} requests in one second for ${state.merchant.clientId}.`);
    }
    return {limit: rateClass.perSecond, remaining};
  }

  /**
   * What is left of this second's allowance for a request that was not counted (refused before it was
   * authenticated, or rate-limited): the real figure, never a made-up 0 that would stall a client pacing on it.
   */
  private remainingUncounted(clientId: string, rateClass: {name: string; perSecond: number}): number {
    const window = this.rateWindows.get(`${clientId}/${rateClass.name}`);
    const used = window && window.second === Math.floor(this.clock.now() / msPerSecond) ? window.count : 0;
    return Math.max(0, rateClass.perSecond - used);
  }

  /** A fault set for this operation answers instead of it (SYSTEM_BUSY), or after it was carried out (INTERNAL_ERROR). */
  private fault(operation: OperationSpec, when: 'before' | 'after'): Reply | undefined {
    const index = this.faults.findIndex((fault) => fault.remaining > 0 && (fault.operationId === undefined || fault.operationId === operation.operationId));
    const fault = this.faults[index];
    if (!fault) return undefined;
    const rule = this.spec.sandbox.faults.codes.find((code) => code.resultCode === fault.resultCode);
    if (!rule || rule.carriedOut !== (when === 'after')) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults.splice(index, 1);
    return {
      code: fault.resultCode,
      message: rule.carriedOut ? 'Fault set in the sandbox: the call was carried out, then answered with an error.' : 'Fault set in the sandbox: nothing was changed.',
      ...(rule.retryAfterSeconds !== undefined ? {headers: {'Retry-After': String(rule.retryAfterSeconds)}} : {}),
    };
  }

  private async respond(
    request: SandboxRequest,
    signed: {clientId: string; timestamp: string; nonce: string},
    requestId: string,
    reply: Reply,
    operation: OperationSpec | undefined,
    rate: {limit: number; remaining: number} | undefined,
  ): Promise<SandboxResponse> {
    const known = this.spec.resultCodes[reply.code];
    const status = known?.httpStatus ?? 500;
    const envelope: JsonObject = {code: reply.code, message: reply.message ?? known?.message ?? 'The sandbox answered with a code the contract does not define.', requestId};
    if (reply.data !== undefined) envelope['data'] = reply.data;
    const body = JSON.stringify(envelope);
    const timestamp = isoSeconds(this.clock.now());
    const nonce = randomNonce();
    const headers: Record<string, string> = {'Content-Type': 'application/json', 'X-Request-Id': requestId, ...(reply.headers ?? {})};
    const rateClass = operation ? this.spec.rateLimits.find((entry) => entry.name === operation.rateClass) : undefined;
    if (rateClass) {
      headers['RateLimit-Limit'] = String(rate?.limit ?? rateClass.perSecond);
      headers['RateLimit-Remaining'] = String(rate?.remaining ?? this.remainingUncounted(signed.clientId, rateClass));
      headers['RateLimit-Reset'] = '1';
    }
    if ((reply.code === 'RATE_LIMITED' || reply.code === 'SYSTEM_BUSY') && headers['Retry-After'] === undefined) headers['Retry-After'] = '1';
    try {
      const canonical = responseCanonicalString({
        request: {method: request.method, pathWithQuery: request.target, clientId: signed.clientId, timestamp: signed.timestamp, nonce: signed.nonce},
        status,
        timestamp,
        nonce,
        body,
      });
      const signature = await signCanonical(canonical, this.providerPrivateKey);
      headers['X-Timestamp'] = timestamp;
      headers['X-Nonce'] = nonce;
      headers['X-Signature'] = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: this.providerKeyVersion, signature});
    } catch {
      // Only a request value with a line break cannot be bound (responseCanonicalString); HTTP cannot carry one.
    }
    return {status, headers, body, ...(reply.holdSeconds ? {holdSeconds: reply.holdSeconds} : {})};
  }

  // ---- Validation ---------------------------------------------------------------------------------

  private parameters(operation: OperationSpec, pathParams: Record<string, string>, query: URLSearchParams): Record<string, Json> {
    const values: Record<string, Json> = {};
    const known = new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
    for (const name of query.keys()) {
      if (!known.has(name)) reject('INVALID_PARAMETER', `Unknown query parameter "${name.slice(0, 40)}"; ${operation.operationId} takes ${[...known].join(', ') || 'none'}.`);
      if (query.getAll(name).length > 1) reject('INVALID_PARAMETER', `The query parameter ${name} is given more than once.`);
    }
    for (const parameter of operation.parameters) {
      const raw = parameter.in === 'path' ? pathParams[parameter.name] : (query.get(parameter.name) ?? undefined);
      if (raw === undefined) {
        if (parameter.required) reject('INVALID_PARAMETER', `The ${parameter.in} parameter ${parameter.name} is required.`);
        continue;
      }
      let value: Json = raw;
      if (parameter.type === 'integer' || parameter.type === 'number') {
        if (!/^-?\d+(\.\d+)?$/.test(raw)) reject('INVALID_PARAMETER', `${parameter.name} must be a number, got "${raw.slice(0, 40)}".`);
        value = Number(raw);
        if (!Number.isFinite(value) || (parameter.type === 'integer' && !Number.isSafeInteger(value))) reject('INVALID_PARAMETER', `${parameter.name} is out of range.`);
      } else if (parameter.type === 'boolean') {
        if (raw !== 'true' && raw !== 'false') reject('INVALID_PARAMETER', `${parameter.name} must be true or false.`);
        value = raw === 'true';
      }
      const problems = this.validator.problems(parameter.schemaPointer, value);
      if (problems.length > 0) reject('INVALID_PARAMETER', `${parameter.name}: ${problems.join('; ').replace(/^\(top level\) /, '')}`);
      if (parameter.format === 'date-time' && !isRealTimestamp(raw)) reject('INVALID_PARAMETER', `${parameter.name} must be YYYY-MM-DDTHH:MM:SSZ, got "${raw.slice(0, 40)}".`);
      values[parameter.name] = value;
    }
    return values;
  }

  private body(operation: OperationSpec, raw: string): JsonObject | undefined {
    if (!operation.bodySchemaPointer) {
      if (raw !== '') reject('INVALID_PARAMETER', `${operation.operationId} takes no body.`);
      return undefined;
    }
    let parsed: unknown;
    try {
      parsed = raw === '' && operation.bodyOptional ? {} : JSON.parse(raw);
    } catch {
      return reject('INVALID_PARAMETER', 'The body is not valid JSON.');
    }
    if (!isObject(parsed)) reject('INVALID_PARAMETER', 'The body must be a JSON object.');
    if (hasForbiddenMember(parsed)) reject('INVALID_PARAMETER', 'The body carries a member named "__proto__", which no request takes.');
    const body = parsed as JsonObject;
    if (operation.operationId === 'createOrder') this.checkSceneFields(body);
    const problems = this.validator.problems(operation.bodySchemaPointer, body);
    if (problems.length > 0) reject('INVALID_PARAMETER', problems.slice(0, 5).join('; '));
    return body;
  }

  /** A known scene without its own fields is SCENE_PARAMETERS_MISSING, named, rather than a schema error. */
  private checkSceneFields(body: JsonObject): void {
    const scene = body['scene'];
    if (typeof scene !== 'string') return;
    const required = this.spec.sceneFields[scene];
    if (!required) return;
    const missing = required.filter((field) => body[field] === undefined);
    if (missing.length > 0) reject('SCENE_PARAMETERS_MISSING', `Scene ${scene} needs ${missing.join(', ')}.`);
  }

  // ---- Operations ---------------------------------------------------------------------------------

  private async invoke(state: MerchantState, operation: OperationSpec, pathParams: Record<string, string>, query: URLSearchParams, rawBody: string): Promise<Reply> {
    const params = this.parameters(operation, pathParams, query);
    const body = this.body(operation, rawBody);
    const text = (name: string) => String(params[name] ?? '');
    switch (operation.operationId) {
      case 'createOrder':
        return this.createOrder(state, body as JsonObject, await requestKeyOf(body as JsonObject));
      case 'queryOrderPage':
        return this.listPage(state, params, [...state.orders.values()].map((record) => record.order), 'orders', {status: 'status', scene: 'scene'});
      case 'retrieveOrderDetail':
        return {code: 'SUCCESS', data: this.orderView(this.order(state, text('merchantOrderNo')))};
      case 'retrieveOrderPayer':
        return this.retrieveOrderPayer(state, text('merchantOrderNo'));
      case 'cancelOrder':
        return this.cancelOrder(state, text('merchantOrderNo'));
      case 'revokeOrder':
        return this.revokeOrder(state, text('merchantOrderNo'), body);
      case 'refundOrder':
        return this.refundOrder(state, text('merchantOrderNo'), body as JsonObject, await requestKeyOf({merchantOrderNo: text('merchantOrderNo'), body: body as JsonObject}));
      case 'adjustOrderExpiryTime':
        return this.adjustExpiry(state, text('merchantOrderNo'), body as JsonObject);
      case 'getCashierUrl':
        return this.getCashierUrl(state, text('merchantOrderNo'), body);
      case 'queryRefundPage':
        return this.listPage(state, params, [...state.refunds.values()].map((record) => record.refund), 'refunds', {status: 'status', merchantOrderNo: 'merchantOrderNo'});
      case 'queryRefund': {
        const id = state.refundNos.get(text('merchantRefundNo'));
        const record = id === undefined ? undefined : state.refunds.get(id);
        if (!record) return reject('REFUND_NOT_FOUND', `No refund ${text('merchantRefundNo')} exists, yet, for ${state.merchant.clientId}.`);
        return {code: 'SUCCESS', data: record.refund};
      }
      case 'transfer':
        return this.createPayout(state, 'WALLET', body as JsonObject, await requestKeyOf(body as JsonObject));
      case 'listTransfers':
        return this.listPage(state, params, this.payoutsOf(state, 'WALLET'), 'transfers', {status: 'status'});
      case 'queryTransfer':
        return {code: 'SUCCESS', data: this.payout(state, 'WALLET', text('merchantTransferNo')).payout};
      case 'getIbanHolderName':
        return this.ibanHolderName(body as JsonObject);
      case 'listCountriesAndCurrencies':
        return this.corridors(params['country']);
      case 'calculateRate':
        return this.calculateRate(state, body as JsonObject);
      case 'transferToBank':
        return this.createPayout(state, 'BANK', body as JsonObject, await requestKeyOf(body as JsonObject));
      case 'listBankTransfers':
        return this.listPage(state, params, this.payoutsOf(state, 'BANK'), 'bankTransfers', {status: 'status'});
      case 'queryTransferToBank':
        return {code: 'SUCCESS', data: this.payout(state, 'BANK', text('merchantTransferNo')).payout};
      case 'verifyCardPayoutEligibility':
        return this.cardEligibility(body as JsonObject);
      case 'transferToBankCard':
        return this.createPayout(state, 'CARD', body as JsonObject, await requestKeyOf(body as JsonObject));
      case 'listCardPayouts':
        return this.listPage(state, params, this.payoutsOf(state, 'CARD'), 'cardPayouts', {status: 'status'});
      case 'queryBankCardTransfer':
        return {code: 'SUCCESS', data: this.payout(state, 'CARD', text('merchantTransferNo')).payout};
      case 'getBalance':
        return this.getBalance(state, params['currency']);
      case 'downloadStatement':
        return this.downloadStatementReply(state, text('statementDate'), params['currency']);
      case 'listEvents':
        return this.listEvents(state, params);
      case 'redeliverEvent':
        return this.redeliverEvent(state, text('notificationId'));
      case 'createAgreement':
        return this.createAgreement(state, body as JsonObject, await requestKeyOf(body as JsonObject));
      case 'queryAgreement':
        return {code: 'SUCCESS', data: this.agreement(state, text('merchantAgreementNo')).agreement};
      case 'cancelAgreement':
        return this.cancelAgreement(state, text('merchantAgreementNo'), 'MERCHANT');
      case 'exchangeWalletAuthCode':
        return this.exchangeAuthCode(state, String((body as JsonObject)['authCode']));
      default:
        return reject('INVALID_PARAMETER', `${operation.operationId} is not carried out by this sandbox.`);
    }
  }

  // -- Orders --

  private order(state: MerchantState, merchantOrderNo: string): OrderRecord {
    const record = state.orders.get(merchantOrderNo);
    if (!record) return reject('ORDER_NOT_FOUND', `No order ${merchantOrderNo} exists, yet, for ${state.merchant.clientId}.`);
    return record;
  }

  /** The order as the API shows it, with refundable and refunded amounts computed from its refunds and disputes. */
  private orderView(record: OrderRecord): JsonObject {
    return record.order;
  }

  /** Recomputes refundedAmount, refundableAmount and disputedAmount from the order's refunds and chargebacks. */
  private refreshAmounts(state: MerchantState, record: OrderRecord): void {
    const order = record.order;
    const currency = order.amount.currency;
    let succeeded = 0;
    let processing = 0;
    for (const refund of state.refunds.values()) {
      if (refund.refund.merchantOrderNo !== order.merchantOrderNo) continue;
      if (refund.refund.status === 'SUCCEEDED') succeeded += refund.refund.amount.value;
      else if (refund.refund.status === 'PROCESSING') processing += refund.refund.amount.value;
    }
    let disputed = 0;
    for (const chargeback of state.chargebacks.values()) {
      if (chargeback.chargeback.merchantOrderNo === order.merchantOrderNo && chargeback.chargeback.status !== 'WON') disputed += chargeback.chargeback.amount.value;
    }
    const paid = ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(order.status);
    order['refundedAmount'] = money(succeeded, currency) as unknown as Json;
    order['refundableAmount'] = money(paid ? Math.max(0, order.amount.value - succeeded - processing - disputed) : 0, currency) as unknown as Json;
    if (disputed > 0 || order['disputedAmount'] !== undefined) order['disputedAmount'] = money(disputed, currency) as unknown as Json;
  }

  /**
   * Recomputes the order's amounts after a refund or chargeback moved, and moves it to the status `next`
   * names (from the refunded amount), if any: one change of the order (one version) when anything moved.
   */
  private refreshOrderAmounts(state: MerchantState, record: OrderRecord, next?: (refunded: number) => string): void {
    const before = amountsOf(record.order);
    this.refreshAmounts(state, record);
    const status = next?.((record.order['refundedAmount'] as unknown as Money).value) ?? record.order.status;
    if (status !== record.order.status) {
      this.setOrderStatus(state, record, status);
      return;
    }
    if (amountsOf(record.order) !== before) recordChange(record.order, this.clock.now());
    this.touch(state, 'order', record.order.merchantOrderNo);
  }

  /** Moves an order to `to`, if its state machine declares the transition; throws otherwise (a bug, never bad input). */
  private transition(machine: string, from: string, to: string): void {
    const spec = this.spec.stateMachines[machine];
    if (!spec?.transitions.includes(`${from}>${to}`)) throw new Error(`${machine}: ${from} to ${to} is not a transition the contract declares.`);
  }

  private setOrderStatus(state: MerchantState, record: OrderRecord, to: string, changes: JsonObject = {}): void {
    const from = record.order.status;
    if (from !== to) this.transition('OrderStatus', from, to);
    Object.assign(record.order, changes, {status: to});
    recordChange(record.order, this.clock.now());
    this.refreshAmounts(state, record);
    this.touch(state, 'order', record.order.merchantOrderNo);
  }

  private createOrder(state: MerchantState, body: JsonObject, requestKey: string): Reply {
    const data = this.spec.sandbox;
    const merchantOrderNo = String(body['merchantOrderNo']);
    const amount = body['amount'] as unknown as Money;
    const scene = String(body['scene']);
    if (state.tombstones.has(merchantOrderNo)) reject('ORDER_CLOSED', `Order number ${merchantOrderNo} was blocked by Revoke order.`);
    const existing = state.orders.get(merchantOrderNo);
    if (existing) {
      if (existing.requestKey !== requestKey) reject('IDEMPOTENCY_CONFLICT', `Order ${merchantOrderNo} was created with a different body.`);
      return {code: 'SUCCESS', data: {order: this.orderView(existing), nextAction: existing.nextAction}, headers: {'Idempotent-Replayed': 'true'}};
    }
    this.checkCurrency(state, amount.currency, 'payments');
    if (amount.value > data.limits.maxAmount) reject(data.limits.exceeded.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED', `The largest sandbox order is ${data.limits.maxAmount} minor units.`);
    const outcome = createOrderOutcome(data, {
      scene,
      amount,
      ...(typeof body['payerPaymentCode'] === 'string' ? {payerPaymentCode: body['payerPaymentCode']} : {}),
      ...(typeof body['payerAgreementToken'] === 'string' ? {payerAgreementToken: body['payerAgreementToken']} : {}),
    });
    let attempt: AttemptResult | undefined = outcome.accepted ? outcome.attempt : undefined;
    if (!outcome.accepted) {
      // An agreement authorised through Create agreement issues a token the fixed table does not hold.
      const token = typeof body['payerAgreementToken'] === 'string' ? body['payerAgreementToken'] : undefined;
      const agreementNo = token ? state.tokens.get(token) : undefined;
      const agreement = agreementNo ? state.agreements.get(agreementNo) : undefined;
      if (!(outcome.resultCode === data.agreementTokens.unknown.resultCode && agreement?.agreement.status === 'ACTIVE' && agreement.wallet)) {
        return reject(outcome.resultCode, `Rejected by the sandbox (${outcome.because}).`);
      }
      const wallet = findWallet(data, {phone: agreement.wallet});
      attempt = paymentAttemptOutcome(data, {amount, method: 'WALLET', attempt: 'CREATE_ORDER', ...(wallet ? {wallet} : {})});
    } else if (scene === 'DIRECT_PAY' && typeof body['payerAgreementToken'] === 'string') {
      // A fixed token of an agreement cancelled in this sandbox no longer works.
      const agreementNo = state.tokens.get(body['payerAgreementToken']);
      const agreement = agreementNo ? state.agreements.get(agreementNo) : undefined;
      if (agreement && agreement.agreement.status !== 'ACTIVE') reject('AGREEMENT_INVALID', 'The agreement behind this token is not active.');
    }
    const now = this.clock.now();
    const expiresInSeconds = typeof body['expiresInSeconds'] === 'number' ? body['expiresInSeconds'] : 1800;
    const orderId = randomId('ord_', 16);
    const order: OrderRecord['order'] = {
      merchantOrderNo,
      orderId,
      status: 'PENDING',
      scene,
      amount: money(amount.value, amount.currency),
      refundedAmount: money(0, amount.currency) as unknown as Json,
      refundableAmount: money(0, amount.currency) as unknown as Json,
      subject: String(body['subject']),
      ...(typeof body['description'] === 'string' ? {description: body['description']} : {}),
      createdAt: isoSeconds(now),
      updatedAt: isoSeconds(now),
      version: 1,
      expiresAt: isoSeconds(now + expiresInSeconds * msPerSecond),
      ...(isObject(body['metadata']) ? {metadata: body['metadata']} : {}),
    } as OrderRecord['order'];
    const record: OrderRecord = {
      order,
      requestKey,
      nextAction: this.nextAction(scene, orderId, body, now),
      ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
      ...(typeof body['storeId'] === 'string' ? {storeId: body['storeId']} : {}),
    };
    if (record.nextAction['type'] === 'CASH_CODE') record.paymentReference = String(record.nextAction['paymentReference']);
    this.put(state, 'order', merchantOrderNo, record);
    this.schedule({at: Date.parse(order.expiresAt), clientId: state.merchant.clientId, kind: 'order.expire', ref: merchantOrderNo, data: {expiresAt: order.expiresAt}});
    if (attempt) {
      const wallet = this.walletForScene(state, body);
      this.startAttempt(state, record, attempt, 'WALLET', wallet);
    }
    // The Create order endings (92) apply in every scene, tokens issued in this sandbox included.
    const endingRule = paymentRuleFor(data, amount.value);
    const holdSeconds = outcome.accepted ? outcome.responseDelaySeconds : endingRule.at === 'CREATE_ORDER' && endingRule.kind === 'DELAYED' ? (endingRule.responseDelaySeconds ?? 0) : 0;
    return {code: 'SUCCESS', data: {order: this.orderView(record), nextAction: record.nextAction}, ...(holdSeconds > 0 ? {holdSeconds} : {})};
  }

  private walletForScene(state: MerchantState, body: JsonObject): Wallet | undefined {
    const data = this.spec.sandbox;
    if (typeof body['payerPaymentCode'] === 'string') {
      const code = data.paymentCodes.codes.find((entry) => entry.code === body['payerPaymentCode']);
      return code ? findWallet(data, {phone: code.wallet}) : undefined;
    }
    if (typeof body['payerAgreementToken'] === 'string') {
      const fixed = findAgreementToken(data, body['payerAgreementToken']);
      if (fixed) return findWallet(data, {phone: fixed.wallet});
      const agreementNo = state.tokens.get(body['payerAgreementToken']);
      const wallet = agreementNo ? state.agreements.get(agreementNo)?.wallet : undefined;
      return wallet ? findWallet(data, {phone: wallet}) : undefined;
    }
    return undefined;
  }

  /** Orders and refunds take the currencies of currencies.payments; payouts and quotes those of currencies.payouts. */
  private checkCurrency(state: MerchantState, currency: string, use: 'payments' | 'payouts'): void {
    const enabled = this.spec.sandbox.currencies[use];
    if (!enabled.includes(currency)) {
      reject(
        this.spec.sandbox.currencies.notEnabled.resultCode ?? 'PERMISSION_DENIED',
        `${currency} is not enabled for ${use === 'payments' ? 'orders' : 'payouts'} of ${state.merchant.clientId}: sandbox merchants take ${enabled.join(', ')}.`,
      );
    }
  }

  private nextAction(scene: string, orderId: string, body: JsonObject, now: number): JsonObject {
    const session = randomToken(16);
    const cashier = `https://${this.hosts.cashier}/pay/${orderId}?t=${session}`;
    switch (scene) {
      case 'HOSTED_PAYPAGE':
        return {type: 'REDIRECT', cashierUrl: cashier};
      case 'IFRAME_PAYPAGE':
        return {type: 'IFRAME', cashierUrl: cashier};
      case 'IN_APP_SDK':
        return {type: 'SDK', sdkOrderString: `vx1.${orderId}.${randomToken(32)}`};
      case 'DYNAMIC_QR': {
        const seconds = typeof body['qrExpiresInSeconds'] === 'number' ? body['qrExpiresInSeconds'] : 300;
        return {type: 'QR_CODE', qrContent: `https://${this.hosts.cashier}/qr/${orderId}`, qrExpiresAt: isoSeconds(now + seconds * msPerSecond)};
      }
      case 'JSAPI':
        return {type: 'JSAPI', jsapiParams: {walletAppId: String(body['walletAppId']), prepayId: randomId('pre_', 20), timestamp: String(Math.floor(now / msPerSecond)), nonce: randomToken(16), signature: randomToken(43)}};
      case 'EWALLET':
        return ewalletNextAction(body['terminalType'], cashier, session);
      case 'CASH_TOP_UP':
        return {type: 'CASH_CODE', paymentReference: randomDigits(paymentReferenceDigits), expiresAt: isoSeconds(now + (typeof body['expiresInSeconds'] === 'number' ? body['expiresInSeconds'] : 1800) * msPerSecond)};
      default:
        return {type: 'NONE'};
    }
  }

  /** Starts a payment attempt: decided now, or PROCESSING with a job that resolves it. */
  private startAttempt(state: MerchantState, record: OrderRecord, attempt: AttemptResult, method: string, wallet: Wallet | undefined, card?: string): void {
    const now = isoSeconds(this.clock.now());
    if (attempt.kind === 'UNANSWERED' && attempt.orderStatus === 'PENDING') return; // the payer's side just waits
    const payer = this.payerRecord(method, wallet, card);
    if (attempt.orderStatus === 'PROCESSING' || attempt.processingSeconds > 0) {
      this.setOrderStatus(state, record, 'PROCESSING', {paymentMethod: method, lastAttempt: {status: 'PROCESSING', paymentMethod: method, at: now}});
      record.payer = payer;
      this.schedule({
        at: this.clock.now() + attempt.processingSeconds * msPerSecond,
        clientId: state.merchant.clientId,
        kind: 'attempt.resolve',
        ref: record.order.merchantOrderNo,
        data: {finalStatus: attempt.finalOrderStatus, failureCode: attempt.failureCode ?? null, method, attemptAt: now},
      });
      return;
    }
    if (attempt.attemptStatus === 'SUCCEEDED') {
      record.payer = payer;
      this.markPaid(state, record, method);
    } else {
      this.setOrderStatus(state, record, record.order.status, {lastAttempt: {status: 'FAILED', paymentMethod: method, failureCode: attempt.failureCode ?? 'PAYER_DECLINED', failureReason: `Declined in the sandbox (${attempt.because}).`, at: now}});
      this.emit(state, 'ORDER.PAYMENT_FAILED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
    }
  }

  private payerRecord(method: string, wallet: Wallet | undefined, card?: string): OrderRecord['payer'] {
    if (method === 'CARD' && card) {
      const found = findPaymentCard(this.spec.sandbox, card);
      return {paymentMethod: 'CARD', maskedAccount: maskCard(card), cardBrand: found?.brand ?? 'OTHER', country: 'DE'};
    }
    if (method === 'WALLET' && wallet) return {paymentMethod: 'WALLET', maskedAccount: maskTail(wallet.phone.slice(1)), payerName: `Wallet ${wallet.phone.slice(-4)}`, country: 'US'};
    if (method === 'BANK_TRANSFER') return {paymentMethod: 'BANK_TRANSFER', maskedAccount: '******3000', payerName: 'Sandbox payer', country: 'DE'};
    return {paymentMethod: method, maskedAccount: '****0000'};
  }

  private markPaid(state: MerchantState, record: OrderRecord, method: string): void {
    const now = this.clock.now();
    const amount = record.order.amount;
    const fee = paymentFee(this.spec.sandbox, amount.value);
    // The order reports the fee and net amount its statement row books (issue 29, I-12).
    this.setOrderStatus(state, record, 'PAID', {
      paymentMethod: method,
      paidAt: isoSeconds(now),
      fee: money(fee, amount.currency),
      netAmount: money(amount.value - fee, amount.currency),
      lastAttempt: {status: 'SUCCEEDED', paymentMethod: method, at: isoSeconds(now)},
    });
    const entry = this.post(state, {
      currency: amount.currency,
      legs: {pending: amount.value - fee},
      availableOn: utcDay(now + this.spec.sandbox.pricing.settlementDays * 86400 * msPerSecond),
      row: {
        transactionType: 'PAYMENT',
        merchantReference: record.order.merchantOrderNo,
        providerReference: record.order.orderId,
        relatedOrderNo: '',
        gross: amount.value,
        fee: -fee,
        status: 'PAID',
        paymentMethod: method,
        createdAt: record.order.createdAt,
        completedAt: isoSeconds(now),
        storeId: record.storeId ?? '',
      },
      memo: `payment of order ${record.order.merchantOrderNo}`,
    });
    record.paidEntry = entry.id;
    this.emit(state, 'ORDER.PAID', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
  }

  private retrieveOrderPayer(state: MerchantState, merchantOrderNo: string): Reply {
    const record = this.order(state, merchantOrderNo);
    if (!['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(record.order.status) || !record.payer) return reject('ORDER_NOT_PAID', `Order ${merchantOrderNo} is ${record.order.status}: the payer is known once it is paid.`);
    return {code: 'SUCCESS', data: {merchantOrderNo, ...record.payer} as unknown as Json};
  }

  private closeOrder(state: MerchantState, record: OrderRecord, reason: 'CANCELLED' | 'REVOKED' | 'EXPIRED'): void {
    const now = isoSeconds(this.clock.now());
    this.setOrderStatus(state, record, 'CLOSED', {closedAt: now, closeReason: reason});
    this.emit(state, 'ORDER.CLOSED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
  }

  private cancelOrder(state: MerchantState, merchantOrderNo: string): Reply {
    const record = this.order(state, merchantOrderNo);
    const status = record.order.status;
    if (status === 'PROCESSING') reject('ORDER_PROCESSING', processingMessage(merchantOrderNo));
    if (['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(status)) reject('ORDER_ALREADY_PAID', `Order ${merchantOrderNo} is ${status}: a paid order cannot be cancelled; refund it instead.`);
    if (status === 'PENDING') this.closeOrder(state, record, 'CANCELLED');
    // Cancelling a closed order again returns it as it is.
    return {code: 'SUCCESS', data: this.orderView(record)};
  }

  private revokeOrder(state: MerchantState, merchantOrderNo: string, body: JsonObject | undefined): Reply {
    const record = state.orders.get(merchantOrderNo);
    if (!record) {
      if (!state.tombstones.has(merchantOrderNo)) this.put(state, 'tombstone', merchantOrderNo, isoSeconds(this.clock.now()));
      return reject('ORDER_NOT_FOUND', `No order ${merchantOrderNo} exists; the number is now blocked, so a Create order still in flight fails with ORDER_CLOSED.`);
    }
    const status = record.order.status;
    if (status === 'PROCESSING') reject('ORDER_PROCESSING', processingMessage(merchantOrderNo));
    if (status === 'PENDING') {
      this.closeOrder(state, record, 'REVOKED');
      return {code: 'SUCCESS', data: {outcome: 'CLOSED', order: this.orderView(record)}};
    }
    if (status === 'CLOSED') return {code: 'SUCCESS', data: {outcome: 'CLOSED', order: this.orderView(record)}};
    const started = revokeRefundOf(state, merchantOrderNo);
    if (started) return {code: 'SUCCESS', data: {outcome: 'REFUND_STARTED', order: this.orderView(record), refund: started.refund}};
    if (this.openChargeback(state, merchantOrderNo)) reject('ORDER_DISPUTED', disputedMessage(merchantOrderNo));
    this.checkRefundPeriod(record);
    const refundable = (record.order['refundableAmount'] as unknown as Money).value;
    if (refundable === 0) return {code: 'SUCCESS', data: {outcome: 'ALREADY_REFUNDED', order: this.orderView(record)}};
    const reason = typeof body?.['reason'] === 'string' ? body['reason'] : undefined;
    const refund = this.startRefund(state, record, money(refundable, record.order.amount.currency), 'REVOKE', {...(reason ? {reason} : {})});
    return {code: 'SUCCESS', data: {outcome: 'REFUND_STARTED', order: this.orderView(record), refund: refund.refund}};
  }

  private checkRefundPeriod(record: OrderRecord): void {
    const paidAt = record.order['paidAt'];
    if (typeof paidAt === 'string' && this.clock.now() - Date.parse(paidAt) > 365 * 86400 * msPerSecond) reject('REFUND_PERIOD_EXPIRED', `Order ${record.order.merchantOrderNo} was paid at ${paidAt}, more than 365 days ago: it can no longer be refunded.`);
  }

  private openChargeback(state: MerchantState, merchantOrderNo: string): boolean {
    return [...state.chargebacks.values()].some((chargeback) => chargeback.chargeback.merchantOrderNo === merchantOrderNo && chargeback.chargeback.status === 'OPEN');
  }

  private refundOrder(state: MerchantState, merchantOrderNo: string, body: JsonObject, requestKey: string): Reply {
    const merchantRefundNo = String(body['merchantRefundNo']);
    const existingId = state.refundNos.get(merchantRefundNo);
    if (existingId !== undefined) {
      const existing = state.refunds.get(existingId) as RefundRecord;
      if (existing.requestKey !== requestKey) reject('IDEMPOTENCY_CONFLICT', `Refund ${merchantRefundNo} was requested with a different order or body.`);
      return {code: 'SUCCESS', data: existing.refund, headers: {'Idempotent-Replayed': 'true'}};
    }
    const record = this.order(state, merchantOrderNo);
    if (!['PAID', 'PARTIALLY_REFUNDED'].includes(record.order.status)) {
      if (record.order.status === 'REFUNDED') reject('REFUND_AMOUNT_EXCEEDED', `Order ${merchantOrderNo} is REFUNDED: nothing is left to refund.`);
      reject('ORDER_NOT_PAID', `Order ${merchantOrderNo} is ${record.order.status}: only a paid order can be refunded.`);
    }
    if (this.openChargeback(state, merchantOrderNo)) reject('ORDER_DISPUTED', disputedMessage(merchantOrderNo));
    this.checkRefundPeriod(record);
    const amount = body['amount'] as unknown as Money;
    if (amount.currency !== record.order.amount.currency) reject('INVALID_PARAMETER', `amount.currency must be the order's currency, ${record.order.amount.currency}.`);
    const refundable = (record.order['refundableAmount'] as unknown as Money).value;
    if (amount.value > refundable) reject('REFUND_AMOUNT_EXCEEDED', `At most ${refundable} can be refunded now.`);
    const outcome = refundOutcome(this.spec.sandbox, amount.value, 'MERCHANT');
    if (!outcome.accepted) reject(outcome.resultCode, `Rejected by the sandbox (${outcome.because}).`);
    if (this.available(state, amount.currency) < amount.value) reject('INSUFFICIENT_BALANCE', `The available ${amount.currency} balance does not cover ${amount.value}.`);
    const refund = this.startRefund(state, record, amount, 'MERCHANT', {
      merchantRefundNo,
      ...(typeof body['reason'] === 'string' ? {reason: body['reason']} : {}),
      ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
    });
    refund.requestKey = requestKey;
    this.put(state, 'refundNo', merchantRefundNo, refund.refund.refundId);
    return {code: 'SUCCESS', data: refund.refund};
  }

  private startRefund(state: MerchantState, record: OrderRecord, amount: Money, origin: 'MERCHANT' | 'REVOKE', extra: JsonObject): RefundRecord {
    const now = this.clock.now();
    const refundId = randomId('rfd_', 16);
    const refund: RefundRecord = {
      refund: {
        ...(extra['merchantRefundNo'] !== undefined ? {merchantRefundNo: extra['merchantRefundNo']} : {}),
        origin,
        ...(extra['notifyUrl'] !== undefined ? {notifyUrl: extra['notifyUrl']} : {}),
        refundId,
        merchantOrderNo: record.order.merchantOrderNo,
        status: 'PROCESSING',
        amount: money(amount.value, amount.currency),
        ...(extra['reason'] !== undefined ? {reason: extra['reason']} : {}),
        createdAt: isoSeconds(now),
        updatedAt: isoSeconds(now),
        version: 1,
      } as RefundRecord['refund'],
    };
    this.put(state, 'refund', refundId, refund);
    this.post(state, {currency: amount.currency, legs: {available: -amount.value, frozen: amount.value}, memo: `refund ${refundId} reserved`});
    this.refreshOrderAmounts(state, record);
    const outcome = refundOutcome(this.spec.sandbox, amount.value, origin);
    const decided = outcome.accepted ? outcome : {status: 'SUCCEEDED', processingSeconds: 0};
    this.schedule({at: now + decided.processingSeconds * msPerSecond, clientId: state.merchant.clientId, kind: 'refund.complete', ref: refundId, data: {status: decided.status, failureCode: 'failureCode' in decided ? (decided.failureCode ?? null) : null}});
    return refund;
  }

  private adjustExpiry(state: MerchantState, merchantOrderNo: string, body: JsonObject): Reply {
    const record = this.order(state, merchantOrderNo);
    const status = record.order.status;
    if (status === 'CLOSED') reject('ORDER_CLOSED', `Order ${merchantOrderNo} is CLOSED: its expiry can no longer change.`);
    if (!['PENDING', 'PROCESSING'].includes(status)) reject('ORDER_ALREADY_PAID', `Order ${merchantOrderNo} is ${status}: a paid order has no expiry to adjust.`);
    const expiresAt = String(body['expiresAt']);
    if (!isRealTimestamp(expiresAt)) reject('INVALID_PARAMETER', 'expiresAt must be YYYY-MM-DDTHH:MM:SSZ naming a real instant.');
    const at = Date.parse(expiresAt);
    const now = this.clock.now();
    if (at < now + 60 * msPerSecond || at > Date.parse(record.order.createdAt) + 7 * 86400 * msPerSecond) {
      reject('EXPIRY_OUT_OF_RANGE', 'Choose an expiry between now plus 60 seconds and 7 days after the order was created.');
    }
    this.setOrderStatus(state, record, status, {expiresAt});
    this.schedule({at, clientId: state.merchant.clientId, kind: 'order.expire', ref: merchantOrderNo, data: {expiresAt}});
    return {code: 'SUCCESS', data: this.orderView(record)};
  }

  private getCashierUrl(state: MerchantState, merchantOrderNo: string, body: JsonObject | undefined): Reply {
    const record = this.order(state, merchantOrderNo);
    const status = record.order.status;
    if (status === 'CLOSED') reject('ORDER_CLOSED', `Order ${merchantOrderNo} is CLOSED: create a new order for another attempt.`);
    if (status === 'PROCESSING') reject('ORDER_PROCESSING', processingMessage(merchantOrderNo));
    if (status !== 'PENDING') reject('ORDER_ALREADY_PAID', `Order ${merchantOrderNo} is ${status}: it needs no cashier.`);
    if (!['HOSTED_PAYPAGE', 'IFRAME_PAYPAGE', 'EWALLET'].includes(String(record.order['scene']))) {
      reject('INVALID_PARAMETER', `Get cashier URL is for HOSTED_PAYPAGE, IFRAME_PAYPAGE and EWALLET orders; ${merchantOrderNo} is ${String(record.order['scene'])}.`);
    }
    const locale = typeof body?.['locale'] === 'string' ? `&locale=${body['locale']}` : '';
    const expiresAt = Math.min(this.clock.now() + 15 * 60 * msPerSecond, Date.parse(record.order.expiresAt));
    return {code: 'SUCCESS', data: {merchantOrderNo, cashierUrl: `https://${this.hosts.cashier}/pay/${record.order.orderId}?t=${randomToken(16)}${locale}`, expiresAt: isoSeconds(expiresAt)}};
  }

  // -- Lists --

  private listPage(state: MerchantState, params: Record<string, Json>, items: readonly JsonObject[], key: string, filters: Record<string, string>): Reply {
    void state;
    const created = params['createdFrom'] !== undefined || params['createdTo'] !== undefined;
    const updated = params['updatedFrom'] !== undefined || params['updatedTo'] !== undefined;
    if (created === updated) reject('INVALID_PARAMETER', 'Send either createdFrom and createdTo or updatedFrom and updatedTo.');
    const field = created ? 'created' : 'updated';
    const from = params[`${field}From`];
    const to = params[`${field}To`];
    if (typeof from !== 'string' || typeof to !== 'string') return reject('INVALID_PARAMETER', `Send both ${field}From and ${field}To.`);
    const range = this.range(from, to, `${field}From`, `${field}To`);
    // The records' timestamps are whole seconds in one fixed format, so they compare as text, which is far
    // cheaper than parsing every record's time on every call (lists were the bound on throughput). The bounds
    // are rounded up to whole seconds, where comparing text means comparing instants.
    const fromText = secondsText(range.from);
    const toText = secondsText(range.to);
    const timeField = `${field}At`;
    const filterEntries = Object.entries(filters).filter(([parameter]) => params[parameter] !== undefined);
    const matching = items.filter((item) => {
      const at = String(item[timeField]);
      if (!(at >= fromText && at < toText)) return false;
      return filterEntries.every(([parameter, property]) => item[property] === params[parameter]);
    });
    // Newest first.
    matching.sort((a, b) => (String(b[timeField]) < String(a[timeField]) ? -1 : String(b[timeField]) > String(a[timeField]) ? 1 : 0));
    return {code: 'SUCCESS', data: {[key]: this.paginate(matching, params), pagination: this.pagination(matching.length, params)}};
  }

  private range(from: string, to: string, fromName: string, toName: string): {from: number; to: number} {
    const start = Date.parse(from);
    const end = Date.parse(to);
    if (!(end > start)) reject('INVALID_PARAMETER', `${toName} must be after ${fromName}.`);
    if (end - start > 31 * 86400 * msPerSecond) reject('INVALID_PARAMETER', `${fromName} to ${toName} spans more than 31 days.`);
    return {from: start, to: end};
  }

  private paginate<T>(items: readonly T[], params: Record<string, Json>): T[] {
    const {pageNo, pageSize} = this.pageOf(params);
    return items.slice((pageNo - 1) * pageSize, pageNo * pageSize);
  }

  private pageOf(params: Record<string, Json>): {pageNo: number; pageSize: number} {
    return {pageNo: typeof params['pageNo'] === 'number' ? params['pageNo'] : 1, pageSize: typeof params['pageSize'] === 'number' ? params['pageSize'] : this.spec.pageSizeDefault};
  }

  private pagination(total: number, params: Record<string, Json>): JsonObject {
    const {pageNo, pageSize} = this.pageOf(params);
    return {pageNo, pageSize, totalItems: total, totalPages: Math.ceil(total / pageSize)};
  }

  // -- Payouts --

  private payoutsOf(state: MerchantState, kind: PayoutKind): JsonObject[] {
    return [...state.payouts.values()].filter((record) => record.kind === kind).map((record) => record.payout);
  }

  private payout(state: MerchantState, kind: PayoutKind, merchantTransferNo: string): PayoutRecord {
    const record = state.payouts.get(merchantTransferNo);
    if (!record || record.kind !== kind) return reject('TRANSFER_NOT_FOUND', `No ${kind.toLowerCase()} payout ${merchantTransferNo} exists, yet.`);
    return record;
  }

  private fee(kind: 'WALLET' | 'BANK' | 'BANK_CROSS_CURRENCY' | 'CARD', currency: string): number {
    return this.spec.sandbox.pricing.payoutFees[kind][currency] ?? 0;
  }

  private createPayout(state: MerchantState, kind: PayoutKind, body: JsonObject, requestKey: string): Reply {
    const data = this.spec.sandbox;
    const merchantTransferNo = String(body['merchantTransferNo']);
    const existing = state.payouts.get(merchantTransferNo);
    if (existing) {
      if (existing.kind !== kind || existing.requestKey !== requestKey) {
        reject('IDEMPOTENCY_CONFLICT', existing.kind !== kind ? `${merchantTransferNo} is already a ${existing.kind.toLowerCase()} payout.` : `Payout ${merchantTransferNo} was requested with a different body.`);
      }
      return {code: 'SUCCESS', data: existing.payout, headers: {'Idempotent-Replayed': 'true'}};
    }
    const amount = body['amount'] as unknown as Money;
    this.checkCurrency(state, amount.currency, 'payouts');
    const now = this.clock.now();
    let fee: number;
    let extra: JsonObject;
    let outcome: ReturnType<typeof payoutOutcome>;
    if (kind === 'WALLET') {
      const payee = body['payee'] as JsonObject;
      if (amount.value > data.limits.maxAmount) reject(data.limits.exceeded.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED', `The largest sandbox payout is ${data.limits.maxAmount} minor units.`);
      outcome = payoutOutcome(data, {product: 'WALLET', amount, payee: {...(typeof payee['walletId'] === 'string' ? {walletId: payee['walletId']} : {}), ...(typeof payee['phoneNumber'] === 'string' ? {phoneNumber: payee['phoneNumber']} : {})}});
      fee = this.fee('WALLET', amount.currency);
      extra = {payee, ...(typeof body['remark'] === 'string' ? {remark: body['remark']} : {})};
    } else if (kind === 'CARD') {
      const card = body['card'] as JsonObject;
      const number = String(card['cardNumber']);
      if (amount.value > data.limits.maxAmount) reject(data.limits.exceeded.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED', `The largest sandbox payout is ${data.limits.maxAmount} minor units.`);
      outcome = payoutOutcome(data, {product: 'CARD', amount, cardNumber: number});
      fee = this.fee('CARD', amount.currency);
      const known = findPayoutCard(data, number);
      extra = {maskedCardNumber: maskCard(number), cardBrand: known?.brand ?? 'OTHER', ...(typeof body['remark'] === 'string' ? {remark: body['remark']} : {})};
    } else {
      const bank = this.bankPayout(state, body, amount);
      outcome = bank.outcome;
      fee = bank.fee;
      extra = bank.extra;
    }
    if (!outcome.accepted) return reject(outcome.resultCode, `Rejected by the sandbox (${outcome.because}).`);
    if (this.available(state, amount.currency) < amount.value + fee) reject('INSUFFICIENT_BALANCE', `The available ${amount.currency} balance does not cover ${amount.value} plus the fee of ${fee}.`);
    const prefix = kind === 'WALLET' ? 'trf_' : kind === 'BANK' ? 'btr_' : 'cpo_';
    const payout: PayoutRecord = {
      kind,
      requestKey,
      ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
      payout: {
        merchantTransferNo,
        transferId: randomId(prefix, 16),
        status: 'PROCESSING',
        amount: money(amount.value, amount.currency),
        fee: money(fee, amount.currency),
        ...extra,
        createdAt: isoSeconds(now),
        updatedAt: isoSeconds(now),
        version: 1,
      } as PayoutRecord['payout'],
    };
    // Key order of the contract's objects: what the payee sees first, then times.
    this.put(state, 'payout', merchantTransferNo, payout);
    this.post(state, {currency: amount.currency, legs: {available: -(amount.value + fee), frozen: amount.value + fee}, memo: `payout ${merchantTransferNo} reserved`});
    this.schedule({
      at: now + outcome.processingSeconds * msPerSecond,
      clientId: state.merchant.clientId,
      kind: 'payout.complete',
      ref: merchantTransferNo,
      data: {status: outcome.status, failureCode: outcome.failureCode ?? null, returnedAfterSeconds: outcome.returnedAfterSeconds ?? null, returnFailureCode: outcome.returnFailureCode ?? null},
    });
    return {code: 'SUCCESS', data: payout.payout};
  }

  private bankPayout(state: MerchantState, body: JsonObject, amount: Money): {outcome: ReturnType<typeof payoutOutcome>; fee: number; extra: JsonObject} {
    const data = this.spec.sandbox;
    const beneficiary = body['beneficiary'] as JsonObject;
    const account = beneficiary['account'] as JsonObject;
    const country = String(beneficiary['country']);
    const quoteId = typeof body['quoteId'] === 'string' ? body['quoteId'] : undefined;
    const known = findBankAccount(data, {
      ...(typeof account['iban'] === 'string' ? {iban: account['iban']} : {}),
      ...(typeof account['accountNumber'] === 'string' ? {accountNumber: account['accountNumber'], routingCode: String(account['routingCode'])} : {}),
    });
    const corridorsOfCountry = data.corridors.corridors.filter((corridor) => corridor.country === country);
    if (corridorsOfCountry.length === 0) reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No bank payout corridor to ${country}.`);
    let destinationCurrency = typeof body['destinationCurrency'] === 'string' ? body['destinationCurrency'] : undefined;
    if (destinationCurrency === undefined) {
      if (corridorsOfCountry.length > 1) reject('INVALID_PARAMETER', `destinationCurrency is required: ${country} has more than one corridor currency.`);
      destinationCurrency = corridorsOfCountry[0]?.currency;
    }
    const corridor = corridorsOfCountry.find((candidate) => candidate.currency === destinationCurrency);
    if (!corridor) return reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No corridor to ${country} in ${destinationCurrency ?? ''}.`);
    const cross = corridor.currency !== amount.currency;
    let destinationAmount = amount.value;
    let rate: string | undefined;
    if (quoteId !== undefined) {
      const quote = state.quotes.get(quoteId);
      if (!quote) return reject('QUOTE_EXPIRED', `Quote ${quoteId} is unknown or expired.`);
      if (quote.expiresAtMs < this.clock.now()) reject('QUOTE_EXPIRED', `Quote ${quoteId} expired at ${isoSeconds(quote.expiresAtMs)}; get a new one from Rate calculator.`);
      if (quote.quote.sourceAmount.value !== amount.value || quote.quote.sourceAmount.currency !== amount.currency || quote.quote.destinationAmount.currency !== corridor.currency || quote.destinationCountry !== country) {
        reject('QUOTE_MISMATCH', `Quote ${quoteId} was made for another amount, currency or country; send the transfer the quote describes, or get a new quote.`);
      }
      destinationAmount = quote.quote.destinationAmount.value;
      rate = quote.quote.rate;
    } else if (cross) {
      reject('INVALID_PARAMETER', `quoteId is required: ${amount.currency} to ${corridor.currency} is a cross-currency transfer. Get one from Rate calculator.`);
    }
    if (destinationAmount < corridor.minAmount || destinationAmount > corridor.maxAmount) {
      reject(data.corridors.outOfRange.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED', `Transfers to ${country} in ${corridor.currency} are ${corridor.minAmount} to ${corridor.maxAmount} minor units.`);
    }
    const name = String(beneficiary['name']);
    const outcome = payoutOutcome(data, {
      product: 'BANK',
      amount,
      destinationCurrency: corridor.currency,
      beneficiary: {
        name,
        account: {
          ...(typeof account['iban'] === 'string' ? {iban: account['iban']} : {}),
          ...(typeof account['accountNumber'] === 'string' ? {accountNumber: account['accountNumber'], routingCode: String(account['routingCode'])} : {}),
        },
      },
    });
    const fee = quoteId !== undefined ? (state.quotes.get(quoteId)?.quote.fee.value ?? 0) : this.fee(cross ? 'BANK_CROSS_CURRENCY' : 'BANK', amount.currency);
    const accountText = typeof account['iban'] === 'string' ? account['iban'] : String(account['accountNumber']);
    const extra: JsonObject = {
      destinationAmount: money(destinationAmount, corridor.currency) as unknown as Json,
      ...(rate !== undefined ? {rate} : {}),
      ...(quoteId !== undefined ? {quoteId} : {}),
      beneficiary: {name, country, accountType: account['accountType'] === 'IBAN' ? 'IBAN' : 'ACCOUNT_NUMBER', maskedAccount: maskTail(accountText)},
      purpose: String(body['purpose']),
      ...(typeof body['remark'] === 'string' ? {remark: body['remark']} : {}),
    };
    void known;
    return {outcome, fee, extra};
  }

  private ibanHolderName(body: JsonObject): Reply {
    const data = this.spec.sandbox;
    const iban = String(body['iban']);
    if (!ibanCheckDigitsValid(iban)) reject(data.bankAccounts.invalidIban.resultCode ?? 'IBAN_INVALID', 'The check digits of this IBAN are wrong: look for a typing mistake.');
    const country = iban.slice(0, 2);
    if (!data.corridors.corridors.some((corridor) => corridor.country === country)) reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No bank payout corridor to ${country}.`);
    const account = findBankAccount(data, {iban});
    if (!account) return reject(data.bankAccounts.unknownAccount.resultCode ?? 'PAYEE_ACCOUNT_INVALID', 'No account with this IBAN exists at the sandbox banks.');
    if (account.behavior.kind === 'REJECTED' || !account.holderName) return reject(account.behavior.resultCode ?? 'IBAN_INVALID', 'The sandbox bank does not name the holder of this IBAN.');
    return {code: 'SUCCESS', data: {iban: maskTail(iban), holderName: account.holderName, bankName: account.bankName ?? 'Sandbox bank', bic: account.bic ?? 'EXBKDEFFXXX', country: account.country}};
  }

  private corridors(country: Json | undefined): Reply {
    const corridors = this.spec.sandbox.corridors.corridors
      .filter((corridor) => country === undefined || corridor.country === country)
      .map((corridor) => ({
        country: corridor.country,
        currency: corridor.currency,
        accountFormat: corridor.accountFormat,
        minAmount: money(corridor.minAmount, corridor.currency),
        maxAmount: money(corridor.maxAmount, corridor.currency),
        typicalArrival: corridor.typicalArrival,
      }));
    return {code: 'SUCCESS', data: {corridors} as unknown as Json};
  }

  private calculateRate(state: MerchantState, body: JsonObject): Reply {
    const data = this.spec.sandbox;
    const sourceCurrency = String(body['sourceCurrency']);
    const country = String(body['destinationCountry']);
    const destinationCurrency = String(body['destinationCurrency']);
    this.checkCurrency(state, sourceCurrency, 'payouts');
    const corridor = data.corridors.corridors.find((candidate) => candidate.country === country && candidate.currency === destinationCurrency);
    if (!corridor) return reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No corridor to ${country} in ${destinationCurrency}.`);
    const rate = sourceCurrency === destinationCurrency ? '1' : data.exchange.rates.find((entry) => entry.from === sourceCurrency && entry.to === destinationCurrency)?.rate;
    if (!rate) return reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `The sandbox quotes no rate from ${sourceCurrency} to ${destinationCurrency}.`);
    const {numerator, denominator} = rateFraction(rate);
    let source: number;
    let destination: number;
    if (isObject(body['sourceAmount'])) {
      const given = body['sourceAmount'] as unknown as Money;
      if (given.currency !== sourceCurrency) reject('INVALID_PARAMETER', 'sourceAmount.currency must be sourceCurrency.');
      source = given.value;
      destination = Number((BigInt(source) * numerator) / denominator);
    } else {
      const given = body['destinationAmount'] as unknown as Money;
      if (given.currency !== destinationCurrency) reject('INVALID_PARAMETER', 'destinationAmount.currency must be destinationCurrency.');
      destination = given.value;
      source = Number((BigInt(destination) * denominator + numerator - 1n) / numerator);
    }
    if (destination < corridor.minAmount || destination > corridor.maxAmount) reject(data.corridors.outOfRange.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED', `Transfers to ${corridor.country} in ${corridor.currency} are ${corridor.minAmount} to ${corridor.maxAmount} minor units.`);
    const fee = this.fee(sourceCurrency === destinationCurrency ? 'BANK' : 'BANK_CROSS_CURRENCY', sourceCurrency);
    const expiresAtMs = this.clock.now() + data.exchange.quoteValidSeconds * msPerSecond;
    const quote = {
      quoteId: randomId('quo_', 16),
      sourceAmount: money(source, sourceCurrency),
      destinationAmount: money(destination, destinationCurrency),
      rate: rate.includes('.') ? rate : `${rate}.0`,
      fee: money(fee, sourceCurrency),
      expiresAt: isoSeconds(expiresAtMs),
    };
    this.put(state, 'quote', quote.quoteId, {quote, destinationCountry: country, expiresAtMs});
    return {code: 'SUCCESS', data: quote as unknown as Json};
  }

  private cardEligibility(body: JsonObject): Reply {
    const data = this.spec.sandbox;
    const number = String(body['cardNumber']);
    const currency = String(body['currency']);
    const card = findPayoutCard(data, number);
    if (!card) return {code: 'SUCCESS', data: {cardBrand: number.startsWith('4') ? 'VISA' : number.startsWith('5') ? 'MASTERCARD' : 'OTHER', ...data.payoutCards.unknownCard.eligibility} as unknown as Json};
    if (!data.payoutCards.currencies.includes(currency)) return {code: 'SUCCESS', data: {eligible: false, cardBrand: card.brand, issuerCountry: card.issuerCountry, reason: 'CURRENCY_NOT_SUPPORTED'}};
    return {code: 'SUCCESS', data: {cardBrand: card.brand, issuerCountry: card.issuerCountry, ...card.eligibility} as unknown as Json};
  }

  // -- Balance and statements --

  private getBalance(state: MerchantState, currency: Json | undefined): Reply {
    const balances = [...this.balances(state.merchant.clientId)]
      .filter(([code]) => currency === undefined || code === currency)
      .map(([code, balance]) => ({currency: code, available: money(balance.available, code), pending: money(balance.pending, code), frozen: money(balance.frozen, code)}));
    return {code: 'SUCCESS', data: {balances, asOf: isoSeconds(this.clock.now())} as unknown as Json};
  }

  /** The statement file of one UTC day, from the ledger, in the columns of api/statement-columns.yaml. */
  statementCsv(clientId: string, day: string, currency?: string): {csv: string; rowCount: number} | undefined {
    const state = this.merchantOf(clientId);
    if (!state) return undefined;
    const start = dayStart(day);
    const end = start + 86400 * msPerSecond;
    const header = 'statement_date,transaction_type,merchant_reference,provider_reference,related_merchant_order_no,currency,gross_amount,fee_amount,net_amount,status,payment_method,created_at,completed_at,store_id,available_on';
    const opening = this.totals(state, start);
    const closing = this.totals(state, end);
    // Every currency of the account, even on a day before the merchant existed (0, no rows, 0).
    const currencies = [...new Set([...this.spec.sandbox.currencies.payments, ...opening.keys(), ...closing.keys()])].filter((code) => currency === undefined || code === currency).sort();
    const lines = [header];
    const cell = (value: string | number) => {
      const text = String(value);
      return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    for (const code of currencies) {
      lines.push([day, 'OPENING_BALANCE', '', '', '', code, opening.get(code) ?? 0, 0, opening.get(code) ?? 0, '', '', '', isoSeconds(start), '', ''].map(cell).join(','));
      const rows = [...state.ledger.values()]
        .filter((entry) => entry.row && entry.currency === code && entry.at >= start && entry.at < end)
        .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
      for (const entry of rows) {
        const row = entry.row as NonNullable<LedgerEntry['row']>;
        const net = (entry.legs.available ?? 0) + (entry.legs.pending ?? 0) + (entry.legs.frozen ?? 0);
        lines.push(
          [day, row.transactionType, row.merchantReference, row.providerReference, row.relatedOrderNo, code, row.gross, row.fee, net, row.status, row.paymentMethod, row.createdAt, row.completedAt, row.storeId, entry.availableOn ?? '']
            .map(cell)
            .join(','),
        );
      }
      lines.push([day, 'CLOSING_BALANCE', '', '', '', code, closing.get(code) ?? 0, 0, closing.get(code) ?? 0, '', '', '', isoSeconds(end), '', ''].map(cell).join(','));
    }
    return {csv: `${lines.join('\n')}\n`, rowCount: lines.length - 1};
  }

  /** Total balance per currency (available + pending + frozen) from entries before `before`. */
  private totals(state: MerchantState, before: number): Map<string, number> {
    const totals = new Map<string, number>();
    for (const entry of state.ledger.values()) {
      if (entry.at >= before) continue;
      totals.set(entry.currency, (totals.get(entry.currency) ?? 0) + (entry.legs.available ?? 0) + (entry.legs.pending ?? 0) + (entry.legs.frozen ?? 0));
    }
    return totals;
  }

  /** Fills in the digest of the file a Download statement link serves. */
  private async finishStatement(state: MerchantState, reply: Reply): Promise<Reply> {
    const data = reply.data as JsonObject;
    const file = await this.statementFile(state.merchant.clientId, String(data['statementDate']), typeof data['currency'] === 'string' ? data['currency'] : undefined);
    return {...reply, data: {...data, sha256: file?.sha256 ?? ''}};
  }

  /** The statement file of a day as Download statement's link serves it: gzip-compressed CSV, with its SHA-256. */
  async statementFile(clientId: string, day: string, currency?: string): Promise<{fileName: string; bytes: Uint8Array; sha256: string; csv: string} | undefined> {
    const statement = this.statementCsv(clientId, day, currency);
    if (!statement) return undefined;
    const {bytes, sha256} = await gzipWithDigest(statement.csv);
    return {fileName: `statement-${day}${currency ? `-${currency}` : ''}.csv.gz`, bytes, sha256, csv: statement.csv};
  }

  private downloadStatementReply(state: MerchantState, day: string, currency: Json | undefined): Reply {
    const data = this.spec.sandbox.statements;
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(dayStart(day))) reject('INVALID_PARAMETER', 'statementDate must be a date YYYY-MM-DD.');
    const readyAt = dayStart(day) + 86400 * msPerSecond + Date.parse(`1970-01-01T${data.readyAfterUtc}Z`);
    if (this.clock.now() < readyAt) reject(data.notReady.resultCode ?? 'STATEMENT_NOT_READY', `The statement of ${day} is ready after ${isoSeconds(readyAt)}.`);
    const statement = this.statementCsv(state.merchant.clientId, day, typeof currency === 'string' ? currency : undefined);
    if (!statement) return reject('INTERNAL_ERROR', `The sandbox could not build the statement of ${day}; try again.`);
    const fileName = `statement-${day}${typeof currency === 'string' ? `-${currency}` : ''}.csv.gz`;
    return {
      code: 'SUCCESS',
      data: {
        statementDate: day,
        ...(typeof currency === 'string' ? {currency} : {}),
        fileName,
        format: 'CSV_GZIP',
        downloadUrl: `https://${this.hosts.files}/statements/${state.merchant.clientId}/${fileName}?t=${randomToken(24)}`,
        expiresAt: isoSeconds(this.clock.now() + data.downloadUrlSeconds * msPerSecond),
        // Filled in by finishStatement: gzip and SHA-256 are asynchronous in WebCrypto and CompressionStream.
        sha256: '',
        rowCount: statement.rowCount,
      },
    };
  }

  // -- Events --

  private listEvents(state: MerchantState, params: Record<string, Json>): Reply {
    const range = this.range(String(params['createdFrom']), String(params['createdTo']), 'createdFrom', 'createdTo');
    const oldest = this.clock.now() - this.spec.delivery.eventRetentionDays * 86400 * msPerSecond;
    const events = [...state.events.values()]
      .map((record) => record.event)
      .filter((event) => {
        const at = Date.parse(event.createdAt);
        if (at < oldest || at < range.from || at >= range.to) return false;
        if (params['eventType'] !== undefined && event.eventType !== params['eventType']) return false;
        return params['deliveryStatus'] === undefined || event.delivery.status === params['deliveryStatus'];
      });
    return {code: 'SUCCESS', data: {events: this.paginate(events, params), pagination: this.pagination(events.length, params)}};
  }

  private redeliverEvent(state: MerchantState, notificationId: string): Reply {
    const record = state.events.get(notificationId);
    if (!record || Date.parse(record.event.createdAt) < this.clock.now() - this.spec.delivery.eventRetentionDays * 86400 * msPerSecond) return reject('EVENT_NOT_FOUND', `No event ${notificationId} exists in the last ${this.spec.delivery.eventRetentionDays} days.`);
    const url = this.routeEvent(state, record.event.eventType, record.source);
    if (!url) return reject('NOTIFY_URL_MISSING', `Event ${notificationId} has no notification URL to deliver to: set a default notification URL first.`);
    record.event['notifyUrl'] = url;
    if (record.event.delivery.status === 'NO_URL') record.event.delivery.status = 'PENDING';
    this.touch(state, 'event', notificationId);
    this.schedule({at: this.clock.now(), clientId: state.merchant.clientId, kind: 'event.deliver', ref: notificationId, data: {trigger: 'REDELIVER'}});
    return {code: 'SUCCESS', data: record.event};
  }

  /** The URL an event goes to, by the contract's routing rules. */
  private routeEvent(state: MerchantState, eventType: string, source: EventRecord['source']): string | undefined {
    if (source.notifyUrl) return source.notifyUrl;
    const rule = this.spec.delivery.routing.find((candidate) => candidate.prefixes.some((prefix) => eventType.startsWith(prefix)));
    const urls: Record<NotifySource, string | undefined> = {
      order: source.order ? state.orders.get(source.order)?.notifyUrl : undefined,
      refund: source.refund ? (state.refunds.get(source.refund)?.refund['notifyUrl'] as string | undefined) : undefined,
      payout: source.payout ? state.payouts.get(source.payout)?.notifyUrl : undefined,
      agreement: source.agreement ? state.agreements.get(source.agreement)?.notifyUrl : undefined,
      default: state.merchant.defaultNotifyUrl ?? undefined,
    };
    for (const from of rule?.sources ?? ['default']) {
      const url = urls[from];
      if (url) return url;
    }
    return undefined;
  }

  /** Raises a notification: an event in the list, and its first delivery attempt, now. */
  private emit(state: MerchantState, eventType: string, data: JsonObject, source: EventRecord['source'], notificationId = randomId('ntf_', 20)): EventRecord {
    const createdAt = isoSeconds(this.clock.now());
    const url = this.routeEvent(state, eventType, source);
    const record: EventRecord = {
      event: {
        notificationId,
        eventType,
        createdAt,
        ...(url ? {notifyUrl: url} : {}),
        delivery: {status: url ? 'PENDING' : 'NO_URL', attempts: 0},
        notification: {notificationId, eventType, createdAt, data: copyJson(data)},
      },
      source,
      scheduledAttempts: 0,
      log: [],
    };
    this.put(state, 'event', notificationId, record);
    if (url) this.schedule({at: this.clock.now(), clientId: state.merchant.clientId, kind: 'event.deliver', ref: notificationId, data: {trigger: 'SCHEDULE'}});
    return record;
  }

  /** Signs and sends one delivery attempt, and records its result and the next attempt. */
  private async deliver(state: MerchantState, record: EventRecord, trigger: 'SCHEDULE' | 'REDELIVER'): Promise<void> {
    const url = record.event['notifyUrl'];
    if (typeof url !== 'string') return;
    const body = JSON.stringify(record.event['notification']);
    const timestamp = isoSeconds(this.clock.now());
    const nonce = randomNonce();
    let target: string;
    try {
      const parsed = new URL(url);
      target = `${parsed.pathname}${parsed.search}`;
    } catch {
      target = '/';
    }
    const canonical = canonicalString({method: 'POST', pathWithQuery: target, clientId: state.merchant.clientId, timestamp, nonce, body});
    const signature = await signCanonical(canonical, this.providerPrivateKey);
    const headers = {
      'Content-Type': 'application/json',
      'X-Client-Id': state.merchant.clientId,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: this.providerKeyVersion, signature}),
    };
    const result = this.transport ? await this.transport.deliver({url, headers, body, timeoutSeconds: this.spec.delivery.timeoutSeconds}) : {error: 'no transport: the host delivers nothing'};
    const acknowledged = isAcknowledgement(result);
    const at = isoSeconds(this.clock.now());
    const attempt = {at, acknowledged, trigger, ...('status' in result ? {httpStatus: result.status} : {}), ...(acknowledged ? {} : {error: 'error' in result ? result.error : `HTTP ${result.status} without {"code":"SUCCESS"}`})};
    record.log.push(attempt);
    const delivery = record.event.delivery;
    delivery.attempts += 1;
    delivery['lastAttemptAt'] = at;
    if ('status' in result) delivery['lastHttpStatus'] = result.status;
    if (trigger === 'SCHEDULE') record.scheduledAttempts += 1;
    if (acknowledged) {
      delivery.status = 'DELIVERED';
      delete delivery['nextAttemptAt'];
    } else if (trigger === 'SCHEDULE') {
      const schedule = state.merchant.compressedRetries ? this.spec.sandbox.notifications.compressedRetryScheduleSeconds : this.spec.delivery.retryScheduleSeconds;
      const wait = schedule[record.scheduledAttempts - 1];
      if (wait === undefined) {
        delivery.status = 'FAILED';
        delete delivery['nextAttemptAt'];
      } else {
        const next = this.clock.now() + wait * msPerSecond;
        delivery['nextAttemptAt'] = isoSeconds(next);
        this.schedule({at: next, clientId: state.merchant.clientId, kind: 'event.deliver', ref: record.event.notificationId, data: {trigger: 'SCHEDULE'}});
      }
    } else if (delivery.status === 'DELIVERED') {
      // A failed extra attempt does not undo an earlier acknowledgement.
    } else if (delivery['nextAttemptAt'] === undefined) {
      delivery.status = 'FAILED';
    }
    this.touch(state, 'event', record.event.notificationId);
    this.deliveryLog.push({
      clientId: state.merchant.clientId,
      notificationId: record.event.notificationId,
      eventType: record.event.eventType,
      url,
      at,
      acknowledged,
      ...(attempt.httpStatus !== undefined ? {httpStatus: attempt.httpStatus} : {}),
      ...(attempt.error !== undefined ? {error: attempt.error} : {}),
    });
    if (this.deliveryLog.length > 10_000) this.deliveryLog.splice(0, this.deliveryLog.length - 10_000);
  }

  // -- Agreements and wallet auth --

  private agreement(state: MerchantState, merchantAgreementNo: string): AgreementRecord {
    const record = state.agreements.get(merchantAgreementNo);
    if (!record) return reject('AGREEMENT_NOT_FOUND', `No agreement ${merchantAgreementNo} exists, yet, for ${state.merchant.clientId}.`);
    return record;
  }

  private createAgreement(state: MerchantState, body: JsonObject, requestKey: string): Reply {
    const merchantAgreementNo = String(body['merchantAgreementNo']);
    const existing = state.agreements.get(merchantAgreementNo);
    if (existing) {
      if (existing.requestKey !== requestKey) reject('IDEMPOTENCY_CONFLICT', `Agreement ${String(body['merchantAgreementNo'])} was requested with a different body.`);
      return {code: 'SUCCESS', data: existing.agreement, headers: {'Idempotent-Replayed': 'true'}};
    }
    const now = this.clock.now();
    const agreementId = randomId('agr_', 16);
    const expires = now + 30 * 60 * msPerSecond;
    const record: AgreementRecord = {
      requestKey,
      ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
      agreement: {
        merchantAgreementNo,
        agreementId,
        status: 'PENDING_AUTHORIZATION',
        description: String(body['description']),
        authorizationUrl: `https://${this.hosts.cashier}/agreements/${agreementId}?state=${randomToken(16)}`,
        authorizationExpiresAt: isoSeconds(expires),
        createdAt: isoSeconds(now),
        updatedAt: isoSeconds(now),
        version: 1,
      },
    };
    this.put(state, 'agreement', merchantAgreementNo, record);
    this.schedule({at: expires, clientId: state.merchant.clientId, kind: 'agreement.expire', ref: merchantAgreementNo});
    return {code: 'SUCCESS', data: record.agreement};
  }

  private setAgreementStatus(state: MerchantState, record: AgreementRecord, to: string, changes: JsonObject): void {
    this.transition('AgreementStatus', record.agreement.status, to);
    Object.assign(record.agreement, changes, {status: to});
    recordChange(record.agreement, this.clock.now());
    this.touch(state, 'agreement', record.agreement.merchantAgreementNo);
  }

  private cancelAgreement(state: MerchantState, merchantAgreementNo: string, by: 'MERCHANT' | 'PAYER'): Reply {
    const record = this.agreement(state, merchantAgreementNo);
    if (record.agreement.status === 'ACTIVE' || record.agreement.status === 'PENDING_AUTHORIZATION') {
      this.setAgreementStatus(state, record, 'CANCELLED', {cancelledAt: isoSeconds(this.clock.now()), cancelledBy: by});
      this.emit(state, 'AGREEMENT.CANCELLED', record.agreement, {agreement: merchantAgreementNo});
    }
    return {code: 'SUCCESS', data: record.agreement};
  }

  private exchangeAuthCode(state: MerchantState, authCode: string): Reply {
    const data = this.spec.sandbox;
    const fixed = data.walletAuthCodes.codes.find((entry) => entry.code === authCode);
    if (fixed) return {code: 'SUCCESS', data: {payerWalletUserId: fixed.userId, scope: 'USER_ID', issuedAt: isoSeconds(this.clock.now())}};
    const issued = state.authCodes.get(authCode);
    if (!issued || issued.used || this.clock.now() - issued.issuedAt > 5 * 60 * msPerSecond) return reject(data.walletAuthCodes.unknown.resultCode ?? 'AUTH_CODE_INVALID', 'The authorization code is unknown, used already or older than 5 minutes.');
    issued.used = true;
    this.touch(state, 'authCode', authCode);
    const userId = data.walletAuthCodes.codes.find((entry) => entry.wallet === issued.wallet)?.userId ?? 'wu_Sandbox000';
    return {code: 'SUCCESS', data: {payerWalletUserId: userId, scope: 'USER_ID', issuedAt: isoSeconds(issued.issuedAt)}};
  }

  // ---- Jobs: time moves on --------------------------------------------------------------------------

  /** Runs every job due by now (the server calls it on a timer). */
  async runDue(): Promise<number> {
    let ran = 0;
    for (let job = this.jobs.peek(); job && job.at <= this.clock.now(); job = this.jobs.peek()) {
      this.jobs.pop();
      this.changes.touch(engineKey('job', job.id), () => undefined);
      if (job.kind === 'event.deliver') {
        // In real time a delivery is not awaited here: one slow receiver must not hold up the other
        // merchants' notifications, nor the jobs behind it. Its result is committed when it comes.
        const delivery = this.runJob(job).then(() => this.commit());
        this.inFlight.add(delivery);
        this.inFlightByEvent.set(job.ref, delivery);
        void delivery.finally(() => {
          this.inFlight.delete(delivery);
          if (this.inFlightByEvent.get(job.ref) === delivery) this.inFlightByEvent.delete(job.ref);
        });
      } else {
        await this.runJob(job);
      }
      ran += 1;
    }
    if (ran > 0) await this.commit();
    return ran;
  }

  /** Deliveries runDue started and that have not answered yet. */
  private readonly inFlight = new Set<Promise<void>>();
  /** The same, by the notificationId they deliver. */
  private readonly inFlightByEvent = new Map<string, Promise<void>>();

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
    const target = this.clock.now() + seconds * msPerSecond;
    let ran = 0;
    for (let job = this.jobs.peek(); job && job.at <= target; job = this.jobs.peek()) {
      this.jobs.pop();
      this.clock.advanceTo(job.at);
      this.changes.touch(engineKey('job', job.id), () => undefined);
      await this.runJob(job);
      ran += 1;
    }
    this.clock.advanceTo(target);
    await this.commit();
    return ran;
  }

  /** When the next job is due, if any: the server sleeps until then. */
  nextJobAt(): number | undefined {
    return this.jobs.peek()?.at;
  }

  private async runJob(job: JobRecord): Promise<void> {
    const state = this.merchantOf(job.clientId);
    if (!state) return;
    try {
      switch (job.kind) {
        case 'attempt.resolve':
          return this.resolveAttempt(state, job);
        case 'order.expire':
          return this.expireOrder(state, job);
        case 'refund.complete':
          return this.completeRefund(state, job);
        case 'payout.complete':
          return this.completePayout(state, job);
        case 'bank.return':
          return this.returnBankTransfer(state, job);
        case 'event.deliver': {
          const record = state.events.get(job.ref);
          if (record) await this.deliver(state, record, job.data?.['trigger'] === 'REDELIVER' ? 'REDELIVER' : 'SCHEDULE');
          return;
        }
        case 'vam.credit':
          return this.creditVam(state, job);
        case 'agreement.expire': {
          const record = state.agreements.get(job.ref);
          if (record?.agreement.status === 'PENDING_AUTHORIZATION') this.setAgreementStatus(state, record, 'EXPIRED', {});
          return;
        }
      }
    } catch (error) {
      // A job that finds its object in an unexpected state does nothing: the state machine guards it.
      if (!(error instanceof Rejected)) throw error;
    }
  }

  private resolveAttempt(state: MerchantState, job: JobRecord): void {
    const record = state.orders.get(job.ref);
    if (!record || record.order.status !== 'PROCESSING') return;
    const method = String(job.data?.['method'] ?? 'WALLET');
    const final = String(job.data?.['finalStatus'] ?? 'PAID');
    if (final === 'PAID') {
      this.markPaid(state, record, method);
      return;
    }
    const now = this.clock.now();
    const failureCode = String(job.data?.['failureCode'] ?? 'PAYMENT_TIMEOUT');
    const lastAttempt = {status: 'FAILED', paymentMethod: method, failureCode, failureReason: 'The payment attempt was not confirmed.', at: isoSeconds(now)};
    // Before the expiry time the customer may try again; at or after it the order closes (PROCESSING to CLOSED).
    const expired = now >= Date.parse(record.order.expiresAt);
    this.setOrderStatus(state, record, expired ? 'CLOSED' : 'PENDING', expired ? {lastAttempt, closedAt: isoSeconds(now), closeReason: 'EXPIRED'} : {lastAttempt});
    this.emit(state, 'ORDER.PAYMENT_FAILED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
    if (expired) this.emit(state, 'ORDER.CLOSED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
  }

  private expireOrder(state: MerchantState, job: JobRecord): void {
    const record = state.orders.get(job.ref);
    if (!record || record.order.expiresAt !== job.data?.['expiresAt']) return;
    if (record.order.status === 'PENDING') this.closeOrder(state, record, 'EXPIRED');
  }

  private completeRefund(state: MerchantState, job: JobRecord): void {
    const refund = state.refunds.get(job.ref);
    if (!refund || refund.refund.status !== 'PROCESSING') return;
    const order = state.orders.get(refund.refund.merchantOrderNo);
    if (!order) return;
    const status = String(job.data?.['status'] ?? 'SUCCEEDED');
    const now = this.clock.now();
    const amount = refund.refund.amount;
    this.transition('RefundStatus', 'PROCESSING', status);
    Object.assign(refund.refund, {status, completedAt: isoSeconds(now)});
    recordChange(refund.refund, now);
    if (status === 'SUCCEEDED') {
      this.post(state, {
        currency: amount.currency,
        legs: {frozen: -amount.value},
        row: {
          transactionType: 'REFUND',
          merchantReference: String(refund.refund['merchantRefundNo'] ?? ''),
          providerReference: refund.refund.refundId,
          relatedOrderNo: order.order.merchantOrderNo,
          gross: -amount.value,
          fee: 0,
          status: 'SUCCEEDED',
          paymentMethod: String(order.order['paymentMethod'] ?? ''),
          createdAt: String(refund.refund['createdAt']),
          completedAt: isoSeconds(now),
          storeId: order.storeId ?? '',
        },
        memo: `refund ${refund.refund.refundId}`,
      });
    } else {
      const failureCode = String(job.data?.['failureCode'] ?? 'PAYEE_ACCOUNT_INVALID');
      Object.assign(refund.refund, {failureCode, failureReason: "The payer's account cannot receive the refund (sandbox)."});
      this.post(state, {currency: amount.currency, legs: {frozen: -amount.value, available: amount.value}, memo: `refund ${refund.refund.refundId} failed: reservation released`});
    }
    this.touch(state, 'refund', refund.refund.refundId);
    this.refreshOrderAmounts(state, order, (refunded) => (status !== 'SUCCEEDED' ? order.order.status : refunded >= order.order.amount.value ? 'REFUNDED' : 'PARTIALLY_REFUNDED'));
    this.emit(state, status === 'SUCCEEDED' ? 'REFUND.SUCCEEDED' : 'REFUND.FAILED', refund.refund, {order: order.order.merchantOrderNo, refund: refund.refund.refundId});
  }

  private completePayout(state: MerchantState, job: JobRecord): void {
    const record = state.payouts.get(job.ref);
    if (!record || record.payout.status !== 'PROCESSING') return;
    const status = String(job.data?.['status'] ?? 'SUCCEEDED');
    const machine = record.kind === 'WALLET' ? 'TransferStatus' : record.kind === 'BANK' ? 'BankTransferStatus' : 'CardPayoutStatus';
    this.transition(machine, 'PROCESSING', status);
    const now = this.clock.now();
    const {amount, fee} = record.payout;
    Object.assign(record.payout, {status, completedAt: isoSeconds(now)});
    recordChange(record.payout, now);
    const product = record.kind === 'WALLET' ? 'TRANSFER' : record.kind === 'BANK' ? 'BANK_TRANSFER' : 'CARD_PAYOUT';
    if (status === 'SUCCEEDED') {
      this.post(state, {
        currency: amount.currency,
        legs: {frozen: -(amount.value + fee.value)},
        row: {
          transactionType: product,
          merchantReference: record.payout.merchantTransferNo,
          providerReference: record.payout.transferId,
          relatedOrderNo: '',
          gross: -amount.value,
          fee: -fee.value,
          status: 'SUCCEEDED',
          paymentMethod: '',
          createdAt: String(record.payout['createdAt']),
          completedAt: isoSeconds(now),
          storeId: '',
        },
        memo: `payout ${record.payout.merchantTransferNo}`,
      });
      const returnedAfter = job.data?.['returnedAfterSeconds'];
      if (typeof returnedAfter === 'number') {
        this.schedule({at: now + returnedAfter * msPerSecond, clientId: state.merchant.clientId, kind: 'bank.return', ref: record.payout.merchantTransferNo, data: {failureCode: job.data?.['returnFailureCode'] ?? 'PAYEE_ACCOUNT_INVALID'}});
      }
    } else {
      const failureCode = String(job.data?.['failureCode'] ?? 'PAYEE_ACCOUNT_INVALID');
      Object.assign(record.payout, {failureCode, failureReason: `The payout failed in the sandbox (${failureCode}).`});
      this.post(state, {currency: amount.currency, legs: {frozen: -(amount.value + fee.value), available: amount.value + fee.value}, memo: `payout ${record.payout.merchantTransferNo} failed: reservation released`});
    }
    this.touch(state, 'payout', record.payout.merchantTransferNo);
    this.emit(state, `${product}.${status}`, record.payout, {payout: record.payout.merchantTransferNo});
  }

  private returnBankTransfer(state: MerchantState, job: JobRecord): void {
    const record = state.payouts.get(job.ref);
    if (!record || record.kind !== 'BANK' || record.payout.status !== 'SUCCEEDED') return;
    this.transition('BankTransferStatus', 'SUCCEEDED', 'RETURNED');
    const now = this.clock.now();
    const failureCode = String(job.data?.['failureCode'] ?? 'PAYEE_ACCOUNT_INVALID');
    Object.assign(record.payout, {status: 'RETURNED', returnedAt: isoSeconds(now), failureCode, failureReason: 'The receiving bank returned the funds (sandbox).'});
    recordChange(record.payout, now);
    const amount = record.payout.amount;
    this.post(state, {
      currency: amount.currency,
      legs: {available: amount.value},
      row: {
        transactionType: 'BANK_TRANSFER_RETURN',
        merchantReference: record.payout.merchantTransferNo,
        providerReference: record.payout.transferId,
        relatedOrderNo: '',
        gross: amount.value,
        fee: 0,
        status: 'RETURNED',
        paymentMethod: '',
        createdAt: String(record.payout['createdAt']),
        completedAt: isoSeconds(now),
        storeId: '',
      },
      memo: `bank transfer ${record.payout.merchantTransferNo} returned`,
    });
    this.touch(state, 'payout', record.payout.merchantTransferNo);
    this.emit(state, 'BANK_TRANSFER.RETURNED', record.payout, {payout: record.payout.merchantTransferNo});
  }

  private creditVam(state: MerchantState, job: JobRecord): void {
    const data = job.data as JsonObject;
    const topUp = data['topUp'] as JsonObject & {amount: Money};
    const now = this.clock.now();
    // A bank transfer into a virtual account is settled money: available on arrival (issue 29, I-8), unless the data says pending.
    const settled = this.spec.sandbox.virtualAccounts.creditedTo === 'available';
    this.post(state, {
      currency: topUp.amount.currency,
      legs: settled ? {available: topUp.amount.value} : {pending: topUp.amount.value},
      availableOn: utcDay(settled ? now : now + this.spec.sandbox.pricing.settlementDays * 86400 * msPerSecond),
      row: {
        transactionType: 'VAM_TOP_UP',
        merchantReference: '',
        providerReference: String(topUp['bankReference']),
        relatedOrderNo: '',
        gross: topUp.amount.value,
        fee: 0,
        status: 'SUCCEEDED',
        paymentMethod: '',
        createdAt: isoSeconds(now),
        completedAt: isoSeconds(now),
        storeId: '',
      },
      memo: `top-up of ${String(topUp['virtualAccountId'])}`,
    });
    this.emit(state, 'VAM.TOP_UP', topUp, {});
  }

  // ---- Shopper: what customers, payees and banks do ------------------------------------------------

  /** Wraps a shopper or control action: a rejection becomes {ok: false}; changes are committed. */
  private async act<T>(clientId: string, action: (state: MerchantState) => T): Promise<ActionResult<T>> {
    const state = this.merchantOf(clientId);
    if (!state) return {ok: false, code: 'UNKNOWN_CLIENT', message: `No sandbox merchant ${clientId}.`};
    try {
      const value = action(state);
      await this.commit();
      return {ok: true, value};
    } catch (error) {
      this.changes.drain();
      if (error instanceof Rejected) return {ok: false, code: error.code, message: error.message};
      throw error;
    }
  }

  readonly shopper = {
    /** The customer pays a PENDING order in the cashier, the SDK or the wallet. */
    pay: (clientId: string, merchantOrderNo: string, choice: PaymentMethodChoice) =>
      this.act(clientId, (state) => {
        const data = this.spec.sandbox;
        const record = this.order(state, merchantOrderNo);
        if (record.order.status !== 'PENDING') reject(record.order.status === 'CLOSED' ? 'ORDER_CLOSED' : record.order.status === 'PROCESSING' ? 'ORDER_PROCESSING' : 'ORDER_ALREADY_PAID', `Order ${record.order.merchantOrderNo} is ${record.order.status}: only a PENDING order can be paid.`);
        const scene = data.payments.scenes.find((candidate) => candidate.scene === record.order['scene']);
        if (!scene || scene.attempt !== 'PAYER') reject('INVALID_PARAMETER', `${String(record.order['scene'])} orders are paid inside Create order, not by the shopper.`);
        if (!scene?.methods.includes(choice.method)) reject('INVALID_PARAMETER', `${String(record.order['scene'])} takes ${scene?.methods.join(', ') ?? 'nothing'}, not ${choice.method}.`);
        if (this.clock.now() >= Date.parse(record.order.expiresAt)) reject('ORDER_CLOSED', 'The order has expired.');
        let wallet: Wallet | undefined;
        if (choice.method === 'WALLET') {
          wallet = findWallet(data, {phone: choice.phone});
          if (!wallet) reject('INVALID_PARAMETER', `${choice.phone} is not a sandbox wallet.`);
          if (wallet && wallet.pin !== choice.pin) {
            this.startAttempt(state, record, {kind: 'DECLINED', orderStatus: 'PENDING', finalOrderStatus: 'PENDING', attemptStatus: 'FAILED', failureCode: data.walletRules.payments.wrongPin.failureCode ?? 'PAYER_DECLINED', processingSeconds: 0, events: [], because: 'wrong PIN'}, 'WALLET', wallet);
            return this.orderView(record);
          }
        }
        if (choice.method === 'CARD' && !findPaymentCard(data, choice.cardNumber)) reject('INVALID_PARAMETER', `${choice.cardNumber} is not a sandbox card; the cashier refuses it.`);
        const card = choice.method === 'CARD' ? findPaymentCard(data, choice.cardNumber) : undefined;
        const attempt = paymentAttemptOutcome(data, {amount: record.order.amount, method: choice.method, attempt: 'PAYER', ...(wallet ? {wallet} : {}), ...(card ? {card} : {})});
        this.startAttempt(state, record, attempt, choice.method, wallet, choice.method === 'CARD' ? choice.cardNumber : undefined);
        return this.orderView(record);
      }),

    /** A store cashier records cash for a CASH_TOP_UP order by its payment reference. */
    payCash: (clientId: string, paymentReference: string) =>
      this.act(clientId, (state) => {
        const record = [...state.orders.values()].find((candidate) => candidate.paymentReference === paymentReference);
        if (!record) return reject('ORDER_NOT_FOUND', `No cash order has the payment reference ${paymentReference}.`);
        return this.shopperPayNow(state, record, {method: 'CASH'});
      }),

    /** The customer scans a DYNAMIC_QR code and confirms in the wallet. */
    scan: (clientId: string, qrContent: string, wallet: {phone: string; pin: string}) =>
      this.act(clientId, (state) => {
        const record = [...state.orders.values()].find((candidate) => candidate.nextAction['qrContent'] === qrContent);
        if (!record) return reject('ORDER_NOT_FOUND', 'No order shows this QR code.');
        if (typeof record.nextAction['qrExpiresAt'] === 'string' && this.clock.now() > Date.parse(record.nextAction['qrExpiresAt'])) reject('ORDER_CLOSED', 'The QR code has expired.');
        return this.shopperPayNow(state, record, {method: 'WALLET', ...wallet});
      }),

    /** The customer closes the cashier without paying: nothing changes; the order expires in time. */
    abandon: (clientId: string, merchantOrderNo: string) => this.act(clientId, (state) => this.orderView(this.order(state, merchantOrderNo))),

    /** The customer approves (or declines) a direct pay agreement at its authorizationUrl. */
    authorizeAgreement: (clientId: string, merchantAgreementNo: string, wallet: string, approve = true) =>
      this.act(clientId, (state) => {
        const record = this.agreement(state, merchantAgreementNo);
        if (record.agreement.status !== 'PENDING_AUTHORIZATION') reject('INVALID_PARAMETER', `Agreement ${merchantAgreementNo} is ${record.agreement.status}.`);
        if (!findWallet(this.spec.sandbox, {phone: wallet})) reject('INVALID_PARAMETER', `${wallet} is not a sandbox wallet.`);
        if (!approve) {
          this.setAgreementStatus(state, record, 'CANCELLED', {cancelledAt: isoSeconds(this.clock.now()), cancelledBy: 'PAYER'});
          this.emit(state, 'AGREEMENT.CANCELLED', record.agreement, {agreement: merchantAgreementNo});
          return record.agreement;
        }
        const token = `agt_${randomToken(24)}`;
        record.wallet = wallet;
        this.setAgreementStatus(state, record, 'ACTIVE', {payerAgreementToken: token, authorizedAt: isoSeconds(this.clock.now())});
        delete record.agreement['authorizationUrl'];
        this.put(state, 'token', token, merchantAgreementNo);
        this.emit(state, 'AGREEMENT.AUTHORIZED', record.agreement, {agreement: merchantAgreementNo});
        return record.agreement;
      }),

    /** The customer ends an active agreement in the wallet. */
    cancelAgreementInWallet: (clientId: string, merchantAgreementNo: string) => this.act(clientId, (state) => this.cancelAgreement(state, merchantAgreementNo, 'PAYER').data as Json),

    /** A page inside the wallet asks the bridge for a one-time auth code for the signed-in wallet user. */
    getAuthCode: (clientId: string, wallet: string) =>
      this.act(clientId, (state) => {
        if (!findWallet(this.spec.sandbox, {phone: wallet})) reject('INVALID_PARAMETER', `${wallet} is not a sandbox wallet.`);
        const code = `wac_${randomToken(20)}`;
        this.put(state, 'authCode', code, {wallet, issuedAt: this.clock.now(), used: false});
        return code;
      }),
  };

  private shopperPayNow(state: MerchantState, record: OrderRecord, choice: PaymentMethodChoice): Json {
    const data = this.spec.sandbox;
    if (record.order.status !== 'PENDING') reject(record.order.status === 'CLOSED' ? 'ORDER_CLOSED' : 'ORDER_ALREADY_PAID', `Order ${record.order.merchantOrderNo} is ${record.order.status}: only a PENDING order can be paid.`);
    const wallet = choice.method === 'WALLET' ? findWallet(data, {phone: choice.phone}) : undefined;
    if (choice.method === 'WALLET' && !wallet) reject('INVALID_PARAMETER', `${choice.phone} is not a sandbox wallet.`);
    const attempt = paymentAttemptOutcome(data, {amount: record.order.amount, method: choice.method, attempt: 'PAYER', ...(wallet ? {wallet} : {})});
    this.startAttempt(state, record, attempt, choice.method, wallet);
    return this.orderView(record);
  }

  // ---- Control: the sandbox's own tools --------------------------------------------------------------

  readonly control = {
    /** Registers a merchant with the reader's own public key, so nobody shares their state. */
    registerMerchant: async (input: {clientId?: string; publicKeyPem: string; keyVersion?: number; defaultNotifyUrl?: string | null}): Promise<ActionResult<{clientId: string}>> => {
      const clientId = input.clientId ?? `sandbox-${randomToken(12).toLowerCase()}`;
      if (!/^[a-z0-9-]{4,40}$/.test(clientId)) return {ok: false, code: 'INVALID_PARAMETER', message: 'clientId must be 4 to 40 lower-case letters, digits or hyphens.'};
      if (this.merchants.has(clientId)) return {ok: false, code: 'IDEMPOTENCY_CONFLICT', message: `${clientId} is taken.`};
      const keyVersion = input.keyVersion ?? 1;
      if (!Number.isInteger(keyVersion) || keyVersion < 1) return {ok: false, code: 'INVALID_PARAMETER', message: 'keyVersion must be a positive integer.'};
      try {
        await importPublicKey(input.publicKeyPem);
      } catch (error) {
        return {ok: false, code: 'INVALID_PARAMETER', message: `publicKeyPem: ${(error as Error).message}`};
      }
      if (input.defaultNotifyUrl !== undefined && input.defaultNotifyUrl !== null && !/^https?:\/\//.test(input.defaultNotifyUrl)) {
        return {ok: false, code: 'INVALID_PARAMETER', message: 'defaultNotifyUrl must be an http or https URL.'};
      }
      this.addMerchant({clientId, keys: {[String(keyVersion)]: input.publicKeyPem}, defaultNotifyUrl: input.defaultNotifyUrl ?? null, compressedRetries: false, createdAt: this.clock.now()});
      await this.commit();
      return {ok: true, value: {clientId}};
    },

    /** Adds a key version to a merchant (key rotation). */
    addKey: async (clientId: string, keyVersion: number, publicKeyPem: string): Promise<ActionResult<{keyVersion: number}>> => {
      try {
        await importPublicKey(publicKeyPem);
      } catch (error) {
        return {ok: false, code: 'INVALID_PARAMETER', message: `publicKeyPem: ${(error as Error).message}`};
      }
      return this.act(clientId, (state) => {
        if (!Number.isInteger(keyVersion) || keyVersion < 1) reject('INVALID_PARAMETER', 'keyVersion must be a positive integer.');
        state.merchant.keys[String(keyVersion)] = publicKeyPem;
        this.saveMerchant(state);
        return {keyVersion};
      });
    },

    /** Sets the merchant's default notification URL (null removes it) and the compressed retry schedule. */
    configure: (clientId: string, settings: {defaultNotifyUrl?: string | null; compressedRetries?: boolean}) =>
      this.act(clientId, (state) => {
        if (settings.defaultNotifyUrl !== undefined) {
          if (settings.defaultNotifyUrl !== null && !/^https?:\/\/[^\s]+$/.test(settings.defaultNotifyUrl)) reject('INVALID_PARAMETER', 'defaultNotifyUrl must be an http or https URL.');
          state.merchant.defaultNotifyUrl = settings.defaultNotifyUrl;
        }
        if (settings.compressedRetries !== undefined) state.merchant.compressedRetries = settings.compressedRetries;
        this.saveMerchant(state);
        return {defaultNotifyUrl: state.merchant.defaultNotifyUrl, compressedRetries: state.merchant.compressedRetries};
      }),

    /** Opens a chargeback on a paid order (Test tools, Simulate chargeback). */
    openChargeback: (clientId: string, merchantOrderNo: string, reasonCode = 'FRAUD', amount?: number) =>
      this.act(clientId, (state) => {
        const data = this.spec.sandbox.chargebacks;
        const record = this.order(state, merchantOrderNo);
        if (!['PAID', 'PARTIALLY_REFUNDED'].includes(record.order.status)) reject('ORDER_NOT_PAID', 'A chargeback needs an order in PAID or PARTIALLY_REFUNDED.');
        if (this.openChargeback(state, merchantOrderNo)) reject('ORDER_DISPUTED', 'The order already has an open chargeback.');
        if (!data.reasonCodes.includes(reasonCode)) reject('INVALID_PARAMETER', `reasonCode must be one of ${data.reasonCodes.join(', ')}.`);
        const refundable = (record.order['refundableAmount'] as unknown as Money).value;
        const value = amount ?? refundable;
        if (!Number.isInteger(value) || value < 1 || value > refundable) reject('INVALID_PARAMETER', `The chargeback amount must be 1 to ${refundable}.`);
        const now = this.clock.now();
        const chargebackId = randomId('cbk_', 16);
        const chargeback = {
          chargebackId,
          merchantOrderNo,
          amount: money(value, record.order.amount.currency),
          reasonCode,
          status: 'OPEN',
          openedAt: isoSeconds(now),
          evidenceDueAt: isoSeconds(now + data.evidenceDueSeconds * msPerSecond),
          version: 1,
        };
        this.put(state, 'chargeback', chargebackId, {chargeback});
        this.post(state, {currency: chargeback.amount.currency, legs: {available: -value, frozen: value}, memo: `chargeback ${chargebackId} opened: amount frozen`});
        this.refreshOrderAmounts(state, record);
        this.emit(state, 'CHARGEBACK.OPENED', chargeback, {order: merchantOrderNo});
        return chargeback as unknown as Json;
      }),

    /** Decides an open chargeback: WON releases the frozen amount, LOST debits it. */
    resolveChargeback: (clientId: string, chargebackId: string, resolution: 'WON' | 'LOST') =>
      this.act(clientId, (state) => {
        const record = state.chargebacks.get(chargebackId);
        if (!record) return reject('INVALID_PARAMETER', `No chargeback ${chargebackId}.`);
        if (record.chargeback.status !== 'OPEN') reject('INVALID_PARAMETER', `Chargeback ${chargebackId} is already ${record.chargeback.status}.`);
        const now = this.clock.now();
        const {amount} = record.chargeback;
        Object.assign(record.chargeback, {status: resolution, resolvedAt: isoSeconds(now)});
        recordChange(record.chargeback, now);
        if (resolution === 'WON') {
          this.post(state, {currency: amount.currency, legs: {frozen: -amount.value, available: amount.value}, memo: `chargeback ${chargebackId} won: amount released`});
        } else {
          this.post(state, {
            currency: amount.currency,
            legs: {frozen: -amount.value},
            row: {
              transactionType: 'CHARGEBACK',
              merchantReference: '',
              providerReference: chargebackId,
              relatedOrderNo: record.chargeback.merchantOrderNo,
              gross: -amount.value,
              fee: 0,
              status: 'LOST',
              paymentMethod: '',
              createdAt: String(record.chargeback['openedAt']),
              completedAt: isoSeconds(now),
              storeId: '',
            },
            memo: `chargeback ${chargebackId} lost`,
          });
        }
        this.touch(state, 'chargeback', chargebackId);
        const order = state.orders.get(record.chargeback.merchantOrderNo);
        if (order) this.refreshOrderAmounts(state, order);
        this.emit(state, `CHARGEBACK.${resolution}`, record.chargeback, {order: record.chargeback.merchantOrderNo});
        return record.chargeback as unknown as Json;
      }),

    /** A customer's bank transfer arrives on a virtual account; credited after creditSeconds. */
    topUpVirtualAccount: (clientId: string, iban: string, amount: number, payerName = 'Sandbox Payer') =>
      this.act(clientId, () => {
        const data = this.spec.sandbox.virtualAccounts;
        const account = data.accounts.find((candidate) => candidate.iban === iban);
        if (!account) return reject('INVALID_PARAMETER', `${iban} is not a sandbox virtual account.`);
        if (!Number.isInteger(amount) || amount < 1) reject('INVALID_PARAMETER', 'amount must be a positive integer in minor units.');
        const topUp = {
          virtualAccountNumber: account.iban,
          virtualAccountId: account.virtualAccountId,
          customerReference: account.customerReference,
          amount: money(amount, account.currency),
          payerName,
          payerBankName: 'Sandbox Bank',
          payerAccountMasked: '******0001',
          bankReference: `SBX${randomDigits(13)}`,
          // When it will be credited; the notification carries the same time.
          creditedAt: isoSeconds(this.clock.now() + data.creditSeconds * msPerSecond),
          version: 1, // a top-up never changes: its one notification carries version 1
        };
        this.schedule({at: this.clock.now() + data.creditSeconds * msPerSecond, clientId, kind: 'vam.credit', ref: topUp.bankReference, data: {topUp: topUp as unknown as Json}});
        return topUp as unknown as Json;
      }),

    /** Answers the next `count` calls (of one operation, or all) with SYSTEM_BUSY or INTERNAL_ERROR. */
    setFault: (fault: {resultCode: string; operationId?: string; count?: number}): ActionResult<Fault> => {
      if (!this.spec.sandbox.faults.codes.some((code) => code.resultCode === fault.resultCode)) {
        return {ok: false, code: 'INVALID_PARAMETER', message: `resultCode must be one of ${this.spec.sandbox.faults.codes.map((code) => code.resultCode).join(', ')}.`};
      }
      if (fault.operationId !== undefined && !this.spec.operations.some((operation) => operation.operationId === fault.operationId)) {
        return {ok: false, code: 'INVALID_PARAMETER', message: `${fault.operationId} is not an operation of the contract.`};
      }
      const count = fault.count ?? 1;
      if (!Number.isInteger(count) || count < 1 || count > 1000) return {ok: false, code: 'INVALID_PARAMETER', message: 'count must be 1 to 1000.'};
      const entry: Fault = {resultCode: fault.resultCode, ...(fault.operationId ? {operationId: fault.operationId} : {}), remaining: count};
      this.faults.push(entry);
      return {ok: true, value: entry};
    },

    /** Forgets everything and starts again with the test merchant, as after a fresh install. */
    reset: async (): Promise<void> => {
      // Deliveries under way first: one that fails schedules its retry, which is forgotten with the rest.
      await this.settle();
      this.forget();
      this.changes.drain();
      await this.commitChain;
      await this.store.clear();
      await this.load();
    },

    /**
     * Raises a notification of one of the contract's example scenarios (a webhook's named request example),
     * as the event it describes would: a fresh notificationId and createdAt, an event in List events, and its
     * first delivery attempt due now, signed and retried like any other. `data` replaces the example's and
     * must match the contract; the URL is `notifyUrl`, else the merchant's default one.
     */
    simulateNotification: (clientId: string, input: SimulateNotificationInput) =>
      this.act(clientId, (state): SimulatedNotification => {
        const webhook = this.spec.webhooks.find((candidate) => candidate.operationId === input.operationId || candidate.key === input.operationId);
        if (!webhook) return reject('INVALID_PARAMETER', `${String(input.operationId).slice(0, 60)} is not a notification of the contract; one of ${this.spec.webhooks.map((candidate) => candidate.operationId).join(', ')}.`);
        const scenario = webhook.scenarios.find((candidate) => candidate.name === input.scenario);
        if (!scenario) return reject('INVALID_PARAMETER', `${webhook.operationId} has no scenario "${String(input.scenario).slice(0, 60)}"; its scenarios are ${webhook.scenarios.map((candidate) => candidate.name).join(', ')}.`);
        const example = scenario.value as JsonObject;
        const eventType = String(example['eventType']);
        if (input.notifyUrl !== undefined && !isHttpUrl(input.notifyUrl)) reject('INVALID_PARAMETER', 'notifyUrl must be an http or https URL, such as https://shop.example.com/payments/notify.');
        const url = input.notifyUrl ?? state.merchant.defaultNotifyUrl ?? undefined;
        if (!url) return reject('NOTIFY_URL_MISSING', `${clientId} has no default notification URL: give notifyUrl, the URL of your endpoint, or set a default URL for the merchant first.`);
        const data = input.data === undefined ? example['data'] : input.data;
        if (!isObject(data)) return reject('INVALID_PARAMETER', 'data must be a JSON object: the notification\'s data member.');
        if (hasForbiddenMember(data)) reject('INVALID_PARAMETER', 'data must not have a member named __proto__.');
        const notificationId = randomId('ntf_', 20);
        const notification = {notificationId, eventType, createdAt: isoSeconds(this.clock.now()), data};
        const problems = this.validator.problems(webhook.bodySchemaPointer, notification);
        if (problems.length > 0) reject('INVALID_PARAMETER', `The notification does not match the contract: ${problems.join('; ')}.`);
        const record = this.emit(state, eventType, data, {notifyUrl: url}, notificationId);
        return {operationId: webhook.operationId, scenario: scenario.name, notificationId, eventType, notifyUrl: url, notification: record.event.notification as JsonObject};
      }),

    /** Every notification delivery attempt, newest last. */
    deliveries: (clientId?: string): readonly DeliveryLogEntry[] => this.deliveryLog.filter((entry) => clientId === undefined || entry.clientId === clientId),

    /** Delivers one event again now, like Redeliver event, without a signed request. */
    redeliver: (clientId: string, notificationId: string) => this.act(clientId, (state) => this.redeliverEvent(state, notificationId).data as Json),
  };

  /** Empties the working set: no merchants, jobs, faults, rate windows or delivery log (reset and import). */
  private forget(): void {
    this.merchants.clear();
    this.jobs.clear();
    this.jobSeq = 0;
    this.faults.length = 0;
    this.rateWindows.clear();
    this.deliveryLog.length = 0;
  }

  // ---- Export and import: the whole state as one document ---------------------------------------------

  /**
   * The whole state as a versioned JSON document: every record the store would hold (merchants, their
   * collections, jobs, the clock offset), copied, so the caller may keep or change it freely.
   */
  exportState(): SandboxStateDocument {
    const records: Array<[string, RecordValue]> = [];
    const copy = (value: unknown) => JSON.parse(JSON.stringify(value)) as RecordValue;
    for (const state of this.merchants.values()) records.push([engineKey('merchant', state.merchant.clientId), copy(state.merchant)]);
    for (const state of this.merchants.values()) {
      for (const collection of collections) {
        for (const [id, value] of state.map(collection)) records.push([recordKey(state.merchant.clientId, collection, id), copy(value)]);
      }
    }
    for (const job of this.jobs.values().sort((a, b) => a.seq - b.seq)) records.push([engineKey('job', job.id), copy(job)]);
    records.push([engineKey('clock', 'offset'), this.clock.offsetMs]);
    return {format: stateFormat, version: stateFormatVersion, contractVersion: this.spec.contractVersion, exportedAt: isoSeconds(this.clock.now()), records};
  }

  /**
   * Replaces the whole state with an exported one, as a reset followed by a load of its records. The document
   * is checked in full first: a malformed one is refused with a sentence naming the problem, and nothing
   * changes. The store takes the records in one step (`replace`) where it can. The clock only moves forward:
   * an export from an earlier time leaves it where it is.
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

  // ---- Reading state: the console and the tests ------------------------------------------------------

  merchantIds(): string[] {
    return [...this.merchants.keys()];
  }

  /** A merchant's settings and public keys (newest key version last), for the console; undefined when unknown. */
  merchant(clientId: string): MerchantView | undefined {
    const merchant = this.merchantOf(clientId)?.merchant;
    if (!merchant) return undefined;
    return {
      clientId: merchant.clientId,
      keys: Object.entries(merchant.keys)
        .map(([version, publicKeyPem]) => ({keyVersion: Number(version), publicKeyPem}))
        .sort((a, b) => a.keyVersion - b.keyVersion),
      defaultNotifyUrl: merchant.defaultNotifyUrl,
      compressedRetries: merchant.compressedRetries,
      createdAt: isoSeconds(merchant.createdAt),
    };
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
  snapshot(clientId: string): {orders: JsonObject[]; refunds: JsonObject[]; payouts: JsonObject[]; agreements: JsonObject[]; chargebacks: JsonObject[]; events: EventRecord[]} | undefined {
    const state = this.merchantOf(clientId);
    if (!state) return undefined;
    return {
      orders: [...state.orders.values()].map((record) => record.order),
      refunds: [...state.refunds.values()].map((record) => record.refund),
      payouts: [...state.payouts.values()].map((record) => record.payout),
      agreements: [...state.agreements.values()].map((record) => record.agreement),
      chargebacks: [...state.chargebacks.values()].map((record) => record.chargeback),
      events: [...state.events.values()],
    };
  }

  /** The provider key's version and PEM (public information: the test key is published). */
  get providerKey(): {keyVersion: number; privateKeyPem: string} {
    return {keyVersion: this.providerKeyVersion, privateKeyPem: this.providerPrivateKeyPem};
  }

  /** The order amount ending rule the sandbox applies (for console explanations). */
  static ending = amountEnding;
}

/** The last instant a YYYY-MM-DDTHH:MM:SSZ text can name. */
const lastSecondText = Date.parse('9999-12-31T23:59:59Z');

/**
 * An instant as YYYY-MM-DDTHH:MM:SSZ text, rounded up to a whole second, for comparing with record
 * timestamps as text: a record's whole-second time t is at or after the instant exactly when t is at or
 * after this text. Beyond the year 9999 it is "~", which sorts after every timestamp.
 */
function secondsText(ms: number): string {
  const seconds = Math.ceil(ms / msPerSecond) * msPerSecond;
  return seconds > lastSecondText ? '~' : isoSeconds(seconds);
}
