/**
 * The merchant's side of the signature scheme, written once for every host and widget: sign a request,
 * verify the response that answers it, verify a notification. Built on the primitives of src/lib/signing.ts
 * (canonical strings, the header format, WebCrypto), so it runs in the browser and in Node alike.
 */
import {
  canonicalString,
  formatSignatureHeader,
  parseSignatureHeader,
  responseCanonicalString,
  signatureAlgorithm,
  signCanonical,
  verifyCanonical,
} from '../../lib/signing';
import {isoSeconds} from '../engine/clock';

/** Who signs: a client ID and a private key (a CryptoKey, which may be non-extractable). */
export interface MerchantSigner {
  readonly clientId: string;
  readonly keyVersion: number;
  readonly privateKey: CryptoKey;
}

/** The provider's public key a merchant verifies with, and the version the X-Signature header must name. */
export interface ProviderKey {
  readonly key: CryptoKey;
  readonly keyVersion: number;
}

/** A request as the merchant's code builds it, before signing. */
export interface UnsignedRequest {
  readonly method: string;
  /** Path and query exactly as sent, such as /v1/orders?pageNo=2. */
  readonly target: string;
  /** The raw body; the empty string for none. */
  readonly body: string;
}

/** A request ready to send, with what the signature covers. */
export interface SignedRequest extends UnsignedRequest {
  readonly headers: Readonly<Record<string, string>>;
  readonly clientId: string;
  readonly timestamp: string;
  readonly nonce: string;
  /** The six-line string the signature covers. */
  readonly canonical: string;
  readonly signatureHeader: string;
}

/** The parts of a response the signature covers. Header names are matched without regard to case. */
export interface ReceivedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A notification as the merchant's endpoint received it. */
export interface ReceivedNotification {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/**
 * The outcome of a signature check: verified; signed with another key version than the one held; not
 * matching the key; or not checkable at all (no or a malformed X-Signature, headers the canonical string
 * refuses), with the sentence that says why.
 */
export type Verification =
  | {readonly outcome: 'verified'; readonly keyVersion: number}
  | {readonly outcome: 'otherKeyVersion'; readonly keyVersion: number}
  | {readonly outcome: 'mismatch'; readonly keyVersion: number}
  | {readonly outcome: 'unreadable'; readonly message: string};

/** A header's value by name, whatever its case. */
export function headerValue(headers: Readonly<Record<string, string | undefined>>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * Signs a request as the integration guide says: X-Client-Id, X-Timestamp (`at`, in milliseconds, on the
 * clock the receiver checks against), a fresh X-Nonce and X-Signature over the six-line string. Content-Type
 * is not signed: a target that sends over HTTP adds it (withContentType).
 */
export async function signRequest(
  signer: MerchantSigner,
  request: UnsignedRequest,
  at: number,
  nonce: string = crypto.randomUUID(),
): Promise<SignedRequest> {
  const timestamp = isoSeconds(at);
  const canonical = canonicalString({
    method: request.method,
    pathWithQuery: request.target,
    clientId: signer.clientId,
    timestamp,
    nonce,
    body: request.body,
  });
  const signatureHeader = formatSignatureHeader({
    algorithm: signatureAlgorithm,
    keyVersion: signer.keyVersion,
    signature: await signCanonical(canonical, signer.privateKey),
  });
  return {
    method: request.method,
    target: request.target,
    body: request.body,
    headers: {'X-Client-Id': signer.clientId, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': signatureHeader},
    clientId: signer.clientId,
    timestamp,
    nonce,
    canonical,
    signatureHeader,
  };
}

/** The headers with Content-Type: application/json first when there is a body, as an HTTP client sends them. */
export function withContentType(request: {
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}): Record<string, string> {
  if (request.body === '' || headerValue(request.headers, 'Content-Type') !== undefined) return {...request.headers};
  return {'Content-Type': 'application/json', ...request.headers};
}

async function verify(canonical: () => string, signatureHeader: string, provider: ProviderKey): Promise<Verification> {
  try {
    const header = parseSignatureHeader(signatureHeader);
    if (header.keyVersion !== provider.keyVersion) return {outcome: 'otherKeyVersion', keyVersion: header.keyVersion};
    const verified = await verifyCanonical(canonical(), header.signature, provider.key);
    return {outcome: verified ? 'verified' : 'mismatch', keyVersion: header.keyVersion};
  } catch (error) {
    return {outcome: 'unreadable', message: error instanceof Error ? error.message : String(error)};
  }
}

/** Verifies a response's X-Signature over the eight-line string that binds it to the request it answers. */
export function verifyResponse(
  request: Pick<SignedRequest, 'method' | 'target' | 'clientId' | 'nonce'>,
  response: ReceivedResponse,
  provider: ProviderKey,
): Promise<Verification> {
  const canonical = () =>
    responseCanonicalString({
      request: {method: request.method, pathWithQuery: request.target, clientId: request.clientId, nonce: request.nonce},
      status: response.status,
      timestamp: headerValue(response.headers, 'X-Timestamp') ?? '',
      nonce: headerValue(response.headers, 'X-Nonce') ?? '',
      body: response.body,
    });
  return verify(canonical, headerValue(response.headers, 'X-Signature') ?? '', provider);
}

/** The six-line string a notification's signature covers: POST, the notifyUrl's path and query, its headers, its body. */
export function notificationCanonical(notification: ReceivedNotification): string {
  const url = new URL(notification.url);
  const header = (name: string) => headerValue(notification.headers, name) ?? '';
  return canonicalString({
    method: 'POST',
    pathWithQuery: `${url.pathname}${url.search}`,
    clientId: header('X-Client-Id'),
    timestamp: header('X-Timestamp'),
    nonce: header('X-Nonce'),
    body: notification.body,
  });
}

/** Verifies a notification's X-Signature with the provider key, as the merchant's endpoint must. */
export function verifyNotification(notification: ReceivedNotification, provider: ProviderKey): Promise<Verification> {
  return verify(() => notificationCanonical(notification), headerValue(notification.headers, 'X-Signature') ?? '', provider);
}
