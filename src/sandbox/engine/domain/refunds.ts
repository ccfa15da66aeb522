/** Refunds: Refund order, Revoke order (which refunds a paid order), Query refund, and the refund completion job. */
import {isoSeconds} from '../clock';
import {randomId} from '../ids';
import {refundOutcome} from '../rules/rules';
import type {JobRecord, JsonObject, MerchantState, Money, OrderRecord, RefundRecord} from '../state';
import {reject, type Reply, transition, type Tx} from '../tx';
import {disputedMessage, money, msPerSecond, processingMessage, recordChange} from '../values';
import {emit} from './events';
import {available, post} from './ledger';
import {closeOrder, findOrder, refreshOrderAmounts} from './orders';

/**
 * The refund an earlier Revoke order of this order started and that has not failed, newest first: while it
 * exists, a repeated Revoke answers REFUND_STARTED with it, so a till whose first answer was lost acts the same.
 */
export function revokeRefundOf(state: MerchantState, merchantOrderNo: string): RefundRecord | undefined {
  return [...state.refunds.values()]
    .filter(
      (record) =>
        record.refund.merchantOrderNo === merchantOrderNo && record.refund['origin'] === 'REVOKE' && record.refund.status !== 'FAILED',
    )
    .at(-1);
}

export function revokeOrder(tx: Tx, state: MerchantState, merchantOrderNo: string, body: JsonObject | undefined): Reply {
  const record = state.orders.get(merchantOrderNo);
  if (!record) {
    // The contract's tombstone (x-idempotency.tombstone) outlives the rejection that answers this call.
    if (!state.tombstones.has(merchantOrderNo)) tx.putEvenIfRejected(state, 'tombstone', merchantOrderNo, isoSeconds(tx.clock.now()));
    return reject(
      'ORDER_NOT_FOUND',
      `No order ${merchantOrderNo} exists; the number is now blocked, so a Create order still in flight fails with ORDER_CLOSED.`,
    );
  }
  const status = record.order.status;
  if (status === 'PROCESSING') reject('ORDER_PROCESSING', processingMessage(merchantOrderNo));
  if (status === 'PENDING') {
    closeOrder(tx, state, record, 'REVOKED');
    return {code: 'SUCCESS', data: {outcome: 'CLOSED', order: record.order}};
  }
  if (status === 'CLOSED') return {code: 'SUCCESS', data: {outcome: 'CLOSED', order: record.order}};
  const started = revokeRefundOf(state, merchantOrderNo);
  if (started) return {code: 'SUCCESS', data: {outcome: 'REFUND_STARTED', order: record.order, refund: started.refund}};
  if (hasOpenChargeback(tx, state, merchantOrderNo)) reject('ORDER_DISPUTED', disputedMessage(merchantOrderNo));
  checkRefundPeriod(tx, record);
  const refundable = (record.order['refundableAmount'] as unknown as Money).value;
  if (refundable === 0) return {code: 'SUCCESS', data: {outcome: 'ALREADY_REFUNDED', order: record.order}};
  const reason = typeof body?.['reason'] === 'string' ? body['reason'] : undefined;
  const refund = startRefund(tx, state, record, money(refundable, record.order.amount.currency), 'REVOKE', {...(reason ? {reason} : {})});
  return {code: 'SUCCESS', data: {outcome: 'REFUND_STARTED', order: record.order, refund: refund.refund}};
}

export function checkRefundPeriod(tx: Tx, record: OrderRecord): void {
  const paidAt = record.order['paidAt'];
  const days = tx.spec.timeLimits.refundWindowDays;
  if (typeof paidAt === 'string' && tx.clock.now() - Date.parse(paidAt) > days * 86400 * msPerSecond)
    reject(
      'REFUND_PERIOD_EXPIRED',
      `Order ${record.order.merchantOrderNo} was paid at ${paidAt}, more than ${days} days ago: it can no longer be refunded.`,
    );
}

export function hasOpenChargeback(tx: Tx, state: MerchantState, merchantOrderNo: string): boolean {
  return [...state.chargebacks.values()].some(
    (chargeback) => chargeback.chargeback.merchantOrderNo === merchantOrderNo && chargeback.chargeback.status === 'OPEN',
  );
}

export function refundOrder(tx: Tx, state: MerchantState, merchantOrderNo: string, body: JsonObject, requestKey: string): Reply {
  const merchantRefundNo = String(body['merchantRefundNo']);
  const existingId = state.refundNos.get(merchantRefundNo);
  if (existingId !== undefined) {
    const existing = state.refunds.get(existingId) as RefundRecord;
    if (existing.requestKey !== requestKey)
      reject('IDEMPOTENCY_CONFLICT', `Refund ${merchantRefundNo} was requested with a different order or body.`);
    return {code: 'SUCCESS', data: existing.refund, headers: {'Idempotent-Replayed': 'true'}};
  }
  const record = findOrder(tx, state, merchantOrderNo);
  if (!['PAID', 'PARTIALLY_REFUNDED'].includes(record.order.status)) {
    if (record.order.status === 'REFUNDED')
      reject('REFUND_AMOUNT_EXCEEDED', `Order ${merchantOrderNo} is REFUNDED: nothing is left to refund.`);
    reject('ORDER_NOT_PAID', `Order ${merchantOrderNo} is ${record.order.status}: only a paid order can be refunded.`);
  }
  if (hasOpenChargeback(tx, state, merchantOrderNo)) reject('ORDER_DISPUTED', disputedMessage(merchantOrderNo));
  checkRefundPeriod(tx, record);
  const amount = body['amount'] as unknown as Money;
  if (amount.currency !== record.order.amount.currency)
    reject('INVALID_PARAMETER', `amount.currency must be the order's currency, ${record.order.amount.currency}.`);
  const refundable = (record.order['refundableAmount'] as unknown as Money).value;
  if (amount.value > refundable) reject('REFUND_AMOUNT_EXCEEDED', `At most ${refundable} can be refunded now.`);
  const outcome = refundOutcome(tx.spec.sandbox, amount.value, 'MERCHANT');
  if (!outcome.accepted) reject(outcome.resultCode, `Rejected by the sandbox (${outcome.because}).`);
  if (available(tx, state, amount.currency) < amount.value)
    reject('INSUFFICIENT_BALANCE', `The available ${amount.currency} balance does not cover ${amount.value}.`);
  const refund = startRefund(tx, state, record, amount, 'MERCHANT', {
    merchantRefundNo,
    ...(typeof body['reason'] === 'string' ? {reason: body['reason']} : {}),
    ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
  });
  refund.requestKey = requestKey;
  tx.put(state, 'refundNo', merchantRefundNo, refund.refund.refundId);
  return {code: 'SUCCESS', data: refund.refund};
}

export function startRefund(
  tx: Tx,
  state: MerchantState,
  record: OrderRecord,
  amount: Money,
  origin: 'MERCHANT' | 'REVOKE',
  extra: JsonObject,
): RefundRecord {
  const now = tx.clock.now();
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
  tx.put(state, 'refund', refundId, refund);
  post(tx, state, {currency: amount.currency, legs: {available: -amount.value, frozen: amount.value}, memo: `refund ${refundId} reserved`});
  refreshOrderAmounts(tx, state, record);
  const outcome = refundOutcome(tx.spec.sandbox, amount.value, origin);
  const decided = outcome.accepted ? outcome : {status: 'SUCCEEDED', processingSeconds: 0};
  tx.schedule({
    at: now + decided.processingSeconds * msPerSecond,
    clientId: state.merchant.clientId,
    kind: 'refund.complete',
    ref: refundId,
    data: {status: decided.status, failureCode: 'failureCode' in decided ? (decided.failureCode ?? null) : null},
  });
  return refund;
}

export function completeRefund(tx: Tx, state: MerchantState, job: JobRecord): void {
  const refund = state.refunds.get(job.ref);
  if (!refund || refund.refund.status !== 'PROCESSING') return;
  const order = state.orders.get(refund.refund.merchantOrderNo);
  if (!order) return;
  const status = String(job.data?.['status'] ?? 'SUCCEEDED');
  const now = tx.clock.now();
  const amount = refund.refund.amount;
  transition(tx, 'RefundStatus', 'PROCESSING', status);
  Object.assign(refund.refund, {status, completedAt: isoSeconds(now)});
  recordChange(refund.refund, now);
  if (status === 'SUCCEEDED') {
    post(tx, state, {
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
    post(tx, state, {
      currency: amount.currency,
      legs: {frozen: -amount.value, available: amount.value},
      memo: `refund ${refund.refund.refundId} failed: reservation released`,
    });
  }
  tx.touch(state, 'refund', refund.refund.refundId);
  refreshOrderAmounts(tx, state, order, (refunded) =>
    status !== 'SUCCEEDED' ? order.order.status : refunded >= order.order.amount.value ? 'REFUNDED' : 'PARTIALLY_REFUNDED',
  );
  emit(tx, state, status === 'SUCCEEDED' ? 'REFUND.SUCCEEDED' : 'REFUND.FAILED', refund.refund, {
    order: order.order.merchantOrderNo,
    refund: refund.refund.refundId,
  });
}

export function queryRefund(state: MerchantState, merchantRefundNo: string): Reply {
  const id = state.refundNos.get(merchantRefundNo);
  const record = id === undefined ? undefined : state.refunds.get(id);
  if (!record) return reject('REFUND_NOT_FOUND', `No refund ${merchantRefundNo} exists, yet, for ${state.merchant.clientId}.`);
  return {code: 'SUCCESS', data: record.refund};
}
