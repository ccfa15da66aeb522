/**
 * Reading a pasted PEM key for the signature debugger: PKCS #8 or SPKI as the API uses them, and the
 * PKCS #1 forms ("BEGIN RSA PRIVATE KEY", "BEGIN RSA PUBLIC KEY") that OpenSSL 1.x and many libraries
 * write, which WebCrypto cannot import: they are wrapped into PKCS #8 or SPKI here, and the reader is told.
 * Pure TypeScript on WebCrypto.
 */
import {base64ToBytes, bytesToBase64} from '../signing';

const rsaAlgorithm = {name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256'} as const;

/** A pasted key that cannot be used, with what is wrong in one sentence. */
export class KeyInputError extends Error {
  override readonly name = 'KeyInputError';
}

export type KeyFormat = 'PKCS #8 private key' | 'PKCS #1 private key' | 'SPKI public key' | 'PKCS #1 public key';

export interface ReadKey {
  readonly format: KeyFormat;
  /** For verifying; derived from a private key when one is given. */
  readonly publicKey: CryptoKey;
  /** For computing the expected signature; only when a private key is given. Held in memory, never stored. */
  readonly privateKey?: CryptoKey;
  /** Notes for the reader, such as the PKCS #1 conversion. */
  readonly notes: readonly string[];
}

const labels: Readonly<Record<string, KeyFormat>> = {
  'PRIVATE KEY': 'PKCS #8 private key',
  'RSA PRIVATE KEY': 'PKCS #1 private key',
  'PUBLIC KEY': 'SPKI public key',
  'RSA PUBLIC KEY': 'PKCS #1 public key',
};

/** DER length octets. */
function derLength(length: number): number[] {
  if (length < 0x80) return [length];
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return [0x80 | bytes.length, ...bytes];
}

function der(tag: number, content: readonly number[] | Uint8Array): number[] {
  return [tag, ...derLength(content.length), ...content];
}

/** AlgorithmIdentifier for rsaEncryption (1.2.840.113549.1.1.1) with NULL parameters. */
const rsaEncryption = der(0x30, [...der(0x06, [0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01]), 0x05, 0x00]);

/** PKCS #1 RSAPrivateKey inside a PKCS #8 PrivateKeyInfo: version 0, the algorithm, the key as an OCTET STRING. */
export function pkcs1PrivateToPkcs8(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(der(0x30, [...der(0x02, [0x00]), ...rsaEncryption, ...der(0x04, pkcs1)]));
}

/** PKCS #1 RSAPublicKey inside a SubjectPublicKeyInfo: the algorithm, the key as a BIT STRING. */
export function pkcs1PublicToSpki(pkcs1: Uint8Array): Uint8Array<ArrayBuffer> {
  return new Uint8Array(der(0x30, [...rsaEncryption, ...der(0x03, [0x00, ...pkcs1])]));
}

/** The first PEM block of a text, its label and its DER bytes. */
function pemBlock(text: string): {label: string; bytes: Uint8Array<ArrayBuffer>} {
  const match = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/.exec(text.replace(/\\n/g, '\n'));
  if (!match) {
    if (/-----BEGIN [A-Z0-9 ]+-----/.test(text))
      throw new KeyInputError('The PEM block has no matching END line: paste the whole file, from BEGIN to END.');
    throw new KeyInputError(
      'This is not a PEM key: expected a block starting "-----BEGIN PRIVATE KEY-----" or "-----BEGIN PUBLIC KEY-----".',
    );
  }
  const [, label = '', body = ''] = match;
  if (label === 'ENCRYPTED PRIVATE KEY')
    throw new KeyInputError('The private key is encrypted with a passphrase: decrypt it first (openssl pkcs8 -in key.pem -out plain.pem).');
  if (label === 'CERTIFICATE')
    throw new KeyInputError('This is a certificate, not a key: paste the public key (openssl x509 -pubkey -noout -in cert.pem).');
  if (label.startsWith('EC ') || label === 'OPENSSH PRIVATE KEY')
    throw new KeyInputError(`A "${label}" block is not an RSA key in PEM: the API signs with RSA keys in PKCS #8 and SPKI.`);
  if (!(label in labels))
    throw new KeyInputError(`A "${label}" block is not a key the API uses: expected PRIVATE KEY (PKCS #8) or PUBLIC KEY (SPKI).`);
  const base64 = body.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64))
    throw new KeyInputError('The text between BEGIN and END is not base64: the key was damaged when it was copied.');
  return {label, bytes: base64ToBytes(base64)};
}

/** Imports a pasted key; throws KeyInputError saying what is wrong with it. */
export async function readKey(text: string): Promise<ReadKey> {
  const {label, bytes} = pemBlock(text);
  const format = labels[label] as KeyFormat;
  const notes: string[] = [];
  try {
    if (format === 'SPKI public key' || format === 'PKCS #1 public key') {
      if (format === 'PKCS #1 public key') {
        notes.push(
          'Your public key is PKCS #1 ("BEGIN RSA PUBLIC KEY"). The API and WebCrypto take SPKI ("BEGIN PUBLIC KEY"); it was converted here. Convert it for good with: openssl rsa -RSAPublicKey_in -in key.pem -pubout',
        );
      }
      const spki = format === 'PKCS #1 public key' ? pkcs1PublicToSpki(bytes) : bytes;
      return {format, publicKey: await crypto.subtle.importKey('spki', spki, rsaAlgorithm, false, ['verify']), notes};
    }
    if (format === 'PKCS #1 private key') {
      notes.push(
        'Your private key is PKCS #1 ("BEGIN RSA PRIVATE KEY"). The samples and WebCrypto take PKCS #8 ("BEGIN PRIVATE KEY"); it was converted here. Convert it for good with: openssl pkcs8 -topk8 -nocrypt -in key.pem',
      );
    }
    const pkcs8 = format === 'PKCS #1 private key' ? pkcs1PrivateToPkcs8(bytes) : bytes;
    // Imported once as extractable only to read its public half (n and e); the key used for signing is not extractable.
    const readable = await crypto.subtle.importKey('pkcs8', pkcs8, rsaAlgorithm, true, ['sign']);
    const jwk = await crypto.subtle.exportKey('jwk', readable);
    const publicKey = await crypto.subtle.importKey('jwk', {kty: 'RSA', n: jwk.n, e: jwk.e, alg: 'RS256', ext: true}, rsaAlgorithm, false, [
      'verify',
    ]);
    const privateKey = await crypto.subtle.importKey('pkcs8', pkcs8, rsaAlgorithm, false, ['sign']);
    return {format, publicKey, privateKey, notes};
  } catch (error) {
    if (error instanceof KeyInputError) throw error;
    throw new KeyInputError(`The ${format} could not be read as an RSA key (${error instanceof Error ? error.message : String(error)}).`);
  }
}

function pem(label: string, bytes: ArrayBuffer): string {
  return `-----BEGIN ${label}-----\n${bytesToBase64(new Uint8Array(bytes))
    .replace(/(.{64})/g, '$1\n')
    .replace(/\n$/, '')}\n-----END ${label}-----\n`;
}

/** A new 2048-bit RSA key pair for the API, as PKCS #8 and SPKI PEM. Made and kept in this browser. */
export async function generateKeyPair(): Promise<{privateKeyPem: string; publicKeyPem: string}> {
  const pair = await crypto.subtle.generateKey({...rsaAlgorithm, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1])}, true, [
    'sign',
    'verify',
  ]);
  return {
    privateKeyPem: pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', pair.privateKey)),
    publicKeyPem: pem('PUBLIC KEY', await crypto.subtle.exportKey('spki', pair.publicKey)),
  };
}
