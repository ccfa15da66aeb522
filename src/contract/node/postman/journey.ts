/**
 * The order in which the Postman collection runs its requests: a merchant's journey, so a run from top
 * to bottom (Newman, the Postman CLI, the Collection Runner) creates each object before it reads,
 * changes or refunds it, and every ID a later request needs comes from an earlier response.
 *
 * Steps name contract operations by operationId; postman.ts fails the build when an operation of the
 * contract is missing here or a step names one the contract does not have, so the journey cannot
 * drift from the contract. An operation may appear twice (Create order: one order to cancel and
 * revoke, one to pay and refund), under another name.
 *
 * Sandbox steps are the local sandbox's unsigned control calls (docs/local-sandbox, /_sandbox/...):
 * what a customer would do between two API calls, such as paying. They run only against a local
 * sandbox (see `sandboxControlsVariable`) and are skipped, with a line in the console, elsewhere.
 */

/** An API call: one operation of the contract, optionally under another name than its summary. */
export interface OperationStep {
  readonly operationId: string;
  readonly name?: string;
  /** A value of the response this step stores for later steps: `from` is a path into the response JSON. */
  readonly capture?: Capture;
}

/** A control call of the local sandbox, not part of the API and not signed. */
export interface SandboxStep {
  readonly sandbox: {
    readonly name: string;
    readonly description: string;
    readonly method: 'POST' | 'GET';
    /** Path on the sandbox origin, starting with /_sandbox/. */
    readonly path: string;
    /** JSON body; values may use {{variables}}. */
    readonly body: Readonly<Record<string, string>>;
    readonly capture?: Capture;
  };
}

export interface Capture {
  /** Collection variable set from the response, read by later requests as {{variable}}. */
  readonly variable: string;
  /** Property path into the response JSON; a number is an array index. */
  readonly from: ReadonlyArray<string | number>;
}

export type JourneyStep = OperationStep | SandboxStep;

export interface JourneyFolder {
  readonly name: string;
  readonly description: string;
  readonly steps: readonly JourneyStep[];
}

/**
 * Variables a request reads that an earlier step's response sets: a body field or path parameter of
 * this name becomes {{name}}, so the request uses what the sandbox answered, not the contract example.
 */
export const chainedFields = ['quoteId', 'notificationId', 'authCode'] as const;

/**
 * Collection variable: "auto" (the default) runs the sandbox steps when baseUrl is a loopback
 * origin (localhost, 127.0.0.1, [::1]), "on" always (a local sandbox on another host name, such as
 * a CI service container), "off" never.
 */
export const sandboxControlsVariable = 'sandboxControls';

export const journey: readonly JourneyFolder[] = [
  {
    name: 'Payment',
    description:
      'Create an order, read it, and change what the customer sees before paying. The order created here is then cancelled and revoked in "Order".',
    steps: [
      {operationId: 'createOrder'},
      {operationId: 'getCashierUrl'},
      {operationId: 'adjustOrderExpiryTime'},
      {operationId: 'retrieveOrderDetail'},
      {operationId: 'queryOrderPage'},
      {
        sandbox: {
          name: 'Sandbox: the wallet gives a page an auth code',
          description:
            'Local sandbox only: a one-time wallet auth code for the test wallet +10000000001 (docs/general/test-accounts), as the wallet bridge gives a page inside the wallet. Stored in `authCode` for "Exchange wallet auth code".',
          method: 'POST',
          path: '/_sandbox/shopper/auth-code',
          body: {clientId: '{{clientId}}', wallet: '+10000000001'},
          capture: {variable: 'authCode', from: ['authCode']},
        },
      },
      {operationId: 'exchangeWalletAuthCode'},
    ],
  },
  {
    name: 'Order',
    description: 'Close the unpaid order: cancel it, then revoke it (outcome `CLOSED`).',
    steps: [{operationId: 'cancelOrder'}, {operationId: 'revokeOrder'}],
  },
  {
    name: 'Refund',
    description: 'A second order, paid by the customer in the sandbox, then refunded in part.',
    steps: [
      {operationId: 'createOrder', name: 'Create order to refund'},
      {
        sandbox: {
          name: 'Sandbox: the customer pays the order',
          description:
            'Local sandbox only: the customer pays `{{merchantOrderNo}}` by card in the cashier, so the order is `PAID` and can be refunded.',
          method: 'POST',
          path: '/_sandbox/shopper/pay',
          body: {clientId: '{{clientId}}', merchantOrderNo: '{{merchantOrderNo}}', method: 'CARD', cardNumber: '4000000000000002'},
        },
      },
      {operationId: 'retrieveOrderPayer'},
      {operationId: 'refundOrder'},
      {operationId: 'queryRefund'},
      {operationId: 'queryRefundPage'},
    ],
  },
  {
    name: 'Transfer',
    description: 'Pay out to a Veloxa Pay wallet, then read the transfer.',
    steps: [{operationId: 'transfer'}, {operationId: 'queryTransfer'}, {operationId: 'listTransfers'}],
  },
  {
    name: 'Transfer to bank',
    description: 'Check the payee and the corridor, lock a rate with a quote, pay out with that quote, then read the transfer.',
    steps: [
      {operationId: 'getIbanHolderName'},
      {operationId: 'listCountriesAndCurrencies'},
      {operationId: 'calculateRate', capture: {variable: 'quoteId', from: ['data', 'quoteId']}},
      {operationId: 'transferToBank'},
      {operationId: 'queryTransferToBank'},
      {operationId: 'listBankTransfers'},
    ],
  },
  {
    name: 'Transfer to bank card',
    description: 'Check the card, pay out to it, then read the payout.',
    steps: [
      {operationId: 'verifyCardPayoutEligibility'},
      {operationId: 'transferToBankCard'},
      {operationId: 'queryBankCardTransfer'},
      {operationId: 'listCardPayouts'},
    ],
  },
  {
    name: 'Agreement',
    description: 'Create a direct pay agreement, read it, and cancel it.',
    steps: [{operationId: 'createAgreement'}, {operationId: 'queryAgreement'}, {operationId: 'cancelAgreement'}],
  },
  {
    name: 'Member',
    description: 'Your balances.',
    steps: [{operationId: 'getBalance'}],
  },
  {
    name: 'Reconciliation',
    description: "A day's statement file.",
    steps: [{operationId: 'downloadStatement'}],
  },
  {
    name: 'Event',
    description: 'The events the journey above produced, and one of them delivered again.',
    steps: [
      {operationId: 'listEvents', capture: {variable: 'notificationId', from: ['data', 'events', 0, 'notificationId']}},
      {operationId: 'redeliverEvent'},
    ],
  },
];
