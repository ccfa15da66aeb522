/**
 * The reader's own merchant on the hosted sandbox, as this tab holds it (made and used by hostedMerchant.ts).
 * A module of its own so a page that only shows whether there is one (the sandbox console) does not load
 * the key generation, signing and HTTP code with its first draw.
 */
import type {MerchantSigner} from '../sandbox/client/signing';

export interface HostedMerchant {
  /** The hosted sandbox it is registered with. */
  readonly origin: string;
  readonly clientId: string;
  readonly signer: MerchantSigner;
}

let current: HostedMerchant | undefined;
const listeners = new Set<() => void>();

export function setHostedMerchant(merchant: HostedMerchant | undefined): void {
  current = merchant;
  for (const listener of listeners) listener();
}

/** The merchant made in this tab for `origin`, if any. */
export function hostedMerchant(origin: string): HostedMerchant | undefined {
  return current?.origin === origin ? current : undefined;
}

/** Calls `listener` whenever the merchant changes; answers the unsubscribe (for useSyncExternalStore). */
export function onHostedMerchantChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Forgets the merchant in this tab (the hosted sandbox keeps it until it has been idle for the published time). */
export function forgetHostedMerchant(): void {
  setHostedMerchant(undefined);
}
