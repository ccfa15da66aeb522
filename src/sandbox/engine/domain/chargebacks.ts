/** Chargebacks (a control action of the sandbox): open one on a paid order, and resolve it WON or LOST. */
import {isoSeconds} from '../clock';
import {randomId} from '../ids';
import type {Json, MerchantState, Money} from '../state';
import {reject, type Tx} from '../tx';
import {money, msPerSecond, recordChange} from '../values';
import {emit} from './events';
import {post} from './ledger';
import {findOrder, refreshOrderAmounts} from './orders';
import {hasOpenChargeback} from './refunds';

export function openChargeback(tx: Tx, state: MerchantState, merchantOrderNo: string, reasonCode = 'FRAUD', amount?: number) {
  const data = tx.spec.sandbox.chargebacks;
  const record = findOrder(tx, state, merchantOrderNo);
  if (!['PAID', 'PARTIALLY_REFUNDED'].includes(record.order.status))
    reject('ORDER_NOT_PAID', 'A chargeback needs an order in PAID or PARTIALLY_REFUNDED.');
  if (hasOpenChargeback(tx, state, merchantOrderNo)) reject('ORDER_DISPUTED', 'The order already has an open chargeback.');
  if (!data.reasonCodes.includes(reasonCode)) reject('INVALID_PARAMETER', `reasonCode must be one of ${data.reasonCodes.join(', ')}.`);
  const refundable = (record.order['refundableAmount'] as unknown as Money).value;
  const value = amount ?? refundable;
  if (!Number.isInteger(value) || value < 1 || value > refundable)
    reject('INVALID_PARAMETER', `The chargeback amount must be 1 to ${refundable}.`);
  const now = tx.clock.now();
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
  tx.put(state, 'chargeback', chargebackId, {chargeback});
  post(tx, state, {
    currency: chargeback.amount.currency,
    legs: {available: -value, frozen: value},
    memo: `chargeback ${chargebackId} opened: amount frozen`,
  });
  refreshOrderAmounts(tx, state, record);
  emit(tx, state, 'CHARGEBACK.OPENED', chargeback, {order: merchantOrderNo});
  return chargeback as unknown as Json;
}

export function resolveChargeback(tx: Tx, state: MerchantState, chargebackId: string, resolution: 'WON' | 'LOST') {
  const record = state.chargebacks.get(chargebackId);
  if (!record) return reject('INVALID_PARAMETER', `No chargeback ${chargebackId}.`);
  if (record.chargeback.status !== 'OPEN')
    reject('INVALID_PARAMETER', `Chargeback ${chargebackId} is already ${record.chargeback.status}.`);
  const now = tx.clock.now();
  const {amount} = record.chargeback;
  Object.assign(record.chargeback, {status: resolution, resolvedAt: isoSeconds(now)});
  recordChange(record.chargeback, now);
  if (resolution === 'WON') {
    post(tx, state, {
      currency: amount.currency,
      legs: {frozen: -amount.value, available: amount.value},
      memo: `chargeback ${chargebackId} won: amount released`,
    });
  } else {
    post(tx, state, {
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
  tx.touch(state, 'chargeback', chargebackId);
  const order = state.orders.get(record.chargeback.merchantOrderNo);
  if (order) refreshOrderAmounts(tx, state, order);
  emit(tx, state, `CHARGEBACK.${resolution}`, record.chargeback, {order: record.chargeback.merchantOrderNo});
  return record.chargeback as unknown as Json;
}
