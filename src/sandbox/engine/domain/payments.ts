/** Payment attempts: started by Create order or by the shopper (cashier, cash, QR), resolved now or by a job, and what a paid order books. */
import type {PaymentMethodChoice} from '../api';
import {isoSeconds, utcDay} from '../clock';
import {
  type AttemptResult,
  type ChallengeAnswer,
  challengeRefusal,
  findPaymentCard,
  findWallet,
  paymentAttemptOutcome,
  paymentFee,
  threeDSecureStep,
} from '../rules/rules';
import type {Wallet} from '../rules/types';
import type {JobRecord, Json, JsonObject, MerchantState, OrderRecord} from '../state';
import {reject, type Tx} from '../tx';
import {maskCard, maskTail, money, msPerSecond} from '../values';
import {emit} from './events';
import {post} from './ledger';
import {findOrder, setOrderStatus} from './orders';

/** Starts a payment attempt: decided now, or PROCESSING with a job that resolves it. */
export function startAttempt(
  tx: Tx,
  state: MerchantState,
  record: OrderRecord,
  attempt: AttemptResult,
  method: string,
  wallet: Wallet | undefined,
  card?: string,
): void {
  const now = isoSeconds(tx.clock.now());
  if (attempt.kind === 'UNANSWERED' && attempt.orderStatus === 'PENDING') return; // the payer's side just waits
  const payer = payerRecord(tx, method, wallet, card);
  if (attempt.orderStatus === 'PROCESSING' || attempt.processingSeconds > 0) {
    setOrderStatus(tx, state, record, 'PROCESSING', {
      paymentMethod: method,
      lastAttempt: {status: 'PROCESSING', paymentMethod: method, at: now},
    });
    record.payer = payer;
    tx.schedule({
      at: tx.clock.now() + attempt.processingSeconds * msPerSecond,
      clientId: state.merchant.clientId,
      kind: 'attempt.resolve',
      ref: record.order.merchantOrderNo,
      data: {finalStatus: attempt.finalOrderStatus, failureCode: attempt.failureCode ?? null, method, attemptAt: now},
    });
    return;
  }
  if (attempt.attemptStatus === 'SUCCEEDED') {
    record.payer = payer;
    markPaid(tx, state, record, method);
  } else {
    setOrderStatus(tx, state, record, record.order.status, {
      lastAttempt: {
        status: 'FAILED',
        paymentMethod: method,
        failureCode: attempt.failureCode ?? 'PAYER_DECLINED',
        failureReason: `Declined in the sandbox (${attempt.because}).`,
        at: now,
      },
    });
    emit(tx, state, 'ORDER.PAYMENT_FAILED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
  }
}

export function payerRecord(tx: Tx, method: string, wallet: Wallet | undefined, card?: string): OrderRecord['payer'] {
  if (method === 'CARD' && card) {
    const found = findPaymentCard(tx.spec.sandbox, card);
    return {paymentMethod: 'CARD', maskedAccount: maskCard(card), cardBrand: found?.brand ?? 'OTHER', country: 'DE'};
  }
  if (method === 'WALLET' && wallet)
    return {
      paymentMethod: 'WALLET',
      maskedAccount: maskTail(wallet.phone.slice(1)),
      payerName: `Wallet ${wallet.phone.slice(-4)}`,
      country: 'US',
    };
  if (method === 'BANK_TRANSFER')
    return {paymentMethod: 'BANK_TRANSFER', maskedAccount: '******3000', payerName: 'Sandbox payer', country: 'DE'};
  return {paymentMethod: method, maskedAccount: '****0000'};
}

export function markPaid(tx: Tx, state: MerchantState, record: OrderRecord, method: string): void {
  const now = tx.clock.now();
  const amount = record.order.amount;
  const fee = paymentFee(tx.spec.sandbox, amount.value);
  // The order reports the fee and net amount its statement row books (issue 29, I-12).
  setOrderStatus(tx, state, record, 'PAID', {
    paymentMethod: method,
    paidAt: isoSeconds(now),
    fee: money(fee, amount.currency),
    netAmount: money(amount.value - fee, amount.currency),
    lastAttempt: {status: 'SUCCEEDED', paymentMethod: method, at: isoSeconds(now)},
  });
  const entry = post(tx, state, {
    currency: amount.currency,
    legs: {pending: amount.value - fee},
    availableOn: utcDay(now + tx.spec.sandbox.pricing.settlementDays * 86400 * msPerSecond),
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
  emit(tx, state, 'ORDER.PAID', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
}

export function resolveAttempt(tx: Tx, state: MerchantState, job: JobRecord): void {
  const record = state.orders.get(job.ref);
  if (!record || record.order.status !== 'PROCESSING') return;
  const method = String(job.data?.['method'] ?? 'WALLET');
  const final = String(job.data?.['finalStatus'] ?? 'PAID');
  if (final === 'PAID') {
    markPaid(tx, state, record, method);
    return;
  }
  const now = tx.clock.now();
  const failureCode = String(job.data?.['failureCode'] ?? 'PAYMENT_TIMEOUT');
  const lastAttempt = {
    status: 'FAILED',
    paymentMethod: method,
    failureCode,
    failureReason: 'The payment attempt was not confirmed.',
    at: isoSeconds(now),
  };
  // Before the expiry time the customer may try again; at or after it the order closes (PROCESSING to CLOSED).
  const expired = now >= Date.parse(record.order.expiresAt);
  setOrderStatus(
    tx,
    state,
    record,
    expired ? 'CLOSED' : 'PENDING',
    expired ? {lastAttempt, closedAt: isoSeconds(now), closeReason: 'EXPIRED'} : {lastAttempt},
  );
  emit(tx, state, 'ORDER.PAYMENT_FAILED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
  if (expired) emit(tx, state, 'ORDER.CLOSED', record.order as unknown as JsonObject, {order: record.order.merchantOrderNo});
}

export function shopperPayNow(tx: Tx, state: MerchantState, record: OrderRecord, choice: PaymentMethodChoice): Json {
  const data = tx.spec.sandbox;
  if (record.order.status !== 'PENDING')
    reject(
      record.order.status === 'CLOSED' ? 'ORDER_CLOSED' : 'ORDER_ALREADY_PAID',
      `Order ${record.order.merchantOrderNo} is ${record.order.status}: only a PENDING order can be paid.`,
    );
  const wallet = choice.method === 'WALLET' ? findWallet(data, {phone: choice.phone}) : undefined;
  if (choice.method === 'WALLET' && !wallet) reject('INVALID_PARAMETER', `${choice.phone} is not a sandbox wallet.`);
  const attempt = paymentAttemptOutcome(data, {
    amount: record.order.amount,
    method: choice.method,
    attempt: 'PAYER',
    ...(wallet ? {wallet} : {}),
  });
  startAttempt(tx, state, record, attempt, choice.method, wallet);
  return record.order;
}

/** Refuses to start an attempt on an order that is not PENDING or whose expiry time has passed. */
function refuseUnpayable(tx: Tx, record: OrderRecord): void {
  if (record.order.status !== 'PENDING')
    reject(
      record.order.status === 'CLOSED' ? 'ORDER_CLOSED' : record.order.status === 'PROCESSING' ? 'ORDER_PROCESSING' : 'ORDER_ALREADY_PAID',
      `Order ${record.order.merchantOrderNo} is ${record.order.status}: only a PENDING order can be paid.`,
    );
  if (tx.clock.now() >= Date.parse(record.order.expiresAt)) reject('ORDER_CLOSED', 'The order has expired.');
}

export function payOrder(tx: Tx, state: MerchantState, merchantOrderNo: string, choice: PaymentMethodChoice) {
  const data = tx.spec.sandbox;
  const record = findOrder(tx, state, merchantOrderNo);
  refuseUnpayable(tx, record);
  const scene = data.payments.scenes.find((candidate) => candidate.scene === record.order['scene']);
  if (!scene || scene.attempt !== 'PAYER')
    reject('INVALID_PARAMETER', `${String(record.order['scene'])} orders are paid inside Create order, not by the shopper.`);
  if (!scene?.methods.includes(choice.method))
    reject('INVALID_PARAMETER', `${String(record.order['scene'])} takes ${scene?.methods.join(', ') ?? 'nothing'}, not ${choice.method}.`);
  // A new attempt replaces a challenge the shopper left unanswered.
  if (record.challenge) {
    delete record.challenge;
    tx.touch(state, 'order', record.order.merchantOrderNo);
  }
  let wallet: Wallet | undefined;
  if (choice.method === 'WALLET') {
    wallet = findWallet(data, {phone: choice.phone});
    if (!wallet) reject('INVALID_PARAMETER', `${choice.phone} is not a sandbox wallet.`);
    if (wallet && wallet.pin !== choice.pin) {
      startAttempt(
        tx,
        state,
        record,
        {
          kind: 'DECLINED',
          orderStatus: 'PENDING',
          finalOrderStatus: 'PENDING',
          attemptStatus: 'FAILED',
          failureCode: data.walletRules.payments.wrongPin.failureCode ?? 'PAYER_DECLINED',
          processingSeconds: 0,
          events: [],
          because: 'wrong PIN',
        },
        'WALLET',
        wallet,
      );
      return record.order;
    }
  }
  if (choice.method === 'CARD' && !findPaymentCard(data, choice.cardNumber))
    reject('INVALID_PARAMETER', `${choice.cardNumber} is not a sandbox card; the cashier refuses it.`);
  const card = choice.method === 'CARD' ? findPaymentCard(data, choice.cardNumber) : undefined;
  if (choice.method === 'CARD' && threeDSecureStep(card) === 'CHALLENGE') {
    // The issuer's challenge screen: nothing is attempted, and nobody is notified, until the shopper answers it.
    record.challenge = {cardNumber: choice.cardNumber, startedAt: isoSeconds(tx.clock.now())};
    tx.touch(state, 'order', record.order.merchantOrderNo);
    return record.order;
  }
  const attempt = paymentAttemptOutcome(data, {
    amount: record.order.amount,
    method: choice.method,
    attempt: 'PAYER',
    ...(wallet ? {wallet} : {}),
    ...(card ? {card} : {}),
  });
  startAttempt(tx, state, record, attempt, choice.method, wallet, choice.method === 'CARD' ? choice.cardNumber : undefined);
  return record.order;
}

/** The shopper answers the 3-D Secure challenge of a card attempt (cards.threeDSecure): declined, or paid as the card pays. */
export function answerChallenge(tx: Tx, state: MerchantState, merchantOrderNo: string, answer: ChallengeAnswer) {
  const data = tx.spec.sandbox;
  const record = findOrder(tx, state, merchantOrderNo);
  const challenge = record.challenge;
  if (!challenge)
    return reject('INVALID_PARAMETER', `Order ${merchantOrderNo} has no 3-D Secure challenge waiting: pay it with a challenge card first.`);
  refuseUnpayable(tx, record);
  delete record.challenge;
  tx.touch(state, 'order', merchantOrderNo);
  const card = findPaymentCard(data, challenge.cardNumber);
  if (!card) return reject('INVALID_PARAMETER', `${challenge.cardNumber} is not a sandbox card.`);
  const attempt =
    challengeRefusal(data, card, answer) ??
    paymentAttemptOutcome(data, {amount: record.order.amount, method: 'CARD', attempt: 'PAYER', card});
  startAttempt(tx, state, record, attempt, 'CARD', undefined, challenge.cardNumber);
  return record.order;
}

export function payCash(tx: Tx, state: MerchantState, paymentReference: string) {
  const found = [...state.orders.values()].find((candidate) => candidate.paymentReference === paymentReference);
  if (!found) return reject('ORDER_NOT_FOUND', `No cash order has the payment reference ${paymentReference}.`);
  // Records met while iterating are the committed, frozen ones: the call edits its own copy, by number.
  return shopperPayNow(tx, state, findOrder(tx, state, found.order.merchantOrderNo), {method: 'CASH'});
}

export function scanQr(tx: Tx, state: MerchantState, qrContent: string, wallet: {phone: string; pin: string}) {
  const found = [...state.orders.values()].find((candidate) => candidate.nextAction['qrContent'] === qrContent);
  if (!found) return reject('ORDER_NOT_FOUND', 'No order shows this QR code.');
  const record = findOrder(tx, state, found.order.merchantOrderNo);
  if (typeof record.nextAction['qrExpiresAt'] === 'string' && tx.clock.now() > Date.parse(record.nextAction['qrExpiresAt']))
    reject('ORDER_CLOSED', 'The QR code has expired.');
  return shopperPayNow(tx, state, record, {method: 'WALLET', ...wallet});
}
