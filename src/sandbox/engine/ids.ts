/** Random identifiers in the contract's formats, from the host's WebCrypto (no Math.random). */
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomToken(length: number, characters = alphabet): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let token = '';
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  const limit = Math.floor(256 / characters.length) * characters.length;
  for (let index = 0; token.length < length; index += 1) {
    if (index >= bytes.length) {
      crypto.getRandomValues(bytes);
      index = 0;
    }
    const byte = bytes[index] ?? 0;
    if (byte < limit) token += characters[byte % characters.length];
  }
  return token;
}

/** "ord_" and 16 letters or digits, and the like. */
export const randomId = (prefix: string, length: number): string => `${prefix}${randomToken(length)}`;

/** A nonce for a response or a notification: a UUID v4. */
export function randomNonce(): string {
  return crypto.randomUUID();
}

export const randomDigits = (length: number): string => randomToken(length, '0123456789');
