/**
 * What the sandbox console shows, read from the browser sandbox in one go: plain data for rendering,
 * with amounts formatted, the newest first, and each notification checked as a handler would.
 */
import {loadSchemaChecks} from '@site/src/sandbox/hosts/browser/load';
import {base64ToBytes, importPublicKey} from '@site/src/lib/signing';
import {fromMinorUnits, isCurrencyCode} from '@site/src/lib/money';
import type {BrowserSandbox, InboxEntry} from '@site/src/sandbox/hosts/browser/host';
import type {MerchantView} from '@site/src/sandbox/engine/engine';
import type {LedgerEntry} from '@site/src/sandbox/engine/state';
import type {TryItData} from '@site/src/lib/tryIt';
import {openLink, type OpenLink} from './links';
import {checkNotification, header, notificationBodyValidators, type CheckedNotification} from './notificationChecks';

/** An amount split for a table: the grouped figure, right-aligned on its last digit, and its currency beside it. */
export interface Money {
  readonly figure: string;
  readonly currency: string;
}

export type Cell = string | Money;

export interface Row {
  readonly key: string;
  readonly cells: readonly Cell[];
  /** Where the object opens in Try it (links.ts). */
  readonly open?: OpenLink;
}

export interface ConsoleView {
  readonly merchants: readonly string[];
  /** The published test merchant's client ID, which Try it signs as by default. */
  readonly testClientId: string;
  readonly clientId: string;
  readonly merchant: (MerchantView & {readonly fingerprints: readonly string[]}) | undefined;
  readonly orders: readonly Row[];
  readonly refunds: readonly Row[];
  readonly payouts: readonly Row[];
  /** Newest first. */
  readonly events: readonly Row[];
  readonly balances: readonly Balance[];
  /** Newest first. */
  readonly ledger: readonly Row[];
  /** Newest first. */
  readonly inbox: ReadonlyArray<{readonly entry: InboxEntry; readonly checked: CheckedNotification}>;
  readonly now: string;
  /** How far the sandbox clock runs ahead of this computer's, in seconds. */
  readonly aheadSeconds: number;
  readonly pendingJobs: number;
}

export interface Balance {
  readonly currency: string;
  readonly available: Money;
  readonly pending: Money;
  readonly frozen: Money;
}

/**
 * An amount in major units with thousands grouped, and its currency ("999,997.50" and "USD"); minor units
 * for a currency the portal does not know.
 */
export function moneyParts(value: unknown, currency: unknown): Money | undefined {
  if (typeof value !== 'number' || typeof currency !== 'string') return undefined;
  if (!isCurrencyCode(currency) || !Number.isSafeInteger(value)) return {figure: String(value), currency: `${currency} (minor units)`};
  const [whole = '', fraction] = fromMinorUnits(Math.abs(value), currency).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return {figure: `${value < 0 ? '−' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`, currency};
}

/** The same as one string: "999,997.50 USD". */
export function formatAmount(value: unknown, currency: unknown): string {
  const parts = moneyParts(value, currency);
  return parts ? `${parts.figure} ${parts.currency}` : '';
}

function money(value: unknown): Cell {
  const amount = (value ?? {}) as {value?: unknown; currency?: unknown};
  return moneyParts(amount.value, amount.currency) ?? '';
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');

/** SHA-256 of the key's SPKI bytes, as colon-separated hex: what a key's fingerprint usually means. */
async function fingerprint(publicKeyPem: string): Promise<string> {
  const base64 = publicKeyPem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', base64ToBytes(base64)));
  return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join(':');
}

function ledgerRow(entry: LedgerEntry): Row {
  const leg = (amount: number | undefined) => (amount ? (moneyParts(amount, entry.currency) ?? '') : '');
  return {
    key: entry.id,
    // Under the console's columns Time, What, Available, Pending, Frozen; each amount carries its currency.
    cells: [
      new Date(entry.at).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      entry.memo,
      leg(entry.legs.available),
      leg(entry.legs.pending),
      leg(entry.legs.frozen),
    ],
  };
}

const withOpen = (open: OpenLink | undefined): {open?: OpenLink} => (open ? {open} : {});

const productNames = {WALLET: 'Transfer', BANK: 'Bank transfer', CARD: 'Card payout'} as const;

/** Checks made once per inbox entry: an entry never changes, so its result is kept with it. */
const checkedEntries = new WeakMap<InboxEntry, CheckedNotification>();

export interface Checkers {
  readonly providerKey: {readonly key: CryptoKey; readonly keyVersion: number} | undefined;
  readonly byPointer: Readonly<Record<string, ((value: unknown) => boolean) & {errors?: unknown[] | null}>>;
}

/** The published provider key (from this site) and the compiled validators, loaded once. */
export async function loadCheckers(providerKeyUrl: string, keyVersion: number): Promise<Checkers> {
  const {byPointer} = await loadSchemaChecks();
  let providerKey: Checkers['providerKey'];
  try {
    const response = await fetch(providerKeyUrl);
    if (response.ok) providerKey = {key: await importPublicKey(await response.text()), keyVersion};
  } catch {
    // Shown as "not checked" on each notification.
  }
  return {providerKey, byPointer};
}

/** Reads the sandbox for the merchant wanted (the test merchant when it is gone); `operations` are Try it's, for the links. */
export async function readConsole(
  sandbox: Pick<BrowserSandbox, 'engine' | 'clientId' | 'inbox'>,
  wanted: string,
  checkers: Checkers,
  operations: TryItData['operations'],
): Promise<ConsoleView> {
  const {engine} = sandbox;
  const merchants = engine.merchantIds();
  const clientId = merchants.includes(wanted) ? wanted : sandbox.clientId;
  const merchant = engine.merchant(clientId);
  const snapshot = engine.snapshot(clientId);
  const newestFirst = <T extends Record<string, unknown>>(items: readonly T[]) =>
    [...items].sort((a, b) => text(b['createdAt']).localeCompare(text(a['createdAt'])));

  // Which merchant raised each notification, to check the client ID it was signed for.
  const owners = new Map<string, string>();
  for (const id of merchants) for (const event of engine.snapshot(id)?.events ?? []) owners.set(event.event.notificationId, id);
  const validators = notificationBodyValidators(checkers.byPointer);
  const inbox: Array<{entry: InboxEntry; checked: CheckedNotification}> = [];
  for (const entry of [...sandbox.inbox].reverse()) {
    let checked = checkedEntries.get(entry);
    if (!checked) {
      const notificationId = /"notificationId":"([^"]+)"/.exec(entry.body)?.[1] ?? '';
      checked = await checkNotification(
        entry,
        owners.get(notificationId) ?? header(entry.headers, 'X-Client-Id') ?? clientId,
        checkers.providerKey,
        validators,
      );
      // A failed key fetch is not remembered: the next refresh tries again.
      if (checkers.providerKey) checkedEntries.set(entry, checked);
    }
    const owner = owners.get(checked.notificationId) ?? header(entry.headers, 'X-Client-Id');
    if (owner === clientId) inbox.push({entry, checked});
  }

  const now = engine.clock.now();
  return {
    merchants,
    testClientId: sandbox.clientId,
    clientId,
    merchant: merchant && {
      ...merchant,
      fingerprints: await Promise.all(merchant.keys.map((key) => fingerprint(key.publicKeyPem).catch(() => 'not a readable PEM key'))),
    },
    // Status second in every table: on a phone's card and in a narrow window it is the field that matters.
    orders: newestFirst(snapshot?.orders ?? []).map((order) => ({
      key: text(order['merchantOrderNo']),
      cells: [
        text(order['merchantOrderNo']),
        text(order['status']),
        money(order['amount']),
        text(order['scene']),
        text(order['createdAt']),
        text(order['expiresAt']),
      ],
      ...withOpen(openLink(operations, 'orders', order)),
    })),
    refunds: newestFirst(snapshot?.refunds ?? []).map((refund) => ({
      key: text(refund['refundId']),
      cells: [
        text(refund['merchantRefundNo']) || `${text(refund['refundId'])} (${text(refund['origin'])})`,
        text(refund['status']),
        money(refund['amount']),
        text(refund['merchantOrderNo']),
        text(refund['createdAt']),
      ],
      ...withOpen(openLink(operations, 'refunds', refund)),
    })),
    payouts: engine
      .payouts(clientId)
      .sort((a, b) => text(b.payout['createdAt']).localeCompare(text(a.payout['createdAt'])))
      .map(({kind, payout}) => ({
        key: `${kind}-${text(payout['merchantTransferNo'])}`,
        cells: [
          text(payout['merchantTransferNo']),
          text(payout['status']),
          money(payout['amount']),
          money(payout['fee']),
          productNames[kind],
          text(payout['createdAt']),
        ],
        ...withOpen(openLink(operations, kind, payout)),
      })),
    events: [...(snapshot?.events ?? [])]
      .sort((a, b) => b.event.createdAt.localeCompare(a.event.createdAt))
      .map(({event}) => ({
        key: event.notificationId,
        cells: [event.eventType, event.delivery.status, String(event.delivery.attempts), event.notificationId, event.createdAt],
        ...withOpen(openLink(operations, 'events', event)),
      })),
    balances: [...engine.balances(clientId)].map(([currency, balance]) => ({
      currency,
      available: moneyParts(balance.available, currency) ?? {figure: String(balance.available), currency},
      pending: moneyParts(balance.pending, currency) ?? {figure: String(balance.pending), currency},
      frozen: moneyParts(balance.frozen, currency) ?? {figure: String(balance.frozen), currency},
    })),
    ledger: [...engine.ledger(clientId)].reverse().map(ledgerRow),
    inbox,
    now: new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    aheadSeconds: Math.max(0, Math.round(engine.clock.offsetMs / 1000)),
    pendingJobs: engine.pendingJobs(clientId),
  };
}
