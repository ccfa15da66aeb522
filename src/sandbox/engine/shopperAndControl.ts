/**
 * What the engine offers besides API calls: the shopper's actions (what customers, payees and banks do) and
 * the sandbox's own tools. Each is a domain action run as one unit of work through the engine's ActionHost.
 */
import type {ActionResult, DeliveryLogEntry, Fault, PaymentMethodChoice, SimulateNotificationInput} from './api';
import {authorizeAgreement, cancelAgreement, getAuthCode} from './domain/agreements';
import {openChargeback, resolveChargeback} from './domain/chargebacks';
import {redeliverEvent, simulateNotification} from './domain/events';
import {addKey, configureMerchant, keyProblem, registrationOf, type MerchantRegistration, type MerchantSettings} from './domain/merchants';
import {findOrder} from './domain/orders';
import {answerChallenge, payCash, payOrder, scanQr} from './domain/payments';
import type {ChallengeAnswer} from './rules/rules';
import {topUpVirtualAccount} from './domain/virtualAccounts';
import type {Json, JsonObject, MerchantRecord, MerchantState} from './state';
import type {Tx} from './tx';

/** What the actions need of the engine. */
export interface ActionHost {
  /** Runs an action as one unit of work: a rejection becomes {ok: false}; changes are committed. */
  act<T>(clientId: string, action: (state: MerchantState, tx: Tx) => T): Promise<ActionResult<T>>;
  now(): number;
  hasMerchant(clientId: string): boolean;
  addMerchant(record: MerchantRecord): Promise<void>;
  commit(): Promise<void>;
  addFault(fault: {resultCode: string; operationId?: string; count?: number}): ActionResult<Fault>;
  reset(): Promise<void>;
  /** One merchant's delivery attempts (every merchant's without `clientId`), oldest first (deliveryLog.ts). */
  deliveries(clientId?: string): Promise<readonly DeliveryLogEntry[]>;
}

/** What customers, payees and banks do. */
export function shopperActions(host: ActionHost) {
  const {act} = host;
  return {
    /** The customer pays a PENDING order in the cashier, the SDK or the wallet. */
    pay: (clientId: string, merchantOrderNo: string, choice: PaymentMethodChoice) =>
      act(clientId, (state, tx) => payOrder(tx, state, merchantOrderNo, choice)),
    /** The customer answers the 3-D Secure challenge a card payment stopped at (SUBMIT or CANCEL). */
    answerChallenge: (clientId: string, merchantOrderNo: string, answer: ChallengeAnswer) =>
      act(clientId, (state, tx) => answerChallenge(tx, state, merchantOrderNo, answer)),
    /** A store cashier records cash for a CASH_TOP_UP order by its payment reference. */
    payCash: (clientId: string, paymentReference: string) => act(clientId, (state, tx) => payCash(tx, state, paymentReference)),
    /** The customer scans a DYNAMIC_QR code and confirms in the wallet. */
    scan: (clientId: string, qrContent: string, wallet: {phone: string; pin: string}) =>
      act(clientId, (state, tx) => scanQr(tx, state, qrContent, wallet)),
    /** The customer closes the cashier without paying: nothing changes; the order expires in time. */
    abandon: (clientId: string, merchantOrderNo: string) =>
      act(clientId, (state, tx): JsonObject => findOrder(tx, state, merchantOrderNo).order),
    /** The customer approves (or declines) a direct pay agreement at its authorizationUrl. */
    authorizeAgreement: (clientId: string, merchantAgreementNo: string, wallet: string, approve = true) =>
      act(clientId, (state, tx) => authorizeAgreement(tx, state, merchantAgreementNo, wallet, approve)),
    /** The customer ends an active agreement in the wallet. */
    cancelAgreementInWallet: (clientId: string, merchantAgreementNo: string) =>
      act(clientId, (state, tx) => cancelAgreement(tx, state, merchantAgreementNo, 'PAYER').data as Json),
    /** A page inside the wallet asks the bridge for a one-time auth code for the signed-in wallet user. */
    getAuthCode: (clientId: string, wallet: string) => act(clientId, (state, tx) => getAuthCode(tx, state, wallet)),
  };
}

/** The sandbox's own tools. */
export function controlActions(host: ActionHost) {
  const {act} = host;
  return {
    /** Registers a merchant with the reader's own public key, so nobody shares their state. */
    registerMerchant: async (input: MerchantRegistration): Promise<ActionResult<{clientId: string}>> => {
      const checked = await registrationOf(input, (clientId) => host.hasMerchant(clientId), host.now());
      if (!checked.ok) return checked;
      await host.addMerchant(checked.value);
      await host.commit();
      return {ok: true, value: {clientId: checked.value.clientId}};
    },

    /** Adds a key version to a merchant (key rotation). */
    addKey: async (clientId: string, keyVersion: number, publicKeyPem: string): Promise<ActionResult<{keyVersion: number}>> => {
      const problem = await keyProblem(publicKeyPem);
      return problem ?? act(clientId, (state, tx) => addKey(tx, state, keyVersion, publicKeyPem));
    },

    /** Sets the merchant's default notification URL (null removes it) and the compressed retry schedule. */
    configure: (clientId: string, settings: MerchantSettings) => act(clientId, (state, tx) => configureMerchant(tx, state, settings)),

    /** Answers the next `count` calls (of one operation, or all) with SYSTEM_BUSY or INTERNAL_ERROR. */
    setFault: (fault: {resultCode: string; operationId?: string; count?: number}): ActionResult<Fault> => host.addFault(fault),

    /** Opens a chargeback on a paid order (Test tools, Simulate chargeback). */
    openChargeback: (clientId: string, merchantOrderNo: string, reasonCode = 'FRAUD', amount?: number) =>
      act(clientId, (state, tx) => openChargeback(tx, state, merchantOrderNo, reasonCode, amount)),

    /** Decides an open chargeback: WON releases the frozen amount, LOST debits it. */
    resolveChargeback: (clientId: string, chargebackId: string, resolution: 'WON' | 'LOST') =>
      act(clientId, (state, tx) => resolveChargeback(tx, state, chargebackId, resolution)),

    /** A customer's bank transfer arrives on a virtual account; credited after creditSeconds. */
    topUpVirtualAccount: (clientId: string, iban: string, amount: number, payerName = 'Sandbox Payer') =>
      act(clientId, (state, tx) => topUpVirtualAccount(tx, state, iban, amount, payerName)),

    /** Forgets everything and starts again with the test merchant, as after a fresh install. */
    reset: (): Promise<void> => host.reset(),

    /** Raises a notification of one of the contract's example scenarios, as the event it describes would (domain/events). */
    simulateNotification: (clientId: string, input: SimulateNotificationInput) =>
      act(clientId, (state, tx) => simulateNotification(tx, state, input)),

    /** Notification delivery attempts, one merchant's or every merchant's, newest last. */
    deliveries: (clientId?: string): Promise<readonly DeliveryLogEntry[]> => host.deliveries(clientId),

    /** Delivers one event again now, like Redeliver event, without a signed request. */
    redeliver: (clientId: string, notificationId: string) =>
      act(clientId, (state, tx) => redeliverEvent(tx, state, notificationId).data as Json),
  };
}
