/** Sandbox merchants: registration with the reader's own key, key rotation, and notification settings. */
import {importPublicKey} from '../../../lib/signing';
import type {ActionResult} from '../api';
import {randomToken} from '../ids';
import type {MerchantRecord, MerchantState} from '../state';
import {reject, type Tx} from '../tx';

export interface MerchantRegistration {
  readonly clientId?: string;
  readonly publicKeyPem: string;
  readonly keyVersion?: number;
  readonly defaultNotifyUrl?: string | null;
}

export interface MerchantSettings {
  readonly defaultNotifyUrl?: string | null;
  readonly compressedRetries?: boolean;
}

/** A refusal when the PEM is not a public key WebCrypto can import. */
export async function keyProblem(publicKeyPem: string): Promise<{ok: false; code: string; message: string} | undefined> {
  try {
    await importPublicKey(publicKeyPem);
    return undefined;
  } catch (error) {
    return {ok: false, code: 'INVALID_PARAMETER', message: `publicKeyPem: ${(error as Error).message}`};
  }
}

/** The merchant record a registration makes, or why it is refused (checked in the order a reader fixes them). */
export async function registrationOf(
  input: MerchantRegistration,
  taken: (clientId: string) => boolean,
  now: number,
): Promise<ActionResult<MerchantRecord>> {
  const clientId = input.clientId ?? `sandbox-${randomToken(12).toLowerCase()}`;
  if (!/^[a-z0-9-]{4,40}$/.test(clientId))
    return {ok: false, code: 'INVALID_PARAMETER', message: 'clientId must be 4 to 40 lower-case letters, digits or hyphens.'};
  if (taken(clientId)) return {ok: false, code: 'IDEMPOTENCY_CONFLICT', message: `${clientId} is taken.`};
  const keyVersion = input.keyVersion ?? 1;
  if (!Number.isInteger(keyVersion) || keyVersion < 1)
    return {ok: false, code: 'INVALID_PARAMETER', message: 'keyVersion must be a positive integer.'};
  const problem = await keyProblem(input.publicKeyPem);
  if (problem) return problem;
  if (input.defaultNotifyUrl !== undefined && input.defaultNotifyUrl !== null && !/^https?:\/\//.test(input.defaultNotifyUrl)) {
    return {ok: false, code: 'INVALID_PARAMETER', message: 'defaultNotifyUrl must be an http or https URL.'};
  }
  return {
    ok: true,
    value: {
      clientId,
      keys: {[String(keyVersion)]: input.publicKeyPem},
      defaultNotifyUrl: input.defaultNotifyUrl ?? null,
      compressedRetries: false,
      createdAt: now,
    },
  };
}

export function addKey(tx: Tx, state: MerchantState, keyVersion: number, publicKeyPem: string): {keyVersion: number} {
  if (!Number.isInteger(keyVersion) || keyVersion < 1) reject('INVALID_PARAMETER', 'keyVersion must be a positive integer.');
  tx.saveMerchant(state, {...state.merchant, keys: {...state.merchant.keys, [String(keyVersion)]: publicKeyPem}});
  return {keyVersion};
}

export function configureMerchant(
  tx: Tx,
  state: MerchantState,
  settings: MerchantSettings,
): {defaultNotifyUrl: string | null; compressedRetries: boolean} {
  const merchant = {...state.merchant};
  if (settings.defaultNotifyUrl !== undefined) {
    if (settings.defaultNotifyUrl !== null && !/^https?:\/\/[^\s]+$/.test(settings.defaultNotifyUrl))
      reject('INVALID_PARAMETER', 'defaultNotifyUrl must be an http or https URL.');
    merchant.defaultNotifyUrl = settings.defaultNotifyUrl;
  }
  if (settings.compressedRetries !== undefined) merchant.compressedRetries = settings.compressedRetries;
  tx.saveMerchant(state, merchant);
  return {defaultNotifyUrl: merchant.defaultNotifyUrl, compressedRetries: merchant.compressedRetries};
}
