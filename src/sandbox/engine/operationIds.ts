/**
 * The contract's operationIds (api/openapi.yaml), in contract order. The handler table is typed by this
 * union, so an operation added here without a handler fails to compile; tests/unit/sandboxOperations.test.ts
 * fails when this list and the contract disagree, naming what to add or remove.
 */
export const operationIds = [
  'queryOrderPage',
  'createOrder',
  'retrieveOrderDetail',
  'retrieveOrderPayer',
  'cancelOrder',
  'revokeOrder',
  'refundOrder',
  'adjustOrderExpiryTime',
  'getCashierUrl',
  'queryRefundPage',
  'queryRefund',
  'listTransfers',
  'transfer',
  'queryTransfer',
  'getIbanHolderName',
  'listCountriesAndCurrencies',
  'calculateRate',
  'listBankTransfers',
  'transferToBank',
  'queryTransferToBank',
  'verifyCardPayoutEligibility',
  'listCardPayouts',
  'transferToBankCard',
  'queryBankCardTransfer',
  'getBalance',
  'downloadStatement',
  'listEvents',
  'redeliverEvent',
  'createAgreement',
  'queryAgreement',
  'cancelAgreement',
  'exchangeWalletAuthCode',
] as const;

export type OperationId = (typeof operationIds)[number];
