/**
 * The shape of api/sandbox.yaml, the sandbox's behaviour as data (its JSON Schema is
 * api/sandbox.schema.json). Read and checked in Node by
 * src/contract/node/sandboxData.ts; rendered by src/components/sandboxData/; carried out
 * by the sandbox engine. Pure types: no React, no DOM, no Node built-ins.
 *
 * Amounts are integers in minor units, durations whole seconds, endings two-digit strings.
 */

import type {HostedLimits} from './hostedLimits';
export type {HostedLimits} from './hostedLimits';

/** The six ways a call or a payment attempt can turn out (see the header of api/sandbox.yaml). */
export type OutcomeKind = 'SUCCEEDED' | 'DECLINED' | 'REJECTED' | 'FAILED' | 'DELAYED' | 'UNANSWERED';

/** What a call, an attempt or a fixture does. Which fields are present depends on `kind` (the schema says which). */
export interface Outcome {
  readonly kind: OutcomeKind;
  /** REJECTED: the result code the call answers; nothing is created. */
  readonly resultCode?: string;
  /** REJECTED: the operation (or operations) that reject. */
  readonly operation?: string;
  readonly operations?: readonly string[];
  /** DECLINED and FAILED: the failureCode of the attempt or the object. */
  readonly failureCode?: string;
  /** Seconds in PROCESSING before the final state; 0 means final before the call returns. */
  readonly processingSeconds?: number;
  /** The object's final status. */
  readonly status?: string;
  /** Notification event types sent, in order. */
  readonly events?: readonly string[];
  /** A bank transfer that succeeds and is returned this many seconds later. */
  readonly returnedAfterSeconds?: number;
  readonly returnFailureCode?: string;
  readonly note?: string;
}

export interface MoneyBalance {
  readonly currency: string;
  readonly available: number;
  readonly pending: number;
  readonly frozen: number;
}

export interface SandboxMerchant {
  readonly description: string;
  readonly clientId: string;
  readonly dashboard: 'read-only' | 'full';
  readonly testTools: boolean;
  /** Paths relative to api/, published under the site root (`test-vectors/...`). */
  readonly merchantKey: {readonly keyVersion: number; readonly publicKey: string; readonly privateKey: string};
  readonly providerKey: {
    readonly keyVersion: number;
    readonly publicKey: string;
    readonly signs: readonly ('responses' | 'notifications')[];
  };
  readonly defaultNotifyUrl: string | null;
  readonly balances: readonly MoneyBalance[];
  /** How the starting balances appear in the statements (a SANDBOX_FUNDING row on the creation day). */
  readonly openingFunds: string;
  readonly balanceRestore: {readonly atUtc: string; readonly onlyOn: 'hosted'; readonly what: string};
}

export interface Wallet {
  readonly phone: string;
  readonly pin: string;
  readonly walletId: string;
  readonly currency: string;
  readonly balance: number;
  readonly status: 'ACTIVE' | 'FROZEN';
  readonly note: string;
}

export interface WalletRules {
  readonly balance: string;
  readonly payments: {readonly frozen: Outcome; readonly insufficientBalance: Outcome; readonly wrongPin: Outcome};
  readonly transfers: {readonly unknownPayee: Outcome; readonly currencyMismatch: Outcome; readonly frozen: Outcome};
}

export interface PaymentCode {
  readonly code: string;
  /** The phone number of the wallet it charges. */
  readonly wallet: string;
}

/** A bank payout corridor; amounts in minor units of `currency`. */
export interface Corridor {
  readonly country: string;
  readonly currency: string;
  readonly accountFormat: 'IBAN' | 'ACCOUNT_NUMBER_AND_ROUTING';
  readonly minAmount: number;
  readonly maxAmount: number;
  readonly typicalArrival: string;
}

/** A fixed exchange rate, as a decimal string. */
export interface ExchangeRate {
  readonly from: string;
  readonly to: string;
  readonly rate: string;
}

/** A server-side error the sandbox can be asked to answer with. */
export interface FaultCode {
  readonly resultCode: string;
  /** True when the call is carried out before the error is answered (the outcome of a real one is unknown). */
  readonly carriedOut: boolean;
  readonly retryAfterSeconds?: number;
}

/** A JSAPI auth code for Exchange wallet auth code, and the wallet user ID it is exchanged for. */
export interface WalletAuthCode {
  readonly code: string;
  /** The phone number of the wallet whose user it identifies. */
  readonly wallet: string;
  readonly userId: string;
}

export interface AgreementToken {
  readonly token: string;
  readonly wallet: string;
}

export interface PaymentCard {
  readonly number: string;
  readonly brand: string;
  readonly funding: 'DEBIT' | 'CREDIT';
  /** `ENDINGS`: the amount ending decides; otherwise every attempt turns out this way. */
  readonly behavior: 'ENDINGS' | Outcome;
  /** Enrolled in 3-D Secure: absent, the card is not enrolled and pays at once. */
  readonly threeDSecure?: ThreeDSecureEnrolment;
}

/** How the issuer authenticates a card: at once (FRICTIONLESS), or with a challenge whose answer `result` decides. */
export type ThreeDSecureEnrolment = {readonly flow: 'FRICTIONLESS'} | {readonly flow: 'CHALLENGE'; readonly result: 'PASSED' | 'FAILED'};

/** What a challenge that does not pass declines the attempt with. */
export interface ThreeDSecureRules {
  readonly note: string;
  /** The issuer refused the shopper's answer. */
  readonly failed: Outcome;
  /** The shopper closed the challenge. */
  readonly cancelled: Outcome;
}

export type AttemptPoint = 'PAYER' | 'CREATE_ORDER';

export interface PaymentScene {
  readonly scene: string;
  readonly attempt: AttemptPoint;
  readonly methods: readonly string[];
}

export interface PaymentMethodRule {
  readonly method: string;
  /** Whether the DECLINED endings apply; when false those amounts behave like the default ending. */
  readonly declines: boolean;
  /** Replaces the ending rule's processingSeconds for this method. */
  readonly processingSeconds?: number;
  readonly trigger?: string;
}

export interface PrecedenceStep {
  readonly step: string;
  readonly description: string;
}

/** ENDING 91: what happens in each kind of scene. */
export interface UnansweredVariant {
  readonly description: string;
  readonly failureCode?: string;
  /** Create order scenes: how long the attempt stays PROCESSING before it fails. */
  readonly processingSeconds?: number;
  readonly orderStatus: string;
  readonly closeReason: string;
  readonly events: readonly string[];
}

export interface PaymentEndingRule {
  readonly ending: string;
  /** CREATE_ORDER: decided by Create order, before any attempt. ATTEMPT: decided at each payment attempt. */
  readonly at: 'ATTEMPT' | 'CREATE_ORDER';
  readonly kind: OutcomeKind;
  readonly summary: string;
  readonly processingSeconds?: number;
  readonly responseDelaySeconds?: number;
  /** DELAYED at CREATE_ORDER: after the delay, the order behaves like this ending. */
  readonly then?: string;
  readonly failureCode?: string;
  readonly resultCode?: string;
  readonly operation?: string;
  readonly orderStatus?: string;
  readonly events?: readonly string[];
  /** UNANSWERED: in scenes where the payer attempts (PAYER) and where Create order does (CREATE_ORDER). */
  readonly payer?: UnansweredVariant;
  readonly createOrder?: UnansweredVariant;
}

export interface RefundEndingRule {
  readonly ending: string;
  readonly kind: Exclude<OutcomeKind, 'DECLINED' | 'UNANSWERED'>;
  readonly summary: string;
  readonly processingSeconds?: number;
  readonly failureCode?: string;
  readonly resultCode?: string;
  readonly operation?: string;
  /** Which refunds the rule applies to; all when absent. */
  readonly origins?: readonly ('MERCHANT' | 'REVOKE')[];
  readonly status?: string;
  readonly events: readonly string[];
}

export interface PayoutEndingRule {
  readonly ending: string;
  readonly kind: Exclude<OutcomeKind, 'DECLINED' | 'UNANSWERED'>;
  readonly summary: string;
  readonly processingSeconds?: number;
  readonly failureCode?: string;
  readonly resultCode?: string;
  readonly status?: 'SUCCEEDED' | 'FAILED';
}

export interface EndingTable<Rule> {
  /** Any ending without a rule behaves like this one. */
  readonly default: string;
  readonly rules: readonly Rule[];
}

export interface BankAccount {
  readonly iban: string;
  /** A domestic account number and routing code (sort code) that reach the same account. */
  readonly accountNumber?: string;
  readonly routingCode?: string;
  readonly holderName?: string;
  readonly country: string;
  readonly currency: string;
  readonly bankName?: string;
  readonly bic?: string;
  readonly behavior: Outcome;
}

export interface VirtualAccount {
  readonly iban: string;
  readonly virtualAccountId: string;
  readonly customerReference: string;
  readonly currency: string;
}

export interface Eligibility {
  readonly eligible: boolean;
  readonly fundsAvailability?: string;
  readonly reason?: string;
}

export interface PayoutCard {
  readonly number: string;
  readonly brand: string;
  readonly issuerCountry: string;
  readonly eligibility: Eligibility;
  readonly payout: Outcome;
}

export type PayoutProductName = 'WALLET' | 'BANK' | 'CARD';

export interface PayoutProduct {
  readonly product: PayoutProductName;
  readonly operation: string;
  readonly processingSeconds: number;
  readonly events: {readonly SUCCEEDED: string; readonly FAILED: string; readonly RETURNED?: string};
}

export interface ChargebackStep {
  readonly status: string;
  readonly events: readonly string[];
  readonly balance: string;
}

export interface SandboxData {
  readonly version: 1;
  readonly merchant: SandboxMerchant;
  /** The read timeout clients should use; ending 92 holds Create order longer than this. */
  readonly clientReadTimeoutSeconds: number;
  readonly wallets: readonly Wallet[];
  readonly walletRules: WalletRules;
  readonly paymentCodes: {readonly note: string; readonly unknown: Outcome; readonly codes: readonly PaymentCode[]};
  readonly agreementTokens: {readonly note: string; readonly unknown: Outcome; readonly tokens: readonly AgreementToken[]};
  readonly walletAuthCodes: {readonly note: string; readonly unknown: Outcome; readonly codes: readonly WalletAuthCode[]};
  /** Currencies a merchant may use: orders and refunds in `payments` (each has a balance), payouts and quotes in `payouts`. */
  readonly currencies: {
    readonly note: string;
    readonly payments: readonly string[];
    readonly payouts: readonly string[];
    readonly notEnabled: Outcome;
  };
  /** The largest order, wallet transfer or card payout, in minor units. */
  readonly limits: {readonly note: string; readonly maxAmount: number; readonly exceeded: Outcome};
  readonly pricing: {
    readonly note: string;
    /** Payment fee in basis points of the amount, rounded up to the next minor unit. */
    readonly paymentFeeBasisPoints: number;
    /** Days after the payment day (UTC) when its net amount moves from pending to available. */
    readonly settlementDays: number;
    /** Flat payout fees by product and source currency. */
    readonly payoutFees: Readonly<Record<'WALLET' | 'BANK' | 'BANK_CROSS_CURRENCY' | 'CARD', Readonly<Record<string, number>>>>;
  };
  readonly corridors: {
    readonly note: string;
    readonly unsupported: Outcome;
    readonly outOfRange: Outcome;
    readonly corridors: readonly Corridor[];
  };
  readonly exchange: {readonly note: string; readonly quoteValidSeconds: number; readonly rates: readonly ExchangeRate[]};
  readonly statements: {
    readonly note: string;
    readonly readyAfterUtc: string;
    readonly downloadUrlSeconds: number;
    readonly notReady: Outcome;
  };
  readonly faults: {readonly note: string; readonly codes: readonly FaultCode[]};
  readonly cards: {readonly note: string; readonly cards: readonly PaymentCard[]; readonly threeDSecure: ThreeDSecureRules};
  readonly payments: {
    readonly scenes: readonly PaymentScene[];
    readonly attempts: Readonly<Record<AttemptPoint, string>>;
    readonly methods: readonly PaymentMethodRule[];
    readonly precedence: readonly PrecedenceStep[];
    readonly endings: EndingTable<PaymentEndingRule>;
  };
  readonly refunds: {readonly note: string; readonly endings: EndingTable<RefundEndingRule>};
  readonly bankAccounts: {
    readonly note: string;
    readonly unknownAccount: Outcome;
    readonly invalidIban: Outcome;
    readonly nameMismatch: Outcome;
    readonly currencyMismatch: Outcome;
    readonly accounts: readonly BankAccount[];
  };
  readonly virtualAccounts: {
    readonly note: string;
    readonly creditSeconds: number;
    /** Which part of the balance a top-up lands in: `available` (settled on arrival) or `pending` (after settlementDays). */
    readonly creditedTo: 'available' | 'pending';
    readonly credit: string;
    readonly events: readonly string[];
    readonly accounts: readonly VirtualAccount[];
  };
  readonly payoutCards: {
    readonly note: string;
    readonly currencies: readonly string[];
    readonly unknownCard: {readonly eligibility: Eligibility; readonly payout: Outcome};
    readonly cards: readonly PayoutCard[];
  };
  readonly payouts: {
    readonly note: string;
    readonly precedence: readonly PrecedenceStep[];
    readonly products: readonly PayoutProduct[];
    readonly endings: EndingTable<PayoutEndingRule>;
  };
  readonly notifications: {
    readonly note: string;
    readonly acknowledgementTimeoutSeconds: number;
    readonly retryScheduleSeconds: readonly number[];
    readonly compressedRetryScheduleSeconds: readonly number[];
    readonly compressedRetrySchedule: string;
    readonly resend: string;
    readonly eventRetentionDays: number;
    /** The calls that list and redeliver events. */
    readonly operations: readonly string[];
  };
  readonly chargebacks: {
    readonly note: string;
    readonly trigger: string;
    readonly reasonCodes: readonly string[];
    readonly evidenceDueSeconds: number;
    readonly opened: ChargebackStep;
    readonly whileOpen: Outcome;
    readonly resolutions: readonly (ChargebackStep & {readonly resolution: string})[];
  };
  /** The hosted sandbox's limits and retention (src/sandbox/hosts/server/hosted.ts enforces them; the hosted sandbox page publishes them). */
  readonly hosted: HostedLimits;
}

/** An operation the data names, as a page links it: its summary and the URL of its reference page. */
export interface OperationRef {
  readonly summary: string;
  readonly url: string;
}

/**
 * What a sandbox component receives (remarkSandboxData inlines it into the page): the top-level
 * sections it reads, and the operations the data names.
 */
export type SandboxPageData<K extends keyof SandboxData> = Pick<SandboxData, K> & {
  readonly operations: Readonly<Record<string, OperationRef>>;
};
