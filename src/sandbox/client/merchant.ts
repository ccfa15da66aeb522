/**
 * The merchant client: sign, send to a target, verify the response. What every host and widget used to
 * rebuild from the signing primitives, in one place.
 */
import {
  signRequest,
  verifyResponse,
  type MerchantSigner,
  type ProviderKey,
  type SignedRequest,
  type UnsignedRequest,
  type Verification,
} from './signing';
import type {SandboxTarget, TargetResponse} from './target';

export interface MerchantCall {
  readonly request: SignedRequest;
  readonly response: TargetResponse;
  /** The response's X-Signature checked with the provider key over the eight-line string. */
  readonly verification: Verification;
}

export interface MerchantClientOptions {
  readonly target: SandboxTarget;
  readonly signer: MerchantSigner;
  readonly providerKey: ProviderKey;
  /** The clock X-Timestamp is taken from; the target's sandbox clock by default. */
  readonly now?: () => number | Promise<number>;
}

export interface MerchantClient {
  readonly clientId: string;
  call(request: UnsignedRequest): Promise<MerchantCall>;
}

export function merchantClient(options: MerchantClientOptions): MerchantClient {
  const now = options.now ?? (() => options.target.clock.now());
  return {
    clientId: options.signer.clientId,
    async call(request) {
      const signed = await signRequest(options.signer, request, await now());
      const response = await options.target.call(signed);
      return {request: signed, response, verification: await verifyResponse(signed, response, options.providerKey)};
    },
  };
}
