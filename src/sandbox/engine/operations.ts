/**
 * The handler table: one row per contract operation, typed by OperationId, so a new operation without a
 * handler fails to compile instead of answering "not carried out" at run time. Each row only maps the
 * validated call onto its domain function.
 */
import {cancelAgreement, createAgreement, exchangeAuthCode, findAgreement} from './domain/agreements';
import {listEvents, redeliverEvent} from './domain/events';
import {getBalance} from './domain/ledger';
import {listPage} from './domain/lists';
import {adjustExpiry, cancelOrder, createOrder, findOrder, getCashierUrl, retrieveOrderPayer} from './domain/orders';
import {calculateRate, cardEligibility, ibanHolderName, listCorridors} from './domain/payoutChecks';
import {createPayout, findPayout, payoutsOf} from './domain/payouts';
import {queryRefund, refundOrder, revokeOrder} from './domain/refunds';
import {downloadStatementReply, finishStatement} from './domain/statements';
import type {OperationId} from './operationIds';
import type {Json, JsonObject, MerchantState, PayoutKind} from './state';
import type {Reply, Tx} from './tx';
import {requestKeyOf} from './values';

/** A call that passed the pipeline: an authenticated merchant, typed parameters, a body valid against the contract. */
export interface OperationCall {
  readonly state: MerchantState;
  readonly params: Readonly<Record<string, Json>>;
  /** The body; `{}` for an operation without one (the contract's schema was checked before). */
  readonly body: JsonObject;
  /** Whether the request carried a body at all (Revoke order and Get cashier URL take an optional one). */
  readonly hasBody: boolean;
}

type Handler = (tx: Tx, call: OperationCall) => Reply | Promise<Reply>;

const text = (call: OperationCall, name: string): string => String(call.params[name] ?? '');
const optionalBody = (call: OperationCall): JsonObject | undefined => (call.hasBody ? call.body : undefined);

/** A payout product's create, list and query rows. */
function payoutRows(kind: PayoutKind, listKey: string): {create: Handler; list: Handler; query: Handler} {
  return {
    create: async (tx, call) => createPayout(tx, call.state, kind, call.body, await requestKeyOf(call.body)),
    list: (tx, call) => listPage(tx, call.params, payoutsOf(tx, call.state, kind), listKey, {status: 'status'}),
    query: (tx, call) => ({code: 'SUCCESS', data: findPayout(tx, call.state, kind, text(call, 'merchantTransferNo')).payout}),
  };
}

const wallet = payoutRows('WALLET', 'transfers');
const bank = payoutRows('BANK', 'bankTransfers');
const card = payoutRows('CARD', 'cardPayouts');

export const handlers = {
  createOrder: async (tx, call) => createOrder(tx, call.state, call.body, await requestKeyOf(call.body)),
  queryOrderPage: (tx, call) =>
    listPage(
      tx,
      call.params,
      [...call.state.orders.values()].map((record) => record.order),
      'orders',
      {status: 'status', scene: 'scene'},
    ),
  retrieveOrderDetail: (tx, call) => ({code: 'SUCCESS', data: findOrder(tx, call.state, text(call, 'merchantOrderNo')).order}),
  retrieveOrderPayer: (tx, call) => retrieveOrderPayer(tx, call.state, text(call, 'merchantOrderNo')),
  cancelOrder: (tx, call) => cancelOrder(tx, call.state, text(call, 'merchantOrderNo')),
  revokeOrder: (tx, call) => revokeOrder(tx, call.state, text(call, 'merchantOrderNo'), optionalBody(call)),
  refundOrder: async (tx, call) =>
    refundOrder(
      tx,
      call.state,
      text(call, 'merchantOrderNo'),
      call.body,
      await requestKeyOf({merchantOrderNo: text(call, 'merchantOrderNo'), body: call.body}),
    ),
  adjustOrderExpiryTime: (tx, call) => adjustExpiry(tx, call.state, text(call, 'merchantOrderNo'), call.body),
  getCashierUrl: (tx, call) => getCashierUrl(tx, call.state, text(call, 'merchantOrderNo'), optionalBody(call)),
  queryRefundPage: (tx, call) =>
    listPage(
      tx,
      call.params,
      [...call.state.refunds.values()].map((record) => record.refund),
      'refunds',
      {status: 'status', merchantOrderNo: 'merchantOrderNo'},
    ),
  queryRefund: (_tx, call) => queryRefund(call.state, text(call, 'merchantRefundNo')),
  transfer: wallet.create,
  listTransfers: wallet.list,
  queryTransfer: wallet.query,
  getIbanHolderName: (tx, call) => ibanHolderName(tx, call.body),
  listCountriesAndCurrencies: (tx, call) => listCorridors(tx, call.params['country']),
  calculateRate: (tx, call) => calculateRate(tx, call.state, call.body),
  transferToBank: bank.create,
  listBankTransfers: bank.list,
  queryTransferToBank: bank.query,
  verifyCardPayoutEligibility: (tx, call) => cardEligibility(tx, call.body),
  transferToBankCard: card.create,
  listCardPayouts: card.list,
  queryBankCardTransfer: card.query,
  getBalance: (tx, call) => getBalance(tx, call.state, call.params['currency']),
  // The file's digest needs gzip and SHA-256, which are asynchronous in WebCrypto and CompressionStream.
  downloadStatement: (tx, call) =>
    finishStatement(tx, call.state, downloadStatementReply(tx, call.state, text(call, 'statementDate'), call.params['currency'])),
  listEvents: (tx, call) => listEvents(tx, call.state, call.params),
  redeliverEvent: (tx, call) => redeliverEvent(tx, call.state, text(call, 'notificationId')),
  createAgreement: async (tx, call) => createAgreement(tx, call.state, call.body, await requestKeyOf(call.body)),
  queryAgreement: (tx, call) => ({code: 'SUCCESS', data: findAgreement(tx, call.state, text(call, 'merchantAgreementNo')).agreement}),
  cancelAgreement: (tx, call) => cancelAgreement(tx, call.state, text(call, 'merchantAgreementNo'), 'MERCHANT'),
  exchangeWalletAuthCode: (tx, call) => exchangeAuthCode(tx, call.state, String(call.body['authCode'])),
} satisfies Record<OperationId, Handler>;

/** The handler of an operation the spec names; undefined only for an operationId outside the contract. */
export function handlerOf(operationId: string): Handler | undefined {
  return Object.hasOwn(handlers, operationId) ? handlers[operationId as OperationId] : undefined;
}
