/**
 * Handing a message to the signature debugger in its address: #notification=<base64url of the raw HTTP
 * message> (or #request=...). In the fragment, so it never reaches a server; the live demos link each
 * notification this way. Isomorphic (atob, btoa and TextEncoder exist in browsers and Node).
 */
import type {MessageKind} from './index';

type HandedKind = Extract<MessageKind, 'notification' | 'request'>;

/** The fragment that hands `text` over as a message of that kind. */
export function handoverFragment(kind: HandedKind, text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return `#${kind}=${btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')}`;
}

/** The message a fragment hands over, or undefined for any other fragment or a malformed one. */
export function handedMessage(hash: string): {kind: HandedKind; text: string} | undefined {
  const match = /^#(notification|request)=([A-Za-z0-9_-]+)$/.exec(hash);
  if (!match) return undefined;
  try {
    const binary = atob((match[2] ?? '').replaceAll('-', '+').replaceAll('_', '/'));
    const text = new TextDecoder('utf-8', {fatal: true}).decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)));
    return {kind: match[1] as HandedKind, text};
  } catch {
    return undefined;
  }
}
