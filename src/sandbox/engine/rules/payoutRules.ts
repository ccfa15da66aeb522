/**
 * The payout rules of api/sandbox.yaml: a wallet transfer, bank transfer or card payout, decided by the payee's
 * fixture and the amount ending in the order of payouts.precedence. Split from ./rules by topic.
 */
import {
  findBankAccount,
  findPayoutCard,
  findWallet,
  ibanCheckDigitsValid,
  payoutRuleFor,
  rejection,
  type AsyncAccepted,
  type Rejection,
} from './rules';
import type {Outcome, PayoutProduct, PayoutProductName, SandboxData} from './types';

export type PayoutRequest =
  | {
      readonly product: 'WALLET';
      readonly amount: {readonly value: number; readonly currency: string};
      readonly payee: {readonly walletId?: string; readonly phoneNumber?: string};
    }
  | {
      readonly product: 'BANK';
      readonly amount: {readonly value: number; readonly currency: string};
      readonly destinationCurrency?: string;
      readonly beneficiary: {
        readonly name?: string;
        readonly account: {readonly iban?: string; readonly accountNumber?: string; readonly routingCode?: string};
      };
    }
  | {readonly product: 'CARD'; readonly amount: {readonly value: number; readonly currency: string}; readonly cardNumber: string};

export function payoutProduct(data: SandboxData, product: PayoutProductName): PayoutProduct {
  const found = data.payouts.products.find((candidate) => candidate.product === product);
  if (!found) throw new Error(`The sandbox data has no payout product ${product}.`);
  return found;
}

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The payee's own behavior, or the rejection it causes (payouts.precedence, step PAYEE_REJECTION). */
function payeeBehavior(data: SandboxData, request: PayoutRequest): Rejection | {readonly outcome?: Outcome; readonly because: string} {
  switch (request.product) {
    case 'WALLET': {
      const by = {
        ...(request.payee.walletId !== undefined ? {walletId: request.payee.walletId} : {}),
        ...(request.payee.phoneNumber !== undefined ? {phone: request.payee.phoneNumber} : {}),
      };
      const wallet = findWallet(data, by);
      const label = `wallet ${request.payee.walletId ?? request.payee.phoneNumber ?? '(none)'}`;
      if (!wallet) return rejection(data.walletRules.transfers.unknownPayee, label);
      if (wallet.currency !== request.amount.currency)
        return rejection(data.walletRules.transfers.currencyMismatch, `${label} (holds ${wallet.currency})`);
      return wallet.status === 'FROZEN' ? {outcome: data.walletRules.transfers.frozen, because: `${label} (frozen)`} : {because: label};
    }
    case 'BANK': {
      const {account, name} = request.beneficiary;
      const label = `account ${account.iban ?? `${account.accountNumber ?? ''}/${account.routingCode ?? ''}`}`;
      if (account.iban !== undefined && !ibanCheckDigitsValid(account.iban)) return rejection(data.bankAccounts.invalidIban, label);
      const found = findBankAccount(data, account);
      if (!found) return rejection(data.bankAccounts.unknownAccount, label);
      if (found.behavior.kind === 'REJECTED') return rejection(found.behavior, label);
      if (found.holderName !== undefined && name !== undefined && !sameName(found.holderName, name))
        return rejection(data.bankAccounts.nameMismatch, `${label} (holder ${found.holderName})`);
      // Without destinationCurrency the country's one corridor currency is used: the account's own, in the sandbox.
      if (request.destinationCurrency !== undefined && request.destinationCurrency !== found.currency) {
        return rejection(data.bankAccounts.currencyMismatch, `${label} (holds ${found.currency})`);
      }
      return {outcome: found.behavior, because: label};
    }
    case 'CARD': {
      const card = findPayoutCard(data, request.cardNumber);
      const label = `card ${request.cardNumber}`;
      if (!card) return rejection(data.payoutCards.unknownCard.payout, label);
      if (card.payout.kind === 'REJECTED') return rejection(card.payout, label);
      return {outcome: card.payout, because: label};
    }
  }
}

/** A wallet transfer, bank transfer or card payout, in the order of payouts.precedence. */
export function payoutOutcome(data: SandboxData, request: PayoutRequest): Rejection | AsyncAccepted {
  const product = payoutProduct(data, request.product);
  const payee = payeeBehavior(data, request);
  if ('accepted' in payee) return payee;
  const rule = payoutRuleFor(data, request.amount.value);
  if (rule.kind === 'REJECTED') return {accepted: false, resultCode: rule.resultCode ?? 'UNKNOWN', because: `ending ${rule.ending}`};
  const eventFor = (status: string) => product.events[status as 'SUCCEEDED' | 'FAILED'];
  if (payee.outcome?.kind === 'FAILED') {
    return {
      accepted: true,
      status: 'FAILED',
      ...(payee.outcome.failureCode ? {failureCode: payee.outcome.failureCode} : {}),
      processingSeconds: payee.outcome.processingSeconds ?? product.processingSeconds,
      events: [eventFor('FAILED')],
      because: payee.because,
    };
  }
  if (rule.kind === 'FAILED') {
    return {
      accepted: true,
      status: 'FAILED',
      ...(rule.failureCode ? {failureCode: rule.failureCode} : {}),
      processingSeconds: rule.processingSeconds ?? product.processingSeconds,
      events: [eventFor('FAILED')],
      because: `ending ${rule.ending}`,
    };
  }
  const returned = payee.outcome?.returnedAfterSeconds;
  return {
    accepted: true,
    status: 'SUCCEEDED',
    processingSeconds: rule.processingSeconds ?? payee.outcome?.processingSeconds ?? product.processingSeconds,
    events: returned !== undefined && product.events.RETURNED ? [eventFor('SUCCEEDED'), product.events.RETURNED] : [eventFor('SUCCEEDED')],
    ...(returned !== undefined
      ? {returnedAfterSeconds: returned, ...(payee.outcome?.returnFailureCode ? {returnFailureCode: payee.outcome.returnFailureCode} : {})}
      : {}),
    because: rule.ending === data.payouts.endings.default ? payee.because : `ending ${rule.ending}, ${payee.because}`,
  };
}
