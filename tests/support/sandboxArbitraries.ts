/**
 * fast-check generators of sandbox sessions: random sequences of what a merchant, a shopper, the sandbox's
 * test tools and time do to one sandbox merchant. Every fixture (wallets, cards, IBANs, payment codes,
 * agreement tokens, amount endings) comes from api/sandbox.yaml, so the sequences hit the sandbox rules
 * rather than random noise. A step names the objects it acts on by a reference counted from the newest object
 * that suits it (0: the order just created, when the step pays; the newest paid order, when it refunds), so a
 * step stays meaningful when shrinking drops earlier ones, and shrinks towards the most recent object.
 *
 * Used by tests/sandbox/properties.test.ts.
 */
import fc from 'fast-check';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

const data = sandboxFiles().spec.sandbox;

const unique = <T>(values: readonly T[]): T[] => [...new Set(values)];

/** Amount endings with a sandbox rule, plus one without (the default rule applies). */
const paymentEndings = unique([...data.payments.endings.rules.map((rule) => rule.ending), '37']);
const refundEndings = unique([...data.refunds.endings.rules.map((rule) => rule.ending), '37']);
const payoutEndings = unique([...data.payouts.endings.rules.map((rule) => rule.ending), '37']);

const currencies = data.merchant.balances.map((balance) => balance.currency);
const scenes = data.payments.scenes.map((scene) => scene.scene);

/** Values the sandbox does not know, for the rejection paths. */
export const unknown = {
  phone: '+19990000001',
  walletId: '889999999999',
  card: '4242424242424242',
  paymentCode: '286519999999999999',
  agreementToken: 'agt_UnknownWalletToken000000',
  qrContent: 'https://sandbox-cashier.example.com/qr/ord_NoSuchOrder00000',
  cashReference: '000000000000',
};

const notifyUrls = ['https://shop.example.com/payments/notify', 'https://hooks.example.net/v2/notify?merchant=42&kind=veloxa'] as const;
const defaultNotifyUrl = 'https://merchant.example.org/default-notify?source=sandbox';

/** Where a step may send notifications: nowhere (the default URL applies, if any) or one of two URLs. */
const notify = fc.option(fc.constantFrom(...notifyUrls), {nil: undefined, freq: 3});

/** An amount in minor units whose last two digits are one of `endings`, "00" (success) more often than the others. */
function amountWith(endings: readonly string[], maxHundreds = 300) {
  const ending = fc.oneof({arbitrary: fc.constant('00'), weight: 2}, {arbitrary: fc.constantFrom(...endings), weight: 3});
  return fc.tuple(fc.integer({min: 1, max: maxHundreds}), ending).map(([hundreds, last]) => hundreds * 100 + Number(last));
}

/** Mostly small amounts, sometimes above the sandbox's largest order or payout. */
const paymentAmount = fc.oneof(
  {arbitrary: amountWith(paymentEndings), weight: 12},
  {arbitrary: amountWith(['00', '93'], 200_000), weight: 1},
);
const payoutAmount = fc.oneof({arbitrary: amountWith(payoutEndings), weight: 12}, {arbitrary: amountWith(['00'], 200_000), weight: 1});
/** Mostly USD, the merchant's other currencies, and rarely one it does not hold (PERMISSION_DENIED). */
const currency = fc.oneof(
  {arbitrary: fc.constant('USD'), weight: 16},
  {arbitrary: fc.constantFrom(...currencies), weight: 8},
  {arbitrary: fc.constant('CHF'), weight: 1},
);
/**
 * A reference to an earlier object: 0 is the newest object that suits the step (a PENDING order to pay, a paid
 * one to refund...), 1 the one before, and so on; 45 and above name a number with no object behind it.
 */
const ref = fc.nat({max: 49});
export const missingRef = 45;
/** True one time in ten. */
const rarely = fc.oneof({arbitrary: fc.constant(false), weight: 9}, {arbitrary: fc.constant(true), weight: 1});

const walletPhones = [...data.wallets.map((wallet) => wallet.phone), unknown.phone];
const paymentCards = [...data.cards.cards.map((card) => card.number), unknown.card];
const payoutCards = [...data.payoutCards.cards.map((card) => card.number), unknown.card];
/** A wallet, or (half the time) undefined: the everyday wallet of the order's currency. */
const wallet = fc.option(fc.constantFrom(...walletPhones), {nil: undefined, freq: 2});
const paymentCodes = [...data.paymentCodes.codes.map((code) => code.code), unknown.paymentCode];

export type Step =
  | {
      readonly op: 'createOrder';
      readonly scene: string;
      readonly amount: number;
      readonly currency: string;
      readonly notifyUrl: string | undefined;
      /** QR_PAY: index of the payment code; DIRECT_PAY: of the token (issued here newest first, fixed, unknown). */
      readonly payer: number;
      readonly expiresInSeconds: number | undefined;
      /** Then the shopper pays at once (scenes paid in the cashier, SDK or wallet), with this method index. */
      readonly thenPay: number | undefined;
    }
  | {readonly op: 'retrieveOrder'; readonly order: number}
  | {
      readonly op: 'query';
      readonly what: 'refund' | 'payout' | 'agreement' | 'balance';
      readonly index: number;
      readonly kind: 'WALLET' | 'BANK' | 'CARD';
    }
  | {readonly op: 'cancel'; readonly order: number}
  | {readonly op: 'revoke'; readonly order: number; readonly freshNumber: boolean}
  | {
      readonly op: 'refund';
      readonly order: number;
      readonly size: 'ending' | 'rest' | 'above';
      readonly amount: number;
      readonly wrongCurrency: boolean;
      readonly notifyUrl: string | undefined;
    }
  | {
      readonly op: 'transfer';
      readonly payee: string;
      readonly byWalletId: boolean;
      readonly amount: number;
      readonly currency: string;
      readonly notifyUrl: string | undefined;
    }
  | {
      readonly op: 'bankTransfer';
      readonly account: number;
      readonly accountNumber: boolean;
      readonly wrongName: boolean;
      readonly amount: number;
      readonly source: string;
      readonly notifyUrl: string | undefined;
    }
  | {
      readonly op: 'cardPayout';
      readonly card: string;
      readonly amount: number;
      readonly currency: string;
      readonly notifyUrl: string | undefined;
    }
  | {readonly op: 'replay'; readonly request: number; readonly variant: 'same' | 'reordered' | 'changed' | 'corrected' | 'otherKind'}
  | {
      readonly op: 'pay';
      readonly order: number;
      /** Index into the methods the order's scene takes, or any method (mostly refused) when `anyMethod`. */
      readonly method: number;
      readonly anyMethod: boolean;
      /** The wallet; undefined: the everyday wallet of the order's currency. */
      readonly phone: string | undefined;
      readonly wrongPin: boolean;
      readonly card: string;
    }
  | {readonly op: 'payCash'; readonly order: number}
  | {readonly op: 'scan'; readonly order: number; readonly phone: string | undefined; readonly wrongPin: boolean}
  | {readonly op: 'abandon'; readonly order: number}
  /** The shopper answers a card's 3-D Secure challenge (refused when none is waiting). */
  | {readonly op: 'challenge'; readonly order: number; readonly answer: 'SUBMIT' | 'CANCEL'}
  | {readonly op: 'openChargeback'; readonly order: number; readonly reasonCode: string; readonly share: 'all' | 'part' | 'above'}
  | {readonly op: 'resolveChargeback'; readonly chargeback: number; readonly resolution: 'WON' | 'LOST'}
  | {readonly op: 'createAgreement'; readonly notifyUrl: string | undefined}
  | {readonly op: 'authorizeAgreement'; readonly agreement: number; readonly phone: string; readonly approve: boolean}
  | {readonly op: 'cancelAgreement'; readonly agreement: number}
  | {readonly op: 'topUp'; readonly amount: number}
  | {readonly op: 'fault'; readonly resultCode: string; readonly operationId: string}
  /** Adjust order expiry time to now plus `seconds` (negative, too soon and too late included). */
  | {readonly op: 'adjustExpiry'; readonly order: number; readonly seconds: number}
  /** Redeliver event, of the ref-th newest event. */
  | {readonly op: 'redeliver'; readonly event: number}
  | {readonly op: 'advance'; readonly seconds: number};

const createOrder: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('createOrder' as const),
  scene: fc.constantFrom(...scenes),
  amount: paymentAmount,
  currency,
  notifyUrl: notify,
  payer: fc.nat({max: paymentCodes.length + 2}),
  expiresInSeconds: fc.option(fc.constantFrom(60, 600, 3600, 90_000), {nil: undefined, freq: 2}),
  thenPay: fc.option(fc.nat({max: 2}), {nil: undefined, freq: 3}),
});

const refund: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('refund' as const),
  order: ref,
  size: fc.constantFrom('ending' as const, 'ending' as const, 'rest' as const, 'above' as const),
  amount: amountWith(refundEndings, 120),
  wrongCurrency: rarely,
  notifyUrl: notify,
});

const advance: fc.Arbitrary<Step> = fc.record({
  op: fc.constant('advance' as const),
  seconds: fc.oneof(
    {arbitrary: fc.constantFrom(0, 1, 2, 5, 10, 20, 60, 61, 120, 300, 600, 900, 1800, 3600), weight: 6},
    {arbitrary: fc.constantFrom(86_400, 172_800), weight: 1},
    {arbitrary: fc.integer({min: 0, max: 172_800}), weight: 1},
  ),
});

/** Write operations a fault may hit (their answers are checked like any other). */
const faultOperations = [
  'createOrder',
  'refundOrder',
  'transfer',
  'transferToBank',
  'transferToBankCard',
  'cancelOrder',
  'revokeOrder',
  'adjustOrderExpiryTime',
  'createAgreement',
];

export const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  {arbitrary: createOrder, weight: 20},
  {arbitrary: fc.record({op: fc.constant('retrieveOrder' as const), order: ref}), weight: 1},
  {
    arbitrary: fc.record({
      op: fc.constant('query' as const),
      what: fc.constantFrom('refund' as const, 'payout' as const, 'agreement' as const, 'balance' as const),
      index: ref,
      kind: fc.constantFrom('WALLET' as const, 'BANK' as const, 'CARD' as const),
    }),
    weight: 2,
  },
  {arbitrary: fc.record({op: fc.constant('cancel' as const), order: ref}), weight: 2},
  {arbitrary: fc.record({op: fc.constant('revoke' as const), order: ref, freshNumber: fc.constant(false)}), weight: 2},
  {arbitrary: fc.record({op: fc.constant('revoke' as const), order: ref, freshNumber: fc.constant(true)}), weight: 1},
  {arbitrary: refund, weight: 10},
  {
    arbitrary: fc.record({
      op: fc.constant('transfer' as const),
      payee: fc.constantFrom(...walletPhones),
      byWalletId: fc.boolean(),
      amount: payoutAmount,
      currency,
      notifyUrl: notify,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('bankTransfer' as const),
      account: fc.nat({max: data.bankAccounts.accounts.length}),
      accountNumber: fc.boolean(),
      wrongName: rarely,
      amount: payoutAmount,
      source: fc.constantFrom('EUR', 'EUR', ...currencies),
      notifyUrl: notify,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('cardPayout' as const),
      card: fc.constantFrom(...payoutCards),
      amount: payoutAmount,
      currency,
      notifyUrl: notify,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('replay' as const),
      request: ref,
      variant: fc.constantFrom('same' as const, 'reordered' as const, 'changed' as const, 'corrected' as const, 'otherKind' as const),
    }),
    weight: 8,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('pay' as const),
      order: ref,
      method: fc.nat({max: 2}),
      anyMethod: rarely,
      phone: wallet,
      wrongPin: rarely,
      card: fc.constantFrom(...paymentCards),
    }),
    weight: 14,
  },
  {arbitrary: fc.record({op: fc.constant('payCash' as const), order: ref}), weight: 2},
  {arbitrary: fc.record({op: fc.constant('scan' as const), order: ref, phone: wallet, wrongPin: rarely}), weight: 2},
  {arbitrary: fc.record({op: fc.constant('abandon' as const), order: ref}), weight: 1},
  {
    arbitrary: fc.record({
      op: fc.constant('challenge' as const),
      order: ref,
      answer: fc.constantFrom('SUBMIT' as const, 'CANCEL' as const),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('openChargeback' as const),
      order: ref,
      reasonCode: fc.constantFrom(...data.chargebacks.reasonCodes),
      share: fc.constantFrom('all' as const, 'part' as const, 'part' as const, 'above' as const),
    }),
    weight: 5,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('resolveChargeback' as const),
      chargeback: ref,
      resolution: fc.constantFrom('WON' as const, 'LOST' as const),
    }),
    weight: 4,
  },
  {arbitrary: fc.record({op: fc.constant('createAgreement' as const), notifyUrl: notify}), weight: 2},
  {
    arbitrary: fc.record({
      op: fc.constant('authorizeAgreement' as const),
      agreement: ref,
      phone: fc.constantFrom(...walletPhones),
      approve: fc.oneof({arbitrary: fc.constant(true), weight: 3}, {arbitrary: fc.constant(false), weight: 1}),
    }),
    weight: 2,
  },
  {arbitrary: fc.record({op: fc.constant('cancelAgreement' as const), agreement: ref}), weight: 1},
  {arbitrary: fc.record({op: fc.constant('topUp' as const), amount: fc.integer({min: 1, max: 50_000})}), weight: 1},
  {
    arbitrary: fc.record({
      op: fc.constant('fault' as const),
      resultCode: fc.constantFrom(...data.faults.codes.map((code) => code.resultCode)),
      operationId: fc.constantFrom(...faultOperations),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      op: fc.constant('adjustExpiry' as const),
      order: ref,
      seconds: fc.constantFrom(-30, 59, 60, 120, 1800, 86_400, 604_800),
    }),
    weight: 2,
  },
  {arbitrary: fc.record({op: fc.constant('redeliver' as const), event: ref}), weight: 1},
  {arbitrary: advance, weight: 10},
);

export interface Session {
  /** When the sandbox clock starts: mid-day, a minute before midnight, or the last hour of February. */
  readonly start: string;
  /** The merchant's default notification URL, or none (the shared merchant has none). */
  readonly defaultNotifyUrl: string | null;
  readonly steps: readonly Step[];
}

export function sessionArbitrary(steps: {minLength: number; maxLength: number}): fc.Arbitrary<Session> {
  return fc.record({
    start: fc.constantFrom('2026-11-25T10:00:00Z', '2026-11-25T23:59:00Z', '2028-02-28T23:00:00Z'),
    defaultNotifyUrl: fc.constantFrom(null, defaultNotifyUrl),
    steps: fc.array(stepArbitrary, {...steps, size: 'max'}),
  });
}

export const fixtures = {data, walletPhones, paymentCards, payoutCards, paymentCodes};
