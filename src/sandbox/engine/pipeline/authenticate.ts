/**
 * Step 2: who is calling. The signing headers are checked in the order a merchant fixes them (client ID,
 * timestamp format, nonce format, known merchant, timestamp window, signature, nonce reuse); the nonce is
 * then remembered for the contract's retention time.
 */
import {canonicalString, importPublicKey, parseSignatureHeader, verifyCanonical} from '../../../lib/signing';
import {isoSeconds} from '../clock';
import type {SandboxRequest} from '../http';
import type {MerchantRecords, MerchantState} from '../state';
import {reject, type Tx} from '../tx';
import type {UnitOfWork} from '../unit';
import {isRealTimestamp, msPerSecond} from '../values';

export interface Authenticator {
  /**
   * Starts the signature check of a call before its unit of work, so calls verify on the thread pool in parallel
   * while units run one at a time; undefined when a check before the signature fails (authenticate says which).
   */
  verifyEarly(request: SandboxRequest, headers: Record<string, string | undefined>): EarlyVerification | undefined;
  /**
   * The calling merchant, as the call's unit of work sees it, with the request's nonce remembered in it. Every check
   * runs again here, in order; an early verification counts only if it checked these bytes with the key the merchant
   * has now (a key rotated or revoked in between is checked again).
   */
  authenticate(
    unit: Pick<UnitOfWork, 'tx' | 'view'>,
    request: SandboxRequest,
    headers: Record<string, string | undefined>,
    early?: EarlyVerification,
  ): Promise<MerchantState>;
}

/** What a signature check covered, and its result to come. */
export interface EarlyVerification extends SignedInput {
  readonly valid: Promise<boolean>;
}

/** The bytes a request's signature is checked over, and the public key it is checked with. */
interface SignedInput {
  readonly pem: string;
  readonly canonical: string;
  readonly signature: string;
}

/** The merchant the headers name, when the timestamp, nonce and merchant are well formed and known. */
function merchantFor(
  tx: Pick<Tx, 'spec' | 'clock'>,
  merchantOf: (clientId: string) => MerchantRecords | undefined,
  headers: Record<string, string | undefined>,
): MerchantRecords {
  const clientId = headers['x-client-id'];
  if (!clientId) reject('INVALID_PARAMETER', 'The X-Client-Id header is missing.');
  const timestamp = headers['x-timestamp'] ?? '';
  if (!isRealTimestamp(timestamp))
    reject('INVALID_PARAMETER', `X-Timestamp must be YYYY-MM-DDTHH:MM:SSZ naming a real instant, got "${timestamp.slice(0, 40)}".`);
  const nonce = headers['x-nonce'] ?? '';
  if (!/^[A-Za-z0-9-]{16,64}$/.test(nonce)) reject('INVALID_PARAMETER', 'X-Nonce must be 16 to 64 letters, digits or hyphens.');
  const state = merchantOf(clientId as string);
  if (!state)
    return reject(
      'UNKNOWN_CLIENT',
      `No sandbox merchant has the client ID "${(clientId as string).slice(0, 64)}". Register one, or use ${tx.spec.sandbox.merchant.clientId}.`,
    );
  const window = tx.spec.signing.timestampWindowSeconds;
  if (Math.abs(tx.clock.now() - Date.parse(timestamp)) > window * msPerSecond) {
    reject(
      'TIMESTAMP_OUT_OF_WINDOW',
      `X-Timestamp ${timestamp} is more than ${window} seconds from the sandbox clock, ${isoSeconds(tx.clock.now())}.`,
    );
  }
  return state;
}

/** The signature header, the merchant's key for its version and the canonical string; a malformed header or unknown key version is rejected. */
function signedInput(merchant: MerchantRecords, request: SandboxRequest, headers: Record<string, string | undefined>): SignedInput {
  const clientId = merchant.merchant.clientId;
  let signature: {keyVersion: number; signature: string};
  try {
    signature = parseSignatureHeader(headers['x-signature'] ?? '');
  } catch (error) {
    return reject('INVALID_SIGNATURE', `X-Signature: ${(error as Error).message}`);
  }
  const pem = merchant.merchant.keys[String(signature.keyVersion)];
  if (!pem) return reject('UNKNOWN_CLIENT', `No public key is registered under key version ${signature.keyVersion} for ${clientId}.`);
  const canonical = canonicalString({
    method: request.method,
    pathWithQuery: request.target,
    clientId,
    timestamp: headers['x-timestamp'] ?? '',
    nonce: headers['x-nonce'] ?? '',
    body: request.body,
  });
  return {pem, canonical, signature: signature.signature};
}

/** An authenticator over the engine's merchants, with imported public keys kept by PEM. */
export function createAuthenticator(
  tx: Pick<Tx, 'spec' | 'clock'>,
  merchantOf: (clientId: string) => MerchantRecords | undefined,
): Authenticator {
  const publicKeys = new Map<string, CryptoKey>();
  const lastSweep = new WeakMap<MerchantRecords, number>();

  async function publicKey(pem: string): Promise<CryptoKey> {
    let key = publicKeys.get(pem);
    if (!key) {
      key = await importPublicKey(pem);
      publicKeys.set(pem, key);
    }
    return key;
  }

  /**
   * Forgets expired nonces, at most once a minute per merchant (a sweep walks them all), and remembers this
   * request's: the one place a call writes nonces, kept even when the call is then rejected.
   */
  function rememberNonce(unit: Pick<UnitOfWork, 'tx'>, records: MerchantRecords, state: MerchantState, nonce: string): void {
    const now = tx.clock.now();
    if (state.nonces.size >= 256 && now - (lastSweep.get(records) ?? 0) >= 60 * msPerSecond) {
      lastSweep.set(records, now);
      for (const [seen, until] of state.nonces) if (until < now) unit.tx.putEvenIfRejected(state, 'nonce', seen, undefined);
    }
    if (state.nonces.has(nonce))
      reject('NONCE_REUSED', `X-Nonce ${nonce} was used in the last ${tx.spec.signing.nonceRetentionSeconds} seconds.`);
    unit.tx.putEvenIfRejected(state, 'nonce', nonce, now + tx.spec.signing.nonceRetentionSeconds * msPerSecond);
  }

  const verify = async (input: SignedInput): Promise<boolean> =>
    verifyCanonical(input.canonical, input.signature, await publicKey(input.pem));

  return {
    verifyEarly(request, headers) {
      let input: SignedInput;
      try {
        input = signedInput(merchantFor(tx, merchantOf, headers), request, headers);
      } catch {
        return undefined;
      }
      const valid = verify(input);
      // Awaited only if authenticate gets as far as the signature: a failure is then its to report, never unhandled.
      valid.catch(() => undefined);
      return {...input, valid};
    },

    async authenticate(unit, request, headers, early) {
      const merchant = merchantFor(tx, merchantOf, headers);
      const input = signedInput(merchant, request, headers);
      const same = early?.pem === input.pem && early.canonical === input.canonical && early.signature === input.signature;
      if (!(await (same ? early.valid : verify(input)))) {
        reject(
          'INVALID_SIGNATURE',
          'The signature does not verify over the canonical string of this request: method, the target exactly as sent, client ID, timestamp, nonce and the raw body.',
        );
      }
      const state = unit.view(merchant);
      rememberNonce(unit, merchant, state, headers['x-nonce'] ?? '');
      return state;
    },
  };
}
