/** The ledger: entries with legs (available, pending, frozen), running balances, the opening funds, and Get balance. */
import {isoSeconds, utcDay} from '../clock';
import {randomId} from '../ids';
import type {Json, LedgerEntry, MerchantState} from '../state';
import type {Reply, Tx} from '../tx';
import {money} from '../values';

/** The statement row type of the starting balances (declared in api/statement-columns.yaml). */
export const sandboxFundingType = 'SANDBOX_FUNDING';

export interface BalanceCache {
  totals: Map<string, {available: number; pending: number; frozen: number}>;
  /** Pending amounts by the day they become available. */
  pendingByDay: Map<string, Map<string, number>>;
  /** How many entries, by sequence, the sums hold. */
  count: number;
}

export function addToCache(cache: BalanceCache, entry: LedgerEntry): void {
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

/** Ledger entries are numbered in order: the id of the entry after `count` of them. */
const entryId = (count: number): string => String(count).padStart(10, '0');

export function post(tx: Tx, state: MerchantState, entry: Omit<LedgerEntry, 'id' | 'at'> & {at?: number}): LedgerEntry {
  const record: LedgerEntry = {...entry, id: entryId(state.ledger.size), at: entry.at ?? tx.clock.now()};
  tx.put(state, 'ledger', record.id, record);
  return record;
}

/**
 * Running sums of the committed ledger per merchant, so a balance check does not read every entry. Derived:
 * built on first use, then brought up to date with the entries committed since (the ledger only grows).
 */
const balanceCaches = new WeakMap<MerchantState, BalanceCache>();

function cacheOf(committed: MerchantState): BalanceCache {
  let cache = balanceCaches.get(committed);
  for (let count = cache?.count ?? 0; cache && count < committed.ledger.size; count += 1) {
    const entry = committed.ledger.get(entryId(count));
    if (!entry) cache = undefined;
    else addToCache(cache, entry);
    if (cache) cache.count = count + 1;
  }
  if (!cache) {
    cache = {totals: new Map(), pendingByDay: new Map(), count: committed.ledger.size};
    for (const entry of committed.ledger.values()) addToCache(cache, entry);
    balanceCaches.set(committed, cache);
  }
  return cache;
}

/** The committed sums, plus the entries the call's unit of work has posted so far (they follow the committed ones). */
function sumsOf(state: MerchantState): BalanceCache {
  const committed = cacheOf(state.committed);
  if (state === state.committed || state.ledger.size === committed.count) return committed;
  const sums: BalanceCache = {
    totals: new Map([...committed.totals].map(([currency, totals]) => [currency, {...totals}])),
    pendingByDay: new Map([...committed.pendingByDay].map(([day, amounts]) => [day, new Map(amounts)])),
    count: committed.count,
  };
  for (let count = committed.count; count < state.ledger.size; count += 1) {
    const entry = state.ledger.get(entryId(count));
    if (entry) addToCache(sums, entry);
  }
  return sums;
}

/** Balances by currency now: the sums of the ledger's legs, with pending amounts whose day has come counted as available. */
export function balancesOf(tx: Tx, state: MerchantState): Map<string, {available: number; pending: number; frozen: number}> {
  const result = new Map<string, {available: number; pending: number; frozen: number}>();
  const cache = sumsOf(state);
  const today = utcDay(tx.clock.now());
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

export function available(tx: Tx, state: MerchantState, currency: string): number {
  return balancesOf(tx, state).get(currency)?.available ?? 0;
}

/**
 * The starting balances, booked as a movement (a SANDBOX_FUNDING row per currency) at the instant the
 * merchant is created: the statement of that day opens at 0 and adds up, and so does every earlier day's
 * (0, no rows, 0). Issue 29, I-9.
 */
export function bookOpeningFunds(tx: Tx, state: MerchantState): void {
  const at = state.merchant.createdAt;
  for (const balance of tx.spec.sandbox.merchant.balances) {
    post(tx, state, {
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

export function getBalance(tx: Tx, state: MerchantState, currency: Json | undefined): Reply {
  const balances = [...balancesOf(tx, state)]
    .filter(([code]) => currency === undefined || code === currency)
    .map(([code, balance]) => ({
      currency: code,
      available: money(balance.available, code),
      pending: money(balance.pending, code),
      frozen: money(balance.frozen, code),
    }));
  return {code: 'SUCCESS', data: {balances, asOf: isoSeconds(tx.clock.now())} as unknown as Json};
}
