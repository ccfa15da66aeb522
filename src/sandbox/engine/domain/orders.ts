/** Orders: Create order and its next action, Query order, Cancel order, Adjust expiry, Get cashier URL, payer details, the status machine and the expiry job. */
import {isoSeconds} from '../clock';
import {randomDigits, randomId, randomToken} from '../ids';
import {
  type AttemptResult,
  createOrderOutcome,
  findAgreementToken,
  findWallet,
  paymentAttemptOutcome,
  paymentRuleFor,
} from '../rules/rules';
import type {Wallet} from '../rules/types';
import type {JobRecord, Json, JsonObject, MerchantState, Money, OrderRecord} from '../state';
import {reject, type Reply, transition, type Tx} from '../tx';
import {amountsOf, isObject, isRealTimestamp, money, msPerSecond, processingMessage, recordChange} from '../values';
import {emit} from './events';
import {startAttempt} from './payments';

/**
 * E-wallet: a desktop browser (`WEB`) is sent to the cashier, which shows a QR code for the wallet app;
 * a phone (`MOBILE_WEB`, `APP`) switches to the app by the documented deep link, with the cashier as fallback.
 */
export function ewalletNextAction(terminalType: Json | undefined, cashierUrl: string, session: string): JsonObject {
  if (terminalType === 'WEB') return {type: 'REDIRECT', cashierUrl};
  return {type: 'APP_SWITCH', deepLink: `veloxapay://pay?session=${session}`, fallbackUrl: cashierUrl};
}

const paymentReferenceDigits = 12;

export function findOrder(tx: Tx, state: MerchantState, merchantOrderNo: string): OrderRecord {
  const record = state.orders.get(merchantOrderNo);
  if (!record) return reject('ORDER_NOT_FOUND', `No order ${merchantOrderNo} exists, yet, for ${state.merchant.clientId}.`);
  return record;
}

/** Recomputes refundedAmount, refundableAmount and disputedAmount from the order's refunds and chargebacks. */
export function refreshAmounts(tx: Tx, state: MerchantState, record: OrderRecord): void {
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
    if (chargeback.chargeback.merchantOrderNo === order.merchantOrderNo && chargeback.chargeback.status !== 'WON')
      disputed += chargeback.chargeback.amount.value;
  }
  const paid = ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(order.status);
  order['refundedAmount'] = money(succeeded, currency) as unknown as Json;
  order['refundableAmount'] = money(
    paid ? Math.max(0, order.amount.value - succeeded - processing - disputed) : 0,
    currency,
  ) as unknown as Json;
  if (disputed > 0 || order['disputedAmount'] !== undefined) order['disputedAmount'] = money(disputed, currency) as unknown as Json;
}

/**
 * Recomputes the order's amounts after a refund or chargeback moved, and moves it to the status `next`
 * names (from the refunded amount), if any: one change of the order (one version) when anything moved.
 */
export function refreshOrderAmounts(tx: Tx, state: MerchantState, record: OrderRecord, next?: (refunded: number) => string): void {
  const before = amountsOf(record.order);
  refreshAmounts(tx, state, record);
  const status = next?.((record.order['refundedAmount'] as unknown as Money).value) ?? record.order.status;
  if (status !== record.order.status) {
    setOrderStatus(tx, state, record, status);
    return;
  }
  if (amountsOf(record.order) !== before) recordChange(record.order, tx.clock.now());
  tx.touch(state, 'order', record.order.merchantOrderNo);
}

export function setOrderStatus(tx: Tx, state: MerchantState, record: OrderRecord, to: string, changes: JsonObject = {}): void {
  const from = record.order.status;
  if (from !== to) transition(tx, 'OrderStatus', from, to);
  Object.assign(record.order, changes, {status: to});
  recordChange(record.order, tx.clock.now());
  refreshAmounts(tx, state, record);
  tx.touch(state, 'order', record.order.merchantOrderNo);
}

/** The record of a new PENDING order: the order as the API shows it, what the payer does next, and where to notify. */
function newOrderRecord(tx: Tx, body: JsonObject, requestKey: string): OrderRecord {
  const merchantOrderNo = String(body['merchantOrderNo']);
  const amount = body['amount'] as unknown as Money;
  const scene = String(body['scene']);
  const now = tx.clock.now();
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
  return {
    order,
    requestKey,
    nextAction: nextAction(tx, scene, orderId, body, now),
    ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
    ...(typeof body['storeId'] === 'string' ? {storeId: body['storeId']} : {}),
  };
}

export function createOrder(tx: Tx, state: MerchantState, body: JsonObject, requestKey: string): Reply {
  const data = tx.spec.sandbox;
  const merchantOrderNo = String(body['merchantOrderNo']);
  const amount = body['amount'] as unknown as Money;
  const scene = String(body['scene']);
  if (state.tombstones.has(merchantOrderNo)) reject('ORDER_CLOSED', `Order number ${merchantOrderNo} was blocked by Revoke order.`);
  const existing = state.orders.get(merchantOrderNo);
  if (existing) {
    if (existing.requestKey !== requestKey) reject('IDEMPOTENCY_CONFLICT', `Order ${merchantOrderNo} was created with a different body.`);
    return {code: 'SUCCESS', data: {order: existing.order, nextAction: existing.nextAction}, headers: {'Idempotent-Replayed': 'true'}};
  }
  checkCurrency(tx, state, amount.currency, 'payments');
  if (amount.value > data.limits.maxAmount)
    reject(
      data.limits.exceeded.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED',
      `The largest sandbox order is ${data.limits.maxAmount} minor units.`,
    );
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
  const record = newOrderRecord(tx, body, requestKey);
  if (record.nextAction['type'] === 'CASH_CODE') record.paymentReference = String(record.nextAction['paymentReference']);
  tx.put(state, 'order', merchantOrderNo, record);
  tx.schedule({
    at: Date.parse(record.order.expiresAt),
    clientId: state.merchant.clientId,
    kind: 'order.expire',
    ref: merchantOrderNo,
    data: {expiresAt: record.order.expiresAt},
  });
  if (attempt) {
    const wallet = walletForScene(tx, state, body);
    startAttempt(tx, state, record, attempt, 'WALLET', wallet);
  }
  // The Create order endings (92) apply in every scene, tokens issued in this sandbox included.
  const endingRule = paymentRuleFor(data, amount.value);
  const holdSeconds = outcome.accepted
    ? outcome.responseDelaySeconds
    : endingRule.at === 'CREATE_ORDER' && endingRule.kind === 'DELAYED'
      ? (endingRule.responseDelaySeconds ?? 0)
      : 0;
  return {code: 'SUCCESS', data: {order: record.order, nextAction: record.nextAction}, ...(holdSeconds > 0 ? {holdSeconds} : {})};
}

export function walletForScene(tx: Tx, state: MerchantState, body: JsonObject): Wallet | undefined {
  const data = tx.spec.sandbox;
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
export function checkCurrency(tx: Tx, state: MerchantState, currency: string, use: 'payments' | 'payouts'): void {
  const enabled = tx.spec.sandbox.currencies[use];
  if (!enabled.includes(currency)) {
    reject(
      tx.spec.sandbox.currencies.notEnabled.resultCode ?? 'PERMISSION_DENIED',
      `${currency} is not enabled for ${use === 'payments' ? 'orders' : 'payouts'} of ${state.merchant.clientId}: sandbox merchants take ${enabled.join(', ')}.`,
    );
  }
}

export function nextAction(tx: Tx, scene: string, orderId: string, body: JsonObject, now: number): JsonObject {
  const session = randomToken(16);
  const cashier = `https://${tx.hosts.cashier}/pay/${orderId}?t=${session}`;
  switch (scene) {
    case 'HOSTED_PAYPAGE':
      return {type: 'REDIRECT', cashierUrl: cashier};
    case 'IFRAME_PAYPAGE':
      return {type: 'IFRAME', cashierUrl: cashier};
    case 'IN_APP_SDK':
      return {type: 'SDK', sdkOrderString: `vx1.${orderId}.${randomToken(32)}`};
    case 'DYNAMIC_QR': {
      const seconds = typeof body['qrExpiresInSeconds'] === 'number' ? body['qrExpiresInSeconds'] : tx.spec.qrExpiresDefaultSeconds;
      return {
        type: 'QR_CODE',
        qrContent: `https://${tx.hosts.cashier}/qr/${orderId}`,
        qrExpiresAt: isoSeconds(now + seconds * msPerSecond),
      };
    }
    case 'JSAPI':
      return {
        type: 'JSAPI',
        jsapiParams: {
          walletAppId: String(body['walletAppId']),
          prepayId: randomId('pre_', 20),
          timestamp: String(Math.floor(now / msPerSecond)),
          nonce: randomToken(16),
          signature: randomToken(43),
        },
      };
    case 'EWALLET':
      return ewalletNextAction(body['terminalType'], cashier, session);
    case 'CASH_TOP_UP':
      return {
        type: 'CASH_CODE',
        paymentReference: randomDigits(paymentReferenceDigits),
        expiresAt: isoSeconds(now + (typeof body['expiresInSeconds'] === 'number' ? body['expiresInSeconds'] : 1800) * msPerSecond),
      };
    default:
      return {type: 'NONE'};
  }
}

export function retrieveOrderPayer(tx: Tx, state: MerchantState, merchantOrderNo: string): Reply {
  const record = findOrder(tx, state, merchantOrderNo);
  if (!['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(record.order.status) || !record.payer)
    return reject('ORDER_NOT_PAID', `Order ${merchantOrderNo} is ${record.order.status}: the payer is known once it is paid.`);
  return {code: 'SUCCESS', data: {merchantOrderNo, ...record.payer} as unknown as Json};
}

export function closeOrder(tx: Tx, state: MerchantState, record: OrderRecord, reason: 'CANCELLED' | 'REVOKED' | 'EXPIRED'): void {
  const now = isoSeconds(tx.clock.now());
  setOrderStatus(tx, state, record, 'CLOSED', {closedAt: now, closeReason: reason});
  emit(tx, state, 'ORDER.CLOSED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
}

export function cancelOrder(tx: Tx, state: MerchantState, merchantOrderNo: string): Reply {
  const record = findOrder(tx, state, merchantOrderNo);
  const status = record.order.status;
  if (status === 'PROCESSING') reject('ORDER_PROCESSING', processingMessage(merchantOrderNo));
  if (['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'].includes(status))
    reject('ORDER_ALREADY_PAID', `Order ${merchantOrderNo} is ${status}: a paid order cannot be cancelled; refund it instead.`);
  if (status === 'PENDING') closeOrder(tx, state, record, 'CANCELLED');
  // Cancelling a closed order again returns it as it is.
  return {code: 'SUCCESS', data: record.order};
}

export function adjustExpiry(tx: Tx, state: MerchantState, merchantOrderNo: string, body: JsonObject): Reply {
  const record = findOrder(tx, state, merchantOrderNo);
  const status = record.order.status;
  if (status === 'CLOSED') reject('ORDER_CLOSED', `Order ${merchantOrderNo} is CLOSED: its expiry can no longer change.`);
  if (!['PENDING', 'PROCESSING'].includes(status))
    reject('ORDER_ALREADY_PAID', `Order ${merchantOrderNo} is ${status}: a paid order has no expiry to adjust.`);
  const expiresAt = String(body['expiresAt']);
  if (!isRealTimestamp(expiresAt)) reject('INVALID_PARAMETER', 'expiresAt must be YYYY-MM-DDTHH:MM:SSZ naming a real instant.');
  const at = Date.parse(expiresAt);
  const now = tx.clock.now();
  const {expiryMinSeconds, expiryMaxDays} = tx.spec.timeLimits;
  if (at < now + expiryMinSeconds * msPerSecond || at > Date.parse(record.order.createdAt) + expiryMaxDays * 86400 * msPerSecond) {
    reject(
      'EXPIRY_OUT_OF_RANGE',
      `Choose an expiry between now plus ${expiryMinSeconds} seconds and ${expiryMaxDays} days after the order was created.`,
    );
  }
  setOrderStatus(tx, state, record, status, {expiresAt});
  tx.schedule({at, clientId: state.merchant.clientId, kind: 'order.expire', ref: merchantOrderNo, data: {expiresAt}});
  return {code: 'SUCCESS', data: record.order};
}

export function getCashierUrl(tx: Tx, state: MerchantState, merchantOrderNo: string, body: JsonObject | undefined): Reply {
  const record = findOrder(tx, state, merchantOrderNo);
  const status = record.order.status;
  if (status === 'CLOSED') reject('ORDER_CLOSED', `Order ${merchantOrderNo} is CLOSED: create a new order for another attempt.`);
  if (status === 'PROCESSING') reject('ORDER_PROCESSING', processingMessage(merchantOrderNo));
  if (status !== 'PENDING') reject('ORDER_ALREADY_PAID', `Order ${merchantOrderNo} is ${status}: it needs no cashier.`);
  if (!['HOSTED_PAYPAGE', 'IFRAME_PAYPAGE', 'EWALLET'].includes(String(record.order['scene']))) {
    reject(
      'INVALID_PARAMETER',
      `Get cashier URL is for HOSTED_PAYPAGE, IFRAME_PAYPAGE and EWALLET orders; ${merchantOrderNo} is ${String(record.order['scene'])}.`,
    );
  }
  const locale = typeof body?.['locale'] === 'string' ? `&locale=${body['locale']}` : '';
  const expiresAt = Math.min(tx.clock.now() + tx.spec.timeLimits.cashierUrlSeconds * msPerSecond, Date.parse(record.order.expiresAt));
  return {
    code: 'SUCCESS',
    data: {
      merchantOrderNo,
      cashierUrl: `https://${tx.hosts.cashier}/pay/${record.order.orderId}?t=${randomToken(16)}${locale}`,
      expiresAt: isoSeconds(expiresAt),
    },
  };
}

export function expireOrder(tx: Tx, state: MerchantState, job: JobRecord): void {
  const record = state.orders.get(job.ref);
  if (!record || record.order.expiresAt !== job.data?.['expiresAt']) return;
  if (record.order.status === 'PENDING') closeOrder(tx, state, record, 'EXPIRED');
}
