/** Direct pay agreements and wallet auth codes: create, query, cancel, authorize (shopper), expiry, and Exchange auth code. */
import {isoSeconds} from '../clock';
import {randomId, randomToken} from '../ids';
import {findWallet} from '../rules/rules';
import type {AgreementRecord, JsonObject, MerchantState} from '../state';
import {reject, type Reply, transition, type Tx} from '../tx';
import {msPerSecond, recordChange} from '../values';
import {emit} from './events';

export function findAgreement(tx: Tx, state: MerchantState, merchantAgreementNo: string): AgreementRecord {
  const record = state.agreements.get(merchantAgreementNo);
  if (!record) return reject('AGREEMENT_NOT_FOUND', `No agreement ${merchantAgreementNo} exists, yet, for ${state.merchant.clientId}.`);
  return record;
}

export function createAgreement(tx: Tx, state: MerchantState, body: JsonObject, requestKey: string): Reply {
  const merchantAgreementNo = String(body['merchantAgreementNo']);
  const existing = state.agreements.get(merchantAgreementNo);
  if (existing) {
    if (existing.requestKey !== requestKey)
      reject('IDEMPOTENCY_CONFLICT', `Agreement ${String(body['merchantAgreementNo'])} was requested with a different body.`);
    return {code: 'SUCCESS', data: existing.agreement, headers: {'Idempotent-Replayed': 'true'}};
  }
  const now = tx.clock.now();
  const agreementId = randomId('agr_', 16);
  const expires = now + tx.spec.timeLimits.agreementLinkSeconds * msPerSecond;
  const record: AgreementRecord = {
    requestKey,
    ...(typeof body['notifyUrl'] === 'string' ? {notifyUrl: body['notifyUrl']} : {}),
    agreement: {
      merchantAgreementNo,
      agreementId,
      status: 'PENDING_AUTHORIZATION',
      description: String(body['description']),
      authorizationUrl: `https://${tx.hosts.cashier}/agreements/${agreementId}?state=${randomToken(16)}`,
      authorizationExpiresAt: isoSeconds(expires),
      createdAt: isoSeconds(now),
      updatedAt: isoSeconds(now),
      version: 1,
    },
  };
  tx.put(state, 'agreement', merchantAgreementNo, record);
  tx.schedule({at: expires, clientId: state.merchant.clientId, kind: 'agreement.expire', ref: merchantAgreementNo});
  return {code: 'SUCCESS', data: record.agreement};
}

export function setAgreementStatus(tx: Tx, state: MerchantState, record: AgreementRecord, to: string, changes: JsonObject): void {
  transition(tx, 'AgreementStatus', record.agreement.status, to);
  Object.assign(record.agreement, changes, {status: to});
  recordChange(record.agreement, tx.clock.now());
  tx.touch(state, 'agreement', record.agreement.merchantAgreementNo);
}

export function cancelAgreement(tx: Tx, state: MerchantState, merchantAgreementNo: string, by: 'MERCHANT' | 'PAYER'): Reply {
  const record = findAgreement(tx, state, merchantAgreementNo);
  if (record.agreement.status === 'ACTIVE' || record.agreement.status === 'PENDING_AUTHORIZATION') {
    setAgreementStatus(tx, state, record, 'CANCELLED', {cancelledAt: isoSeconds(tx.clock.now()), cancelledBy: by});
    emit(tx, state, 'AGREEMENT.CANCELLED', record.agreement, {agreement: merchantAgreementNo});
  }
  return {code: 'SUCCESS', data: record.agreement};
}

export function exchangeAuthCode(tx: Tx, state: MerchantState, authCode: string): Reply {
  const data = tx.spec.sandbox;
  const fixed = data.walletAuthCodes.codes.find((entry) => entry.code === authCode);
  if (fixed) return {code: 'SUCCESS', data: {payerWalletUserId: fixed.userId, scope: 'USER_ID', issuedAt: isoSeconds(tx.clock.now())}};
  const issued = state.authCodes.get(authCode);
  const lifetime = tx.spec.timeLimits.authCodeSeconds;
  if (!issued || issued.used || tx.clock.now() - issued.issuedAt > lifetime * msPerSecond)
    return reject(
      data.walletAuthCodes.unknown.resultCode ?? 'AUTH_CODE_INVALID',
      `The authorization code is unknown, used already or older than ${lifetime / 60} minutes.`,
    );
  issued.used = true;
  tx.touch(state, 'authCode', authCode);
  const userId = data.walletAuthCodes.codes.find((entry) => entry.wallet === issued.wallet)?.userId ?? 'wu_Sandbox000';
  return {code: 'SUCCESS', data: {payerWalletUserId: userId, scope: 'USER_ID', issuedAt: isoSeconds(issued.issuedAt)}};
}

export function authorizeAgreement(tx: Tx, state: MerchantState, merchantAgreementNo: string, wallet: string, approve = true) {
  const record = findAgreement(tx, state, merchantAgreementNo);
  if (record.agreement.status !== 'PENDING_AUTHORIZATION')
    reject('INVALID_PARAMETER', `Agreement ${merchantAgreementNo} is ${record.agreement.status}.`);
  if (!findWallet(tx.spec.sandbox, {phone: wallet})) reject('INVALID_PARAMETER', `${wallet} is not a sandbox wallet.`);
  if (!approve) {
    setAgreementStatus(tx, state, record, 'CANCELLED', {cancelledAt: isoSeconds(tx.clock.now()), cancelledBy: 'PAYER'});
    emit(tx, state, 'AGREEMENT.CANCELLED', record.agreement, {agreement: merchantAgreementNo});
    return record.agreement;
  }
  const token = `agt_${randomToken(24)}`;
  record.wallet = wallet;
  setAgreementStatus(tx, state, record, 'ACTIVE', {payerAgreementToken: token, authorizedAt: isoSeconds(tx.clock.now())});
  delete record.agreement['authorizationUrl'];
  tx.put(state, 'token', token, merchantAgreementNo);
  emit(tx, state, 'AGREEMENT.AUTHORIZED', record.agreement, {agreement: merchantAgreementNo});
  return record.agreement;
}

export function getAuthCode(tx: Tx, state: MerchantState, wallet: string) {
  if (!findWallet(tx.spec.sandbox, {phone: wallet})) reject('INVALID_PARAMETER', `${wallet} is not a sandbox wallet.`);
  const code = `wac_${randomToken(20)}`;
  tx.put(state, 'authCode', code, {wallet, issuedAt: tx.clock.now(), used: false});
  return code;
}
