/** Payouts (wallet transfers, bank transfers, card payouts): create, query, list, and the completion and bank-return jobs. */
import {isoSeconds} from '../clock';
import {randomId} from '../ids';
import {payoutOutcome} from '../rules/payoutRules';
import {findBankAccount, findPayoutCard} from '../rules/rules';
import type {Corridor} from '../rules/types';
import type {JobRecord, Json, JsonObject, MerchantState, Money, PayoutKind, PayoutRecord} from '../state';
import {reject, type Reply, transition, type Tx} from '../tx';
import {maskCard, maskTail, money, msPerSecond, recordChange} from '../values';
import {emit} from './events';
import {available, post} from './ledger';
import {checkCurrency} from './orders';

export function payoutsOf(tx: Tx, state: MerchantState, kind: PayoutKind): JsonObject[] {
  return [...state.payouts.values()].filter((record) => record.kind === kind).map((record) => record.payout);
}

export function findPayout(tx: Tx, state: MerchantState, kind: PayoutKind, merchantTransferNo: string): PayoutRecord {
  const record = state.payouts.get(merchantTransferNo);
  if (!record || record.kind !== kind)
    return reject('TRANSFER_NOT_FOUND', `No ${kind.toLowerCase()} payout ${merchantTransferNo} exists, yet.`);
  return record;
}

export function payoutFeeOf(tx: Tx, kind: 'WALLET' | 'BANK' | 'BANK_CROSS_CURRENCY' | 'CARD', currency: string): number {
  return tx.spec.sandbox.pricing.payoutFees[kind][currency] ?? 0;
}

/** What a payout's product decides: the outcome, the fee, and the product's own members of the payout. */
interface PayoutTerms {
  outcome: ReturnType<typeof payoutOutcome>;
  fee: number;
  extra: JsonObject;
}

function checkPayoutLimit(tx: Tx, amount: Money): void {
  const data = tx.spec.sandbox;
  if (amount.value > data.limits.maxAmount)
    reject(
      data.limits.exceeded.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED',
      `The largest sandbox payout is ${data.limits.maxAmount} minor units.`,
    );
}

function walletPayout(tx: Tx, body: JsonObject, amount: Money): PayoutTerms {
  const payee = body['payee'] as JsonObject;
  checkPayoutLimit(tx, amount);
  const outcome = payoutOutcome(tx.spec.sandbox, {
    product: 'WALLET',
    amount,
    payee: {
      ...(typeof payee['walletId'] === 'string' ? {walletId: payee['walletId']} : {}),
      ...(typeof payee['phoneNumber'] === 'string' ? {phoneNumber: payee['phoneNumber']} : {}),
    },
  });
  const extra = {payee, ...(typeof body['remark'] === 'string' ? {remark: body['remark']} : {})};
  return {outcome, fee: payoutFeeOf(tx, 'WALLET', amount.currency), extra};
}

function cardPayout(tx: Tx, body: JsonObject, amount: Money): PayoutTerms {
  const data = tx.spec.sandbox;
  const card = body['card'] as JsonObject;
  const number = String(card['cardNumber']);
  checkPayoutLimit(tx, amount);
  const outcome = payoutOutcome(data, {product: 'CARD', amount, cardNumber: number});
  const fee = payoutFeeOf(tx, 'CARD', amount.currency);
  const known = findPayoutCard(data, number);
  const extra = {
    maskedCardNumber: maskCard(number),
    cardBrand: known?.brand ?? 'OTHER',
    ...(typeof body['remark'] === 'string' ? {remark: body['remark']} : {}),
  };
  return {outcome, fee, extra};
}

export function createPayout(tx: Tx, state: MerchantState, kind: PayoutKind, body: JsonObject, requestKey: string): Reply {
  const merchantTransferNo = String(body['merchantTransferNo']);
  const existing = state.payouts.get(merchantTransferNo);
  if (existing) {
    if (existing.kind !== kind || existing.requestKey !== requestKey) {
      reject(
        'IDEMPOTENCY_CONFLICT',
        existing.kind !== kind
          ? `${merchantTransferNo} is already a ${existing.kind.toLowerCase()} payout.`
          : `Payout ${merchantTransferNo} was requested with a different body.`,
      );
    }
    return {code: 'SUCCESS', data: existing.payout, headers: {'Idempotent-Replayed': 'true'}};
  }
  const amount = body['amount'] as unknown as Money;
  checkCurrency(tx, state, amount.currency, 'payouts');
  const now = tx.clock.now();
  const {outcome, fee, extra} =
    kind === 'WALLET'
      ? walletPayout(tx, body, amount)
      : kind === 'CARD'
        ? cardPayout(tx, body, amount)
        : bankPayout(tx, state, body, amount);
  if (!outcome.accepted) return reject(outcome.resultCode, `Rejected by the sandbox (${outcome.because}).`);
  if (available(tx, state, amount.currency) < amount.value + fee)
    reject('INSUFFICIENT_BALANCE', `The available ${amount.currency} balance does not cover ${amount.value} plus the fee of ${fee}.`);
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
  tx.put(state, 'payout', merchantTransferNo, payout);
  post(tx, state, {
    currency: amount.currency,
    legs: {available: -(amount.value + fee), frozen: amount.value + fee},
    memo: `payout ${merchantTransferNo} reserved`,
  });
  tx.schedule({
    at: now + outcome.processingSeconds * msPerSecond,
    clientId: state.merchant.clientId,
    kind: 'payout.complete',
    ref: merchantTransferNo,
    data: {
      status: outcome.status,
      failureCode: outcome.failureCode ?? null,
      returnedAfterSeconds: outcome.returnedAfterSeconds ?? null,
      returnFailureCode: outcome.returnFailureCode ?? null,
    },
  });
  return {code: 'SUCCESS', data: payout.payout};
}

export function bankPayout(tx: Tx, state: MerchantState, body: JsonObject, amount: Money): PayoutTerms {
  const data = tx.spec.sandbox;
  const beneficiary = body['beneficiary'] as JsonObject;
  const account = beneficiary['account'] as JsonObject;
  const country = String(beneficiary['country']);
  const quoteId = typeof body['quoteId'] === 'string' ? body['quoteId'] : undefined;
  const known = findBankAccount(data, {
    ...(typeof account['iban'] === 'string' ? {iban: account['iban']} : {}),
    ...(typeof account['accountNumber'] === 'string'
      ? {accountNumber: account['accountNumber'], routingCode: String(account['routingCode'])}
      : {}),
  });
  const corridor = corridorOf(tx, body, country);
  const {destinationAmount, rate} = destinationOf(tx, state, body, amount, corridor, country);
  if (destinationAmount < corridor.minAmount || destinationAmount > corridor.maxAmount) {
    reject(
      data.corridors.outOfRange.resultCode ?? 'AMOUNT_LIMIT_EXCEEDED',
      `Transfers to ${country} in ${corridor.currency} are ${corridor.minAmount} to ${corridor.maxAmount} minor units.`,
    );
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
        ...(typeof account['accountNumber'] === 'string'
          ? {accountNumber: account['accountNumber'], routingCode: String(account['routingCode'])}
          : {}),
      },
    },
  });
  const fee =
    quoteId !== undefined
      ? (state.quotes.get(quoteId)?.quote.fee.value ?? 0)
      : payoutFeeOf(tx, corridor.currency !== amount.currency ? 'BANK_CROSS_CURRENCY' : 'BANK', amount.currency);
  const accountText = typeof account['iban'] === 'string' ? account['iban'] : String(account['accountNumber']);
  const extra: JsonObject = {
    destinationAmount: money(destinationAmount, corridor.currency) as unknown as Json,
    ...(rate !== undefined ? {rate} : {}),
    ...(quoteId !== undefined ? {quoteId} : {}),
    beneficiary: {
      name,
      country,
      accountType: account['accountType'] === 'IBAN' ? 'IBAN' : 'ACCOUNT_NUMBER',
      maskedAccount: maskTail(accountText),
    },
    purpose: String(body['purpose']),
    ...(typeof body['remark'] === 'string' ? {remark: body['remark']} : {}),
  };
  void known;
  return {outcome, fee, extra};
}

/** The corridor a bank payout goes by: the country's, in destinationCurrency or its only currency. */
function corridorOf(tx: Tx, body: JsonObject, country: string): Corridor {
  const data = tx.spec.sandbox;
  const corridorsOfCountry = data.corridors.corridors.filter((corridor) => corridor.country === country);
  if (corridorsOfCountry.length === 0)
    reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No bank payout corridor to ${country}.`);
  let destinationCurrency = typeof body['destinationCurrency'] === 'string' ? body['destinationCurrency'] : undefined;
  if (destinationCurrency === undefined) {
    if (corridorsOfCountry.length > 1)
      reject('INVALID_PARAMETER', `destinationCurrency is required: ${country} has more than one corridor currency.`);
    destinationCurrency = corridorsOfCountry[0]?.currency;
  }
  const corridor = corridorsOfCountry.find((candidate) => candidate.currency === destinationCurrency);
  return (
    corridor ??
    reject(data.corridors.unsupported.resultCode ?? 'CORRIDOR_NOT_SUPPORTED', `No corridor to ${country} in ${destinationCurrency ?? ''}.`)
  );
}

/** What the payee receives: the amount itself in one currency, or what the quote promised across currencies. */
function destinationOf(
  tx: Tx,
  state: MerchantState,
  body: JsonObject,
  amount: Money,
  corridor: Corridor,
  country: string,
): {destinationAmount: number; rate: string | undefined} {
  const quoteId = typeof body['quoteId'] === 'string' ? body['quoteId'] : undefined;
  const cross = corridor.currency !== amount.currency;
  let destinationAmount = amount.value;
  let rate: string | undefined;
  if (quoteId !== undefined) {
    const quote = state.quotes.get(quoteId);
    if (!quote) return reject('QUOTE_EXPIRED', `Quote ${quoteId} is unknown or expired.`);
    if (quote.expiresAtMs < tx.clock.now())
      reject('QUOTE_EXPIRED', `Quote ${quoteId} expired at ${isoSeconds(quote.expiresAtMs)}; get a new one from Rate calculator.`);
    if (
      quote.quote.sourceAmount.value !== amount.value ||
      quote.quote.sourceAmount.currency !== amount.currency ||
      quote.quote.destinationAmount.currency !== corridor.currency ||
      quote.destinationCountry !== country
    ) {
      reject(
        'QUOTE_MISMATCH',
        `Quote ${quoteId} was made for another amount, currency or country; send the transfer the quote describes, or get a new quote.`,
      );
    }
    destinationAmount = quote.quote.destinationAmount.value;
    rate = quote.quote.rate;
  } else if (cross) {
    reject(
      'INVALID_PARAMETER',
      `quoteId is required: ${amount.currency} to ${corridor.currency} is a cross-currency transfer. Get one from Rate calculator.`,
    );
  }
  return {destinationAmount, rate};
}

export function completePayout(tx: Tx, state: MerchantState, job: JobRecord): void {
  const record = state.payouts.get(job.ref);
  if (!record || record.payout.status !== 'PROCESSING') return;
  const status = String(job.data?.['status'] ?? 'SUCCEEDED');
  const machine = record.kind === 'WALLET' ? 'TransferStatus' : record.kind === 'BANK' ? 'BankTransferStatus' : 'CardPayoutStatus';
  transition(tx, machine, 'PROCESSING', status);
  const now = tx.clock.now();
  const {amount, fee} = record.payout;
  Object.assign(record.payout, {status, completedAt: isoSeconds(now)});
  recordChange(record.payout, now);
  const product = record.kind === 'WALLET' ? 'TRANSFER' : record.kind === 'BANK' ? 'BANK_TRANSFER' : 'CARD_PAYOUT';
  if (status === 'SUCCEEDED') {
    post(tx, state, {
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
      tx.schedule({
        at: now + returnedAfter * msPerSecond,
        clientId: state.merchant.clientId,
        kind: 'bank.return',
        ref: record.payout.merchantTransferNo,
        data: {failureCode: job.data?.['returnFailureCode'] ?? 'PAYEE_ACCOUNT_INVALID'},
      });
    }
  } else {
    const failureCode = String(job.data?.['failureCode'] ?? 'PAYEE_ACCOUNT_INVALID');
    Object.assign(record.payout, {failureCode, failureReason: `The payout failed in the sandbox (${failureCode}).`});
    post(tx, state, {
      currency: amount.currency,
      legs: {frozen: -(amount.value + fee.value), available: amount.value + fee.value},
      memo: `payout ${record.payout.merchantTransferNo} failed: reservation released`,
    });
  }
  tx.touch(state, 'payout', record.payout.merchantTransferNo);
  emit(tx, state, `${product}.${status}`, record.payout, {payout: record.payout.merchantTransferNo});
}

export function returnBankTransfer(tx: Tx, state: MerchantState, job: JobRecord): void {
  const record = state.payouts.get(job.ref);
  if (!record || record.kind !== 'BANK' || record.payout.status !== 'SUCCEEDED') return;
  transition(tx, 'BankTransferStatus', 'SUCCEEDED', 'RETURNED');
  const now = tx.clock.now();
  const failureCode = String(job.data?.['failureCode'] ?? 'PAYEE_ACCOUNT_INVALID');
  Object.assign(record.payout, {
    status: 'RETURNED',
    returnedAt: isoSeconds(now),
    failureCode,
    failureReason: 'The receiving bank returned the funds (sandbox).',
  });
  recordChange(record.payout, now);
  const amount = record.payout.amount;
  post(tx, state, {
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
  tx.touch(state, 'payout', record.payout.merchantTransferNo);
  emit(tx, state, 'BANK_TRANSFER.RETURNED', record.payout, {payout: record.payout.merchantTransferNo});
}
