/**
 * Request, response and notification signing (RSA-SHA256, PKCS #1 v1.5, 2048-bit
 * keys) as the contract's `merchantSignature` scheme specifies it. Pure
 * TypeScript on WebCrypto, so the same code runs in Node (tests, samples'
 * stub server, build checks) and in the browser (the future sandbox and
 * signature debugger).
 *
 * The signed bytes are the UTF-8 encoding of a canonical string whose lines are
 * joined by "\n" (no line feed after the last line; an empty body makes the
 * last line empty, so the string then ends in "\n").
 *
 * Requests and notifications, six lines:
 *   METHOD            upper case, e.g. POST
 *   request target    path and query exactly as in the request line, e.g.
 *                     /v1/orders?createdFrom=2025-06-01T00%3A00%3A00Z (no host;
 *                     for a notification, the path of the notifyUrl as registered)
 *   client ID         the X-Client-Id header
 *   timestamp         the X-Timestamp header, YYYY-MM-DDTHH:MM:SSZ
 *   nonce             the X-Nonce header, 16 to 64 characters [A-Za-z0-9-]
 *   body              the raw body as sent; empty for a request without one
 *
 * Responses, eight lines, bound to the request they answer:
 *   the request's METHOD, request target and client ID,
 *   the response's X-Timestamp and X-Nonce,
 *   the request's X-Nonce, the HTTP status (three digits), the raw response body.
 * The request's values are taken as the request carried them, valid or not, and a header the request
 * lacked is the empty string: so an answer to a malformed request (no X-Client-Id, a short X-Nonce) is
 * signed too, and the client verifies it with exactly what it sent.
 */

export const signatureAlgorithm = 'RSA-SHA256';
/** How far a timestamp may be from the verifier's clock, either way. */
export const timestampWindowSeconds = 300;
/** How long a verifier must remember nonces: twice the window covers both sides of it. */
export const nonceRetentionSeconds = 2 * timestampWindowSeconds;

export interface CanonicalInput {
  readonly method: string;
  readonly pathWithQuery: string;
  readonly clientId: string;
  readonly timestamp: string;
  readonly nonce: string;
  readonly body: string;
}

type SigningField = keyof CanonicalInput | 'responseTimestamp' | 'responseNonce' | 'status' | 'signatureHeader' | 'key';

export class SigningInputError extends Error {
  constructor(
    readonly field: SigningField,
    message: string,
  ) {
    super(message);
    this.name = 'SigningInputError';
  }
}

/** The one timestamp format of the API: RFC 3339 in UTC, whole seconds, "Z". */
export const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const noncePattern = /^[A-Za-z0-9-]{16,64}$/;

/** Builds the string that is signed; throws SigningInputError naming the bad field. */
export function canonicalString(input: CanonicalInput): string {
  if (!/^[A-Z]+$/.test(input.method)) {
    throw new SigningInputError('method', `method must be an upper-case HTTP method, got "${input.method}".`);
  }
  if (!input.pathWithQuery.startsWith('/') || /[\s]/.test(input.pathWithQuery)) {
    throw new SigningInputError(
      'pathWithQuery',
      `pathWithQuery must start with "/" and hold no spaces or newlines (no scheme or host), got "${input.pathWithQuery}".`,
    );
  }
  if (input.clientId === '' || /[\r\n]/.test(input.clientId)) {
    throw new SigningInputError('clientId', 'clientId must be a non-empty single line.');
  }
  checkTimestamp('timestamp', input.timestamp);
  checkNonce('nonce', input.nonce);
  return [input.method, input.pathWithQuery, input.clientId, input.timestamp, input.nonce, input.body].join('\n');
}

function checkTimestamp(field: SigningField, timestamp: string): void {
  if (!timestampPattern.test(timestamp) || Number.isNaN(Date.parse(timestamp))) {
    throw new SigningInputError(
      field,
      `${field} must be YYYY-MM-DDTHH:MM:SSZ (RFC 3339 in UTC, whole seconds), such as 2025-06-01T08:30:00Z, got "${timestamp}".`,
    );
  }
}

function checkNonce(field: SigningField, nonce: string): void {
  if (!noncePattern.test(nonce)) {
    throw new SigningInputError(field, `${field} must be 16 to 64 letters, digits or hyphens, got "${nonce}".`);
  }
}

/**
 * The request a response answers, as it was sent: method, target, X-Client-Id and X-Nonce, each the
 * empty string when the request lacked it. Its timestamp and body are not part of the response string.
 */
interface AnsweredRequest {
  readonly method: string;
  readonly pathWithQuery: string;
  readonly clientId: string;
  readonly nonce: string;
  readonly timestamp?: string;
}

/** What a response signature covers: the request it answers, and the response itself. */
export interface ResponseCanonicalInput {
  readonly request: AnsweredRequest;
  readonly status: number;
  /** The response's own X-Timestamp and X-Nonce headers. */
  readonly timestamp: string;
  readonly nonce: string;
  readonly body: string;
}

/** Builds the response canonical string; throws SigningInputError naming the bad field. */
export function responseCanonicalString(input: ResponseCanonicalInput): string {
  // Taken as sent, valid or not (an HTTP header or request line cannot hold a line break, so none is lost).
  for (const field of ['method', 'pathWithQuery', 'clientId', 'nonce'] as const) {
    if (/[\r\n]/.test(input.request[field])) throw new SigningInputError(field, `the request's ${field} must be a single line.`);
  }
  checkTimestamp('responseTimestamp', input.timestamp);
  checkNonce('responseNonce', input.nonce);
  if (!Number.isInteger(input.status) || input.status < 100 || input.status > 599) {
    throw new SigningInputError('status', `status must be an HTTP status from 100 to 599, got ${String(input.status)}.`);
  }
  const {method, pathWithQuery, clientId, nonce} = input.request;
  return [method, pathWithQuery, clientId, input.timestamp, input.nonce, nonce, String(input.status), input.body].join('\n');
}

export interface SignatureHeader {
  readonly algorithm: typeof signatureAlgorithm;
  readonly keyVersion: number;
  readonly signature: string;
}

export function formatSignatureHeader(header: SignatureHeader): string {
  return `algorithm=${header.algorithm}, keyVersion=${header.keyVersion}, signature=${header.signature}`;
}

/** Parses an X-Signature header value; throws SigningInputError saying what is wrong. */
export function parseSignatureHeader(value: string): SignatureHeader {
  const parts = new Map<string, string>();
  for (const part of value.split(',')) {
    const separator = part.indexOf('=');
    if (separator < 1) {
      throw new SigningInputError('signatureHeader', `"${part.trim()}" is not a name=value pair.`);
    }
    parts.set(part.slice(0, separator).trim(), part.slice(separator + 1).trim());
  }
  const algorithm = parts.get('algorithm');
  if (algorithm !== signatureAlgorithm) {
    throw new SigningInputError('signatureHeader', `algorithm must be ${signatureAlgorithm}, got "${algorithm ?? ''}".`);
  }
  const keyVersion = Number(parts.get('keyVersion'));
  if (!Number.isInteger(keyVersion) || keyVersion < 1) {
    throw new SigningInputError('signatureHeader', 'keyVersion must be a positive integer.');
  }
  const signature = parts.get('signature') ?? '';
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) {
    throw new SigningInputError('signatureHeader', 'signature must be standard base64.');
  }
  return {algorithm, keyVersion, signature};
}

/** True when `timestamp` is within the freshness window of `now`. */
export function isTimestampFresh(timestamp: string, now: Date, windowSeconds: number = timestampWindowSeconds): boolean {
  const at = Date.parse(timestamp);
  return timestampPattern.test(timestamp) && !Number.isNaN(at) && Math.abs(now.getTime() - at) <= windowSeconds * 1000;
}

const rsaAlgorithm = {name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256'} as const;

function pemBody(pem: string, label: 'PRIVATE KEY' | 'PUBLIC KEY'): Uint8Array<ArrayBuffer> {
  const match = new RegExp(`-----BEGIN ${label}-----([\\s\\S]+?)-----END ${label}-----`).exec(pem);
  if (!match?.[1]) {
    throw new SigningInputError('key', `expected a PEM block "-----BEGIN ${label}-----" (PKCS #8 for private keys, SPKI for public keys).`);
  }
  return base64ToBytes(match[1].replace(/\s+/g, ''));
}

export function base64ToBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function importPrivateKey(pem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('pkcs8', pemBody(pem, 'PRIVATE KEY'), rsaAlgorithm, false, ['sign']);
}

export function importPublicKey(pem: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', pemBody(pem, 'PUBLIC KEY'), rsaAlgorithm, false, ['verify']);
}

/** Signs a canonical string; returns the base64 signature. */
export async function signCanonical(canonical: string, privateKey: CryptoKey): Promise<string> {
  const signature = await crypto.subtle.sign(rsaAlgorithm.name, privateKey, new TextEncoder().encode(canonical));
  return bytesToBase64(new Uint8Array(signature));
}

export async function verifyCanonical(canonical: string, signatureBase64: string, publicKey: CryptoKey): Promise<boolean> {
  let signature: Uint8Array<ArrayBuffer>;
  try {
    signature = base64ToBytes(signatureBase64);
  } catch {
    return false;
  }
  return crypto.subtle.verify(rsaAlgorithm.name, publicKey, signature, new TextEncoder().encode(canonical));
}
