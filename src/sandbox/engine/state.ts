/**
 * The engine's records: the API objects exactly as the contract shapes them, plus what the engine
 * needs beside them (the body an idempotent number was accepted with, the payer, the ledger). Every
 * record is plain JSON, so a store can keep it as it is.
 */
import type {RecordChange, RecordValue} from './store';

export type Json = RecordValue;
export type JsonObject = {[key: string]: Json};

export interface Money {
  [key: string]: Json;
  value: number;
  currency: string;
}

export interface MerchantRecord {
  clientId: string;
  /** Public keys (SPKI PEM) by key version. */
  keys: {[version: string]: string};
  defaultNotifyUrl: string | null;
  /** The ten delivery attempts within 300 seconds instead of about 46 hours. */
  compressedRetries: boolean;
  createdAt: number;
  /** Hosted sandbox only: how far this merchant's own clock runs ahead of the sandbox clock (merchantClock.ts); absent is 0. */
  clockOffsetMs?: number;
}

/** How the payer paid, for Retrieve order payer and the statement. */
export interface PayerRecord {
  paymentMethod: string;
  maskedAccount: string;
  payerName?: string;
  country?: string;
  cardBrand?: string;
}

export interface OrderRecord {
  /** The Order object of the contract. */
  order: JsonObject & {merchantOrderNo: string; orderId: string; status: string; amount: Money; createdAt: string; expiresAt: string};
  /** The accepted Create order body, as canonical JSON (x-idempotency.comparison). */
  requestKey: string;
  nextAction: JsonObject;
  notifyUrl?: string;
  storeId?: string;
  payer?: PayerRecord;
  /** CASH_TOP_UP: the 12-digit reference a store cashier types in. */
  paymentReference?: string;
  /** The order's PAID ledger entry, once paid. */
  paidEntry?: string;
  /** A card attempt stopped at the issuer's 3-D Secure challenge, until the shopper answers it. */
  challenge?: {cardNumber: string; startedAt: string};
}

export interface RefundRecord {
  /** The Refund object of the contract. */
  refund: JsonObject & {refundId: string; merchantOrderNo: string; status: string; amount: Money};
  requestKey?: string;
}

export type PayoutKind = 'WALLET' | 'BANK' | 'CARD';

export interface PayoutRecord {
  kind: PayoutKind;
  /** The Transfer, BankTransfer or CardPayout object of the contract. */
  payout: JsonObject & {merchantTransferNo: string; transferId: string; status: string; amount: Money; fee: Money};
  requestKey: string;
  notifyUrl?: string;
}

export interface AgreementRecord {
  agreement: JsonObject & {merchantAgreementNo: string; agreementId: string; status: string};
  requestKey: string;
  notifyUrl?: string;
  /** The wallet that authorised it, once authorised. */
  wallet?: string;
}

export interface ChargebackRecord {
  chargeback: JsonObject & {chargebackId: string; merchantOrderNo: string; status: string; amount: Money};
}

export interface QuoteRecord {
  quote: JsonObject & {quoteId: string; sourceAmount: Money; destinationAmount: Money; rate: string; fee: Money; expiresAt: string};
  destinationCountry: string;
  expiresAtMs: number;
}

export interface DeliveryAttempt {
  at: string;
  httpStatus?: number;
  acknowledged: boolean;
  /** Why it failed, when it did: "HTTP 500", "timeout", "connection refused". */
  error?: string;
  /** Scheduled, or asked for with Redeliver event. */
  trigger: 'SCHEDULE' | 'REDELIVER';
}

export interface EventRecord {
  /** The Event object of the contract, delivery included. */
  event: JsonObject & {
    notificationId: string;
    eventType: string;
    createdAt: string;
    delivery: JsonObject & {status: string; attempts: number};
  };
  /** Where the object that raised it points, for routing again on Redeliver event; a simulated notification names its URL itself. */
  source: {order?: string; refund?: string; payout?: string; agreement?: string; notifyUrl?: string};
  /** Scheduled attempts made so far (Redeliver event's extra ones are not counted here). */
  scheduledAttempts: number;
  log: DeliveryAttempt[];
}

/**
 * One movement of money, in one currency. `legs` change the three balances; their sum is the change of
 * the total balance. Rows of the statement are the entries with `row` set (movements of money in or out);
 * entries without it move money between balances and sum to zero. A new merchant's starting balances are
 * movements too (SANDBOX_FUNDING rows), so every statement day reconciles.
 */
export interface LedgerEntry {
  id: string;
  at: number;
  currency: string;
  legs: {available?: number; pending?: number; frozen?: number};
  /**
   * The statement's available_on: a pending amount (a PAYMENT) becomes available at 00:00 UTC of this day; an
   * entry credited to available at once (a VAM_TOP_UP) carries the day it arrived.
   */
  availableOn?: string;
  row?: {
    transactionType: string;
    merchantReference: string;
    providerReference: string;
    relatedOrderNo: string;
    gross: number;
    fee: number;
    status: string;
    paymentMethod: string;
    createdAt: string;
    completedAt: string;
    storeId: string;
  };
  /** What the entry is, for readers of the ledger: "payment", "refund reserved", "opening balance"... */
  memo: string;
}

export interface JobRecord {
  id: string;
  at: number;
  /** Sequence, so jobs due at the same time run in the order they were scheduled. */
  seq: number;
  clientId: string;
  kind:
    | 'attempt.resolve'
    | 'order.expire'
    | 'refund.complete'
    | 'payout.complete'
    | 'bank.return'
    | 'event.deliver'
    | 'vam.credit'
    | 'agreement.expire';
  ref: string;
  data?: JsonObject;
}

/** The record collections of one merchant, and their key segment. */
export const collections = [
  'order',
  'tombstone',
  'refund',
  'refundNo',
  'payout',
  'agreement',
  'token',
  'chargeback',
  'quote',
  'event',
  'ledger',
  'nonce',
  'authCode',
] as const;
export type Collection = (typeof collections)[number];

/** A merchant's records as domain code sees them: maps it can read; every change goes through Tx. */
export interface MerchantState {
  readonly merchant: Readonly<MerchantRecord>;
  readonly orders: ReadonlyMap<string, OrderRecord>;
  /** merchantOrderNo blocked by Revoke order before any order existed. */
  readonly tombstones: ReadonlyMap<string, string>;
  readonly refunds: ReadonlyMap<string, RefundRecord>;
  /** merchantRefundNo to refundId. */
  readonly refundNos: ReadonlyMap<string, string>;
  readonly payouts: ReadonlyMap<string, PayoutRecord>;
  readonly agreements: ReadonlyMap<string, AgreementRecord>;
  /** Agreement tokens issued by authorised agreements, to their merchantAgreementNo. */
  readonly tokens: ReadonlyMap<string, string>;
  readonly chargebacks: ReadonlyMap<string, ChargebackRecord>;
  readonly quotes: ReadonlyMap<string, QuoteRecord>;
  readonly events: ReadonlyMap<string, EventRecord>;
  readonly ledger: ReadonlyMap<string, LedgerEntry>;
  /** Nonces seen, to the time they may be forgotten. */
  readonly nonces: ReadonlyMap<string, number>;
  /** Auth codes issued by the wallet bridge (shopper API), to {wallet, issuedAt, used}. */
  readonly authCodes: ReadonlyMap<string, AuthCodeRecord>;
  map(collection: Collection): ReadonlyMap<string, unknown>;
  /** The committed records this state reads through (itself, outside a unit of work): what a derived cache is kept for. */
  readonly committed: MerchantState;
}

export interface AuthCodeRecord {
  wallet: string;
  issuedAt: number;
  used: boolean;
}

/** The field of MerchantState that holds each collection. */
const fieldOf = {
  order: 'orders',
  tombstone: 'tombstones',
  refund: 'refunds',
  refundNo: 'refundNos',
  payout: 'payouts',
  agreement: 'agreements',
  token: 'tokens',
  chargeback: 'chargebacks',
  quote: 'quotes',
  event: 'events',
  ledger: 'ledger',
  nonce: 'nonces',
  authCode: 'authCodes',
} as const satisfies Record<Collection, keyof MerchantState>;

export const collectionField = (collection: Collection): (typeof fieldOf)[Collection] => fieldOf[collection];

/**
 * The committed records of one merchant, in memory. Only the shell writes them (loading, and applying a
 * finished unit of work, unit.ts); every value in them is deep-frozen, so code that reads a record here
 * can never change it in place.
 */
export class MerchantRecords implements MerchantState {
  readonly orders = new Map<string, OrderRecord>();
  readonly tombstones = new Map<string, string>();
  readonly refunds = new Map<string, RefundRecord>();
  readonly refundNos = new Map<string, string>();
  readonly payouts = new Map<string, PayoutRecord>();
  readonly agreements = new Map<string, AgreementRecord>();
  readonly tokens = new Map<string, string>();
  readonly chargebacks = new Map<string, ChargebackRecord>();
  readonly quotes = new Map<string, QuoteRecord>();
  readonly events = new Map<string, EventRecord>();
  readonly ledger = new Map<string, LedgerEntry>();
  readonly nonces = new Map<string, number>();
  readonly authCodes = new Map<string, AuthCodeRecord>();
  private current: Readonly<MerchantRecord>;

  constructor(merchant: MerchantRecord) {
    this.current = deepFreeze(merchant);
  }

  get merchant(): Readonly<MerchantRecord> {
    return this.current;
  }

  get committed(): MerchantState {
    return this;
  }

  /** Replaces the merchant's own record (keys, settings). */
  setMerchant(merchant: MerchantRecord): void {
    this.current = deepFreeze(merchant);
  }

  map(collection: Collection): Map<string, unknown> {
    return this[fieldOf[collection]];
  }

  /**
   * Sets a record, frozen; undefined deletes it. What it holds equal to its previous version, or an event's
   * notification data equal to the object that raised it, is shared with those (shareEqual), not kept twice.
   */
  set(collection: Collection, id: string, value: unknown): void {
    const map = this.map(collection);
    if (value === undefined) {
      map.delete(id);
      return;
    }
    const previous = map.get(id);
    const record = previous === undefined ? value : shareEqual(value, previous);
    if (collection === 'event') this.shareNotificationData(record as EventRecord);
    map.set(id, deepFreeze(record));
  }

  private shareNotificationData(record: EventRecord): void {
    const notification = record.event['notification'];
    const {order, refund, payout, agreement} = record.source;
    const object =
      (order === undefined ? undefined : this.orders.get(order)?.order) ??
      (refund === undefined ? undefined : this.refunds.get(refund)?.refund) ??
      (payout === undefined ? undefined : this.payouts.get(payout)?.payout) ??
      (agreement === undefined ? undefined : this.agreements.get(agreement)?.agreement);
    if (object === undefined || typeof notification !== 'object' || notification === null || Object.isFrozen(notification)) return;
    const data = (notification as JsonObject)['data'];
    if (data !== undefined) (notification as JsonObject)['data'] = shareEqual(data, object);
  }
}

/**
 * `value` with every part deep-equal to the same part of `candidate` (members in the same order, so the JSON
 * is the same) replaced by that part: `candidate` itself when all of it is equal. Records are immutable once
 * committed, so a new version can share what it did not change with the old one; only what changed is new
 * memory, and only that of the old version becomes garbage. Changes `value` in place unless it is frozen.
 */
export function shareEqual<T>(value: T, candidate: unknown): T {
  if (value === candidate) return value;
  if (typeof value !== 'object' || value === null || typeof candidate !== 'object' || candidate === null) return value;
  if (Array.isArray(value) !== Array.isArray(candidate)) return value;
  const target = value as Record<string, unknown>;
  const other = candidate as Record<string, unknown>;
  const keys = Object.keys(target);
  const otherKeys = Object.keys(other);
  const mutable = !Object.isFrozen(target);
  let equal = keys.length === otherKeys.length;
  for (const [index, key] of keys.entries()) {
    if (otherKeys[index] !== key) equal = false;
    const item = target[key];
    if (!Object.hasOwn(other, key)) {
      equal = false;
      continue;
    }
    const otherItem = other[key];
    if (item === otherItem) continue;
    const shared = shareEqual(item, otherItem);
    if (shared !== item && mutable) target[key] = shared;
    if (shared !== otherItem) equal = false;
  }
  return equal ? (candidate as T) : value;
}

/** Freezes a JSON value and everything in it, so nobody can change it in place; returns it. */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
  return value;
}

/** Collects the records one call or clock step changed, for one commit. */
export class ChangeSet {
  private readonly keys = new Map<string, () => RecordValue | undefined>();

  /** Marks a record changed; its value is read when the batch is committed, so later edits are included. */
  touch(key: string, read: () => RecordValue | undefined): void {
    this.keys.set(key, read);
  }

  get size(): number {
    return this.keys.size;
  }

  drain(): RecordChange[] {
    const changes = [...this.keys].map(([key, read]) => {
      const value = read();
      // Later edits in memory must not change a batch a store is still writing. A frozen record (deepFreeze: every
      // merchant record and object) cannot be edited, so it goes as it is; others (jobs) are copied.
      const kept =
        value === undefined || typeof value !== 'object' || value === null || Object.isFrozen(value)
          ? value
          : (JSON.parse(JSON.stringify(value)) as RecordValue);
      return {key, value: kept};
    });
    this.keys.clear();
    return changes;
  }
}

export const recordKey = (clientId: string, collection: string, id: string): string => `${clientId}/${collection}/${id}`;
/** The engine's own records (merchants, jobs, settings) live under "~", which no client ID can be. */
export const engineKey = (collection: string, id: string): string => `~/${collection}/${id}`;
