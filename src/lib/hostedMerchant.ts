/**
 * The reader's own merchant on the hosted sandbox, for this tab. The hosted sandbox page makes it: a key pair
 * generated here with WebCrypto, the public key registered with the hosted sandbox, the private key kept as a
 * non-extractable CryptoKey in this tab's memory (hostedMerchantStore.ts). Try it uses it when the hosted target is chosen, to sign
 * API calls and the test tools (which the hosted sandbox requires signed). The private key's PEM text goes
 * to the page once, for the reader to download or copy; it is never sent and never stored by the portal.
 *
 * Isomorphic: WebCrypto and fetch only, so the unit tests run it in Node against a real hosted server.
 */
import {httpTarget, TargetUnreachableError} from '../sandbox/client/overHttp';
import {signRequest} from '../sandbox/client/signing';
import {generateKeyPair, readKey} from './signatureDiagnosis/pem';
import {setHostedMerchant, type HostedMerchant} from './hostedMerchantStore';

export {forgetHostedMerchant, hostedMerchant, onHostedMerchantChange, type HostedMerchant} from './hostedMerchantStore';

/** A registration that did not happen, with the sentence to show. */
export class HostedRegistrationError extends Error {}

/** The hosted sandbox could not be read (no answer, or a refusal), with the sentence to show. */
export class HostedReadError extends Error {}

/**
 * Generates a 2048-bit key pair, registers its public key with the hosted sandbox at `origin` and keeps the
 * merchant for this tab. Answers it with the private key's PEM, which the caller shows once and then drops.
 */
export async function createHostedMerchant(
  origin: string,
  options: {fetch?: typeof fetch} = {},
): Promise<{merchant: HostedMerchant; privateKeyPem: string}> {
  const pair = await generateKeyPair();
  let registered;
  try {
    registered = await httpTarget(origin, options).act('control.registerMerchant', {publicKeyPem: pair.publicKeyPem});
  } catch (error) {
    if (error instanceof TargetUnreachableError) throw new HostedRegistrationError(unreachable(origin));
    throw error;
  }
  if (!registered.ok) throw new HostedRegistrationError(`The hosted sandbox refused the key: ${registered.code}: ${registered.message}`);
  const clientId = (registered.value as {clientId?: unknown}).clientId;
  if (typeof clientId !== 'string') throw new HostedRegistrationError('The hosted sandbox answered without a client ID.');
  const privateKey = (await readKey(pair.privateKeyPem)).privateKey as CryptoKey;
  const merchant = {origin, clientId, signer: {clientId, keyVersion: 1, privateKey}};
  setHostedMerchant(merchant);
  return {merchant, privateKeyPem: pair.privateKeyPem};
}

/** The file name the private key is offered under. */
export const privateKeyFileName = (clientId: string): string => `${clientId}-private-key.pem`;

const unreachable = (origin: string) => `The hosted sandbox at ${origin} did not answer (no network, or a proxy or extension blocked it).`;

/**
 * The merchant's own state on the hosted sandbox: its export (GET /_sandbox/export), signed as the merchant,
 * which the hosted sandbox answers with that merchant's records alone. The console reads it as it reads the
 * sandbox in this browser.
 */
export async function exportHostedMerchant(merchant: HostedMerchant, options: {fetch?: typeof fetch} = {}): Promise<unknown> {
  const target = httpTarget(merchant.origin, options);
  let response;
  try {
    const signed = await signRequest(merchant.signer, {method: 'GET', target: '/_sandbox/export', body: ''}, await target.clock.now());
    response = await target.call(signed);
  } catch (error) {
    if (error instanceof TargetUnreachableError || error instanceof SyntaxError) throw new HostedReadError(unreachable(merchant.origin));
    throw error;
  }
  let json: {code?: unknown; message?: unknown} | undefined;
  try {
    json = JSON.parse(response.body) as typeof json;
  } catch {
    json = undefined;
  }
  if (response.status === 200 && json) return json;
  const refusal = typeof json?.code === 'string' ? `${json.code}: ${String(json.message)}` : `HTTP ${response.status}`;
  throw new HostedReadError(`The hosted sandbox refused to export ${merchant.clientId}: ${refusal}`);
}
