/**
 * Carries out the rules of api/sandbox.yaml for one call: which fixture or amount ending decides, and
 * what the call answers, what the object ends as, after how long and with which notifications. The
 * unit tests use it to check the contract's examples against the sandbox; the sandbox engine builds
 * on it. Pure (no React, no DOM, no Node built-ins); the data is assumed checked by the loader.
 */
import type {
  AgreementToken,
  BankAccount,
  Outcome,
  OutcomeKind,
  PaymentCard,
  PaymentEndingRule,
  PaymentMethodRule,
  PayoutCard,
  PayoutEndingRule,
  RefundEndingRule,
  SandboxData,
  Wallet,
} from './types';

/** The last two digits of an amount in minor units: `1051` → `"51"`, `5` → `"05"`. */
export function amountEnding(minorUnits: number): string {
  return String(Math.abs(Math.trunc(minorUnits)) % 100).padStart(2, '0');
}

/** Luhn check digit test of a card number (digits only). */
export function luhnValid(number: string): boolean {
  if (!/^[0-9]{12,19}$/.test(number)) return false;
  let sum = 0;
  [...number].reverse().forEach((digit, index) => {
    let value = Number(digit);
    if (index % 2 === 1) {
      value *= 2;
      if (value > 9) value -= 9;
    }
    sum += value;
  });
  return sum % 10 === 0;
}

/** ISO 13616 check digits (mod 97) of an IBAN without spaces. */
export function ibanCheckDigitsValid(iban: string): boolean {
  if (!/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of rearranged) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

/** A masked number as responses show it (`400000******0002`, `******************3000`): does it hide `full`? */
export function maskMatches(masked: string, full: string): boolean {
  if (masked.length !== full.length) return false;
  return [...masked].every((char, index) => char === '*' || char === full[index]);
}

function ruleFor<Rule extends {readonly ending: string}>(
  table: {readonly default: string; readonly rules: readonly Rule[]},
  ending: string,
): Rule {
  const rule =
    table.rules.find((candidate) => candidate.ending === ending) ?? table.rules.find((candidate) => candidate.ending === table.default);
  if (!rule) throw new Error(`The sandbox data has no rule for the default ending ${table.default}.`);
  return rule;
}

export const paymentRuleFor = (data: SandboxData, minorUnits: number): PaymentEndingRule =>
  ruleFor(data.payments.endings, amountEnding(minorUnits));
export const payoutRuleFor = (data: SandboxData, minorUnits: number): PayoutEndingRule =>
  ruleFor(data.payouts.endings, amountEnding(minorUnits));

export function refundRuleFor(data: SandboxData, minorUnits: number, origin: 'MERCHANT' | 'REVOKE' = 'MERCHANT'): RefundEndingRule {
  const rule = ruleFor(data.refunds.endings, amountEnding(minorUnits));
  return rule.origins && !rule.origins.includes(origin) ? ruleFor(data.refunds.endings, data.refunds.endings.default) : rule;
}

// ---- Fixtures ------------------------------------------------------------------------------------

export const findWallet = (data: SandboxData, by: {phone?: string; walletId?: string}): Wallet | undefined =>
  data.wallets.find(
    (wallet) =>
      (by.phone === undefined || wallet.phone === by.phone) &&
      (by.walletId === undefined || wallet.walletId === by.walletId) &&
      (by.phone !== undefined || by.walletId !== undefined),
  );

export const findPaymentCard = (data: SandboxData, number: string): PaymentCard | undefined =>
  data.cards.cards.find((card) => card.number === number);
export const findPayoutCard = (data: SandboxData, number: string): PayoutCard | undefined =>
  data.payoutCards.cards.find((card) => card.number === number);
export const findAgreementToken = (data: SandboxData, token: string): AgreementToken | undefined =>
  data.agreementTokens.tokens.find((entry) => entry.token === token);

export function findBankAccount(
  data: SandboxData,
  account: {iban?: string; accountNumber?: string; routingCode?: string},
): BankAccount | undefined {
  if (account.iban !== undefined) return data.bankAccounts.accounts.find((candidate) => candidate.iban === account.iban);
  return data.bankAccounts.accounts.find(
    (candidate) =>
      candidate.accountNumber !== undefined &&
      candidate.accountNumber === account.accountNumber &&
      candidate.routingCode === account.routingCode,
  );
}

/** Every card number the sandbox knows, for payments or payouts. */
export function knownCardNumbers(data: SandboxData): Set<string> {
  return new Set([...data.cards.cards.map((card) => card.number), ...data.payoutCards.cards.map((card) => card.number)]);
}

/** Every IBAN the sandbox knows: beneficiary accounts (the invalid one included) and virtual accounts. */
export function knownIbans(data: SandboxData): Set<string> {
  return new Set([
    ...data.bankAccounts.accounts.map((account) => account.iban),
    ...data.virtualAccounts.accounts.map((account) => account.iban),
  ]);
}

// ---- Outcomes ------------------------------------------------------------------------------------

/** A call the sandbox answers with a result code other than SUCCESS: nothing is created. */
export interface Rejection {
  readonly accepted: false;
  readonly resultCode: string;
  /** What decided, for messages: "ending 59", "wallet 880000000005". */
  readonly because: string;
}

/** A payment attempt's result. */
export interface AttemptResult {
  readonly kind: OutcomeKind;
  /** The order's status as the attempt starts (what a QR_PAY or DIRECT_PAY Create order answers). */
  readonly orderStatus: string;
  /** The order's status once the attempt is resolved. */
  readonly finalOrderStatus: string;
  /** The lastAttempt status once resolved: SUCCEEDED or FAILED; absent when no attempt is recorded. */
  readonly attemptStatus?: 'SUCCEEDED' | 'FAILED';
  readonly failureCode?: string;
  /** Seconds in PROCESSING before the attempt resolves. */
  readonly processingSeconds: number;
  readonly events: readonly string[];
  readonly because: string;
}

export interface CreateOrderAccepted {
  readonly accepted: true;
  readonly responseDelaySeconds: number;
  /** The order status in the Create order response. */
  readonly orderStatus: string;
  /** For QR_PAY and DIRECT_PAY, the attempt made inside Create order. */
  readonly attempt?: AttemptResult;
  readonly because: string;
}

/** An accepted refund or payout: PROCESSING in the response, then `status` after `processingSeconds`. */
export interface AsyncAccepted {
  readonly accepted: true;
  readonly status: string;
  readonly failureCode?: string;
  readonly processingSeconds: number;
  readonly events: readonly string[];
  /** A bank transfer the bank returns this many seconds after it succeeded (status RETURNED). */
  readonly returnedAfterSeconds?: number;
  readonly returnFailureCode?: string;
  readonly because: string;
}

export const rejection = (outcome: Outcome, because: string): Rejection => ({
  accepted: false,
  resultCode: outcome.resultCode ?? 'UNKNOWN',
  because,
});

function methodRule(data: SandboxData, method: string): PaymentMethodRule {
  return data.payments.methods.find((candidate) => candidate.method === method) ?? {method, declines: true};
}

function declined(failureCode: string, because: string, events: readonly string[] = ['ORDER.PAYMENT_FAILED']): AttemptResult {
  return {
    kind: 'DECLINED',
    orderStatus: 'PENDING',
    finalOrderStatus: 'PENDING',
    attemptStatus: 'FAILED',
    failureCode,
    processingSeconds: 0,
    events,
    because,
  };
}

export interface PaymentAttempt {
  readonly amount: {readonly value: number; readonly currency: string};
  readonly method: string;
  readonly attempt: 'PAYER' | 'CREATE_ORDER';
  readonly wallet?: Wallet;
  readonly card?: PaymentCard;
}

/** One payment attempt: the payer's fixture first, then the amount ending (payments.precedence). */
export function paymentAttemptOutcome(data: SandboxData, request: PaymentAttempt): AttemptResult {
  const {wallet, card} = request;
  if (card && card.behavior !== 'ENDINGS') return declined(card.behavior.failureCode ?? 'PAYER_DECLINED', `card ${card.number}`);
  if (wallet && wallet.status === 'FROZEN')
    return declined(data.walletRules.payments.frozen.failureCode ?? 'PAYER_DECLINED', `wallet ${wallet.phone} (frozen)`);
  if (wallet && (wallet.currency !== request.amount.currency || wallet.balance < request.amount.value)) {
    return declined(
      data.walletRules.payments.insufficientBalance.failureCode ?? 'INSUFFICIENT_FUNDS',
      `wallet ${wallet.phone} (balance ${wallet.currency} ${wallet.balance})`,
    );
  }
  const method = methodRule(data, request.method);
  let rule = paymentRuleFor(data, request.amount.value);
  if (rule.at === 'CREATE_ORDER' && rule.then !== undefined) rule = ruleFor(data.payments.endings, rule.then);
  if (rule.at === 'CREATE_ORDER' || (rule.kind === 'DECLINED' && !method.declines))
    rule = ruleFor(data.payments.endings, data.payments.endings.default);
  const because = `ending ${rule.ending}`;
  const events = rule.events ?? [];
  switch (rule.kind) {
    case 'DECLINED':
      return declined(rule.failureCode ?? 'PAYER_DECLINED', because, events);
    case 'UNANSWERED': {
      const variant = request.attempt === 'PAYER' ? rule.payer : rule.createOrder;
      return {
        kind: 'UNANSWERED',
        orderStatus: request.attempt === 'PAYER' ? 'PENDING' : 'PROCESSING',
        finalOrderStatus: variant?.orderStatus ?? 'CLOSED',
        ...(request.attempt === 'CREATE_ORDER' ? {attemptStatus: 'FAILED' as const} : {}),
        ...(variant?.failureCode ? {failureCode: variant.failureCode} : {}),
        processingSeconds: variant?.processingSeconds ?? 0,
        events: variant?.events ?? [],
        because,
      };
    }
    case 'FAILED': {
      const processingSeconds = method.processingSeconds ?? rule.processingSeconds ?? 0;
      return {
        kind: 'FAILED',
        orderStatus: 'PROCESSING',
        finalOrderStatus: rule.orderStatus ?? 'PENDING',
        attemptStatus: 'FAILED',
        failureCode: rule.failureCode,
        processingSeconds,
        events,
        because,
      };
    }
    default: {
      const processingSeconds = method.processingSeconds ?? rule.processingSeconds ?? 0;
      return {
        kind: processingSeconds > 0 && rule.kind === 'SUCCEEDED' ? 'DELAYED' : rule.kind,
        orderStatus: processingSeconds > 0 ? 'PROCESSING' : 'PAID',
        finalOrderStatus: rule.orderStatus ?? 'PAID',
        attemptStatus: 'SUCCEEDED',
        processingSeconds,
        events,
        because: method.processingSeconds !== undefined ? `${because}, paid by ${method.method}` : because,
      };
    }
  }
}

// ---- 3-D Secure ----------------------------------------------------------------------------------

/** The issuer's step before a card attempt: none (not enrolled), FRICTIONLESS, or a CHALLENGE the shopper answers. */
export function threeDSecureStep(card: PaymentCard | undefined): 'NONE' | 'FRICTIONLESS' | 'CHALLENGE' {
  return card?.threeDSecure?.flow ?? 'NONE';
}

/** How the shopper answers a challenge: submits the one-time code, or closes the challenge. */
export type ChallengeAnswer = 'SUBMIT' | 'CANCEL';

/**
 * The shopper's answer to a card's challenge (cards.threeDSecure): the declined attempt when the challenge is
 * cancelled or the card's challenge fails, undefined when it passes and the payment goes on.
 */
export function challengeRefusal(data: SandboxData, card: PaymentCard, answer: ChallengeAnswer): AttemptResult | undefined {
  const rules = data.cards.threeDSecure;
  if (answer === 'CANCEL')
    return declined(rules.cancelled.failureCode ?? 'PAYER_DECLINED', `3-D Secure challenge of card ${card.number} cancelled`);
  if (card.threeDSecure?.flow === 'CHALLENGE' && card.threeDSecure.result === 'FAILED')
    return declined(rules.failed.failureCode ?? 'AUTHENTICATION_FAILED', `3-D Secure challenge of card ${card.number} failed`);
  return undefined;
}

export interface CreateOrderInput {
  readonly scene: string;
  readonly amount: {readonly value: number; readonly currency: string};
  readonly payerPaymentCode?: string;
  readonly payerAgreementToken?: string;
}

/** What Create order answers for a request, and for QR_PAY and DIRECT_PAY the attempt inside it. */
export function createOrderOutcome(data: SandboxData, request: CreateOrderInput): Rejection | CreateOrderAccepted {
  const rule = paymentRuleFor(data, request.amount.value);
  if (rule.at === 'CREATE_ORDER' && rule.kind === 'REJECTED')
    return {accepted: false, resultCode: rule.resultCode ?? 'UNKNOWN', because: `ending ${rule.ending}`};
  const responseDelaySeconds = rule.at === 'CREATE_ORDER' && rule.kind === 'DELAYED' ? (rule.responseDelaySeconds ?? 0) : 0;
  const scene = data.payments.scenes.find((candidate) => candidate.scene === request.scene);
  if (!scene || scene.attempt === 'PAYER')
    return {accepted: true, responseDelaySeconds, orderStatus: 'PENDING', because: `scene ${request.scene}`};

  let wallet: Wallet | undefined;
  if (request.scene === 'DIRECT_PAY') {
    const token = request.payerAgreementToken === undefined ? undefined : findAgreementToken(data, request.payerAgreementToken);
    if (!token) return rejection(data.agreementTokens.unknown, `agreement token ${request.payerAgreementToken ?? '(none)'}`);
    wallet = findWallet(data, {phone: token.wallet});
  } else {
    const code = data.paymentCodes.codes.find((entry) => entry.code === request.payerPaymentCode);
    if (!code) {
      const attempt = declined(
        data.paymentCodes.unknown.failureCode ?? 'PAYMENT_CODE_INVALID',
        `payment code ${request.payerPaymentCode ?? '(none)'}`,
      );
      return {accepted: true, responseDelaySeconds, orderStatus: attempt.orderStatus, attempt, because: attempt.because};
    }
    wallet = findWallet(data, {phone: code.wallet});
  }
  const attempt = paymentAttemptOutcome(data, {
    amount: request.amount,
    method: 'WALLET',
    attempt: 'CREATE_ORDER',
    ...(wallet ? {wallet} : {}),
  });
  return {accepted: true, responseDelaySeconds, orderStatus: attempt.orderStatus, attempt, because: attempt.because};
}

/** Refund order (origin MERCHANT) or a refund Revoke order creates (origin REVOKE). */
export function refundOutcome(data: SandboxData, amount: number, origin: 'MERCHANT' | 'REVOKE' = 'MERCHANT'): Rejection | AsyncAccepted {
  const rule = refundRuleFor(data, amount, origin);
  const because = `ending ${rule.ending}`;
  if (rule.kind === 'REJECTED') return {accepted: false, resultCode: rule.resultCode ?? 'UNKNOWN', because};
  return {
    accepted: true,
    status: rule.status ?? 'SUCCEEDED',
    ...(rule.failureCode ? {failureCode: rule.failureCode} : {}),
    processingSeconds: rule.processingSeconds ?? 0,
    events: rule.events,
    because,
  };
}

/** The fee of a payment: pricing.paymentFeeBasisPoints of the amount, rounded up to the next minor unit. */
export function paymentFee(data: Pick<SandboxData, 'pricing'>, amountValue: number): number {
  return Math.ceil((amountValue * data.pricing.paymentFeeBasisPoints) / 10000);
}
