/** Random identifiers in the contract's formats, from the host's WebCrypto (no Math.random). */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * Random bytes drawn from a pool filled 4 KiB at a time: a call takes a request ID, order and event IDs and more,
 * and one getRandomValues per ID cost more than the IDs themselves (WebCrypto's argument checks and a system call).
 */
const pool = new Uint8Array(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    crypto.getRandomValues(pool);
    used = 0;
  }
  return pool[used++] ?? 0;
}

export function randomToken(length: number, characters = alphabet): string {
  return randomText('', length, characters);
}

/**
 * `prefix` and `length` random characters, built from character codes: flat text (text.ts) rather than a
 * chain of one node per character appended, since records keep their IDs.
 */
function randomText(prefix: string, length: number, characters: string): string {
  const codes = new Array<number>(prefix.length + length);
  for (let index = 0; index < prefix.length; index += 1) codes[index] = prefix.charCodeAt(index);
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  const limit = Math.floor(256 / characters.length) * characters.length;
  for (let index = prefix.length; index < codes.length; ) {
    const byte = randomByte();
    if (byte < limit) codes[index++] = characters.charCodeAt(byte % characters.length);
  }
  return String.fromCharCode(...codes);
}

/** "ord_" and 16 letters or digits, and the like. */
export const randomId = (prefix: string, length: number): string => randomText(prefix, length, alphabet);

/** A nonce for a response or a notification: a UUID v4. */
export function randomNonce(): string {
  return crypto.randomUUID();
}

export const randomDigits = (length: number): string => randomToken(length, '0123456789');
