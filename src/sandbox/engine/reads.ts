/** What the console, Try it and the tests read of a merchant: pure views of its state. */
import type {MerchantView} from './api';
import {isoSeconds} from './clock';
import type {EventRecord, JsonObject, MerchantRecord, MerchantState, PayoutKind} from './state';

export interface MerchantSnapshot {
  readonly orders: JsonObject[];
  readonly refunds: JsonObject[];
  readonly payouts: JsonObject[];
  readonly agreements: JsonObject[];
  readonly chargebacks: JsonObject[];
  readonly events: EventRecord[];
}

/**
 * The identifiers of a merchant's newest objects, by the name a path parameter or body field gives them
 * (merchantOrderNo, merchantRefundNo, notificationId, ...), so Try it can prefill "the order you just made".
 * Payouts are kept apart by kind: a wallet transfer's number does not answer Query transfer to bank.
 */
export function latestReferences(state: MerchantState): Readonly<Record<string, string | undefined>> {
  const last = <T>(map: ReadonlyMap<string, T>): T | undefined => [...map.values()].at(-1);
  const payouts = [...state.payouts.values()];
  const newestPayout = (kind: PayoutKind) => payouts.filter((record) => record.kind === kind).at(-1)?.payout.merchantTransferNo;
  return {
    merchantOrderNo: last(state.orders)?.order.merchantOrderNo,
    merchantRefundNo: last(state.refunds)?.refund['merchantRefundNo'] as string | undefined,
    merchantAgreementNo: last(state.agreements)?.agreement.merchantAgreementNo,
    // The newest event that has somewhere to go: Redeliver event refuses one without a URL.
    notificationId: (
      [...state.events.values()].filter((record) => typeof record.event['notifyUrl'] === 'string').at(-1) ?? last(state.events)
    )?.event.notificationId,
    quoteId: last(state.quotes)?.quote.quoteId,
    WALLET: newestPayout('WALLET'),
    BANK: newestPayout('BANK'),
    CARD: newestPayout('CARD'),
  };
}

/** A merchant's settings and public keys (newest key version last), for the console; undefined when unknown. */
export function merchantView(merchant: MerchantRecord): MerchantView {
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

/** A merchant's objects, as the API shows them. */
export function snapshotOf(state: MerchantState): MerchantSnapshot {
  return {
    orders: [...state.orders.values()].map((record) => record.order),
    refunds: [...state.refunds.values()].map((record) => record.refund),
    payouts: [...state.payouts.values()].map((record) => record.payout),
    agreements: [...state.agreements.values()].map((record) => record.agreement),
    chargebacks: [...state.chargebacks.values()].map((record) => record.chargeback),
    events: [...state.events.values()],
  };
}
