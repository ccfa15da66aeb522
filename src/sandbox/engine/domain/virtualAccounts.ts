/** Virtual accounts: a shopper's bank transfer arrives (control action) and is credited by a job. */
import {isoSeconds, utcDay} from '../clock';
import {randomDigits} from '../ids';
import type {JobRecord, Json, JsonObject, MerchantState, Money} from '../state';
import {reject, type Tx} from '../tx';
import {money, msPerSecond} from '../values';
import {emit} from './events';
import {post} from './ledger';

export function creditVam(tx: Tx, state: MerchantState, job: JobRecord): void {
  const data = job.data as JsonObject;
  const topUp = data['topUp'] as JsonObject & {amount: Money};
  const now = tx.clock.now();
  // A bank transfer into a virtual account is settled money: available on arrival (issue 29, I-8), unless the data says pending.
  const settled = tx.spec.sandbox.virtualAccounts.creditedTo === 'available';
  post(tx, state, {
    currency: topUp.amount.currency,
    legs: settled ? {available: topUp.amount.value} : {pending: topUp.amount.value},
    availableOn: utcDay(settled ? now : now + tx.spec.sandbox.pricing.settlementDays * 86400 * msPerSecond),
    row: {
      transactionType: 'VAM_TOP_UP',
      merchantReference: '',
      providerReference: String(topUp['bankReference']),
      relatedOrderNo: '',
      gross: topUp.amount.value,
      fee: 0,
      status: 'SUCCEEDED',
      paymentMethod: '',
      createdAt: isoSeconds(now),
      completedAt: isoSeconds(now),
      storeId: '',
    },
    memo: `top-up of ${String(topUp['virtualAccountId'])}`,
  });
  emit(tx, state, 'VAM.TOP_UP', topUp, {});
}

export function topUpVirtualAccount(tx: Tx, state: MerchantState, iban: string, amount: number, payerName = 'Sandbox Payer') {
  const data = tx.spec.sandbox.virtualAccounts;
  const account = data.accounts.find((candidate) => candidate.iban === iban);
  if (!account) return reject('INVALID_PARAMETER', `${iban} is not a sandbox virtual account.`);
  if (!Number.isInteger(amount) || amount < 1) reject('INVALID_PARAMETER', 'amount must be a positive integer in minor units.');
  const topUp = {
    virtualAccountNumber: account.iban,
    virtualAccountId: account.virtualAccountId,
    customerReference: account.customerReference,
    amount: money(amount, account.currency),
    payerName,
    payerBankName: 'Sandbox Bank',
    payerAccountMasked: '******0001',
    bankReference: `SBX${randomDigits(13)}`,
    // When it will be credited; the notification carries the same time.
    creditedAt: isoSeconds(tx.clock.now() + data.creditSeconds * msPerSecond),
    version: 1, // a top-up never changes: its one notification carries version 1
  };
  tx.schedule({
    at: tx.clock.now() + data.creditSeconds * msPerSecond,
    clientId: state.merchant.clientId,
    kind: 'vam.credit',
    ref: topUp.bankReference,
    data: {topUp: topUp as unknown as Json},
  });
  return topUp as unknown as Json;
}
