/**
 * Step 6: the reply as the contract's envelope ({code, message, requestId, data}) with its HTTP status,
 * the rate-limit headers of the operation's class, and the provider's signature over the response.
 */
import {formatSignatureHeader, responseCanonicalString, signCanonical} from '../../../lib/signing';
import {isoSeconds} from '../clock';
import type {SandboxRequest, SandboxResponse} from '../http';
import {randomNonce} from '../ids';
import type {EngineSpec, OperationSpec} from '../spec';
import type {JsonObject} from '../state';
import type {Reply} from '../tx';
import type {RateAllowance, RateLimiter} from './limits';

/** The request values the response signature binds (as sent, before any check). */
export interface SignedRequest {
  readonly clientId: string;
  readonly timestamp: string;
  readonly nonce: string;
}

export interface Responder {
  readonly spec: EngineSpec;
  readonly clock: {now(): number};
  readonly limiter: RateLimiter;
  readonly provider: {readonly key: CryptoKey; readonly keyVersion: number};
}

function rateHeaders(
  responder: Responder,
  operation: OperationSpec | undefined,
  rate: RateAllowance | undefined,
  clientId: string,
): Record<string, string> {
  const rateClass = responder.limiter.rateClassOf(operation);
  if (!rateClass) return {};
  return {
    'RateLimit-Limit': String(rate?.limit ?? rateClass.perSecond),
    'RateLimit-Remaining': String(rate?.remaining ?? responder.limiter.remainingUncounted(clientId, rateClass)),
    'RateLimit-Reset': '1',
  };
}

export async function respond(
  responder: Responder,
  call: {request: SandboxRequest; signed: SignedRequest; requestId: string; operation?: OperationSpec; rate?: RateAllowance},
  reply: Reply,
): Promise<SandboxResponse> {
  const {request, signed, requestId} = call;
  const known = responder.spec.resultCodes[reply.code];
  const status = known?.httpStatus ?? 500;
  const envelope: JsonObject = {
    code: reply.code,
    message: reply.message ?? known?.message ?? 'The sandbox answered with a code the contract does not define.',
    requestId,
  };
  if (reply.data !== undefined) envelope['data'] = reply.data;
  const body = JSON.stringify(envelope);
  const timestamp = isoSeconds(responder.clock.now());
  const nonce = randomNonce();
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-Request-Id': requestId,
    ...(reply.headers ?? {}),
    ...rateHeaders(responder, call.operation, call.rate, signed.clientId),
  };
  if ((reply.code === 'RATE_LIMITED' || reply.code === 'SYSTEM_BUSY') && headers['Retry-After'] === undefined) headers['Retry-After'] = '1';
  try {
    const canonical = responseCanonicalString({
      request: {
        method: request.method,
        pathWithQuery: request.target,
        clientId: signed.clientId,
        timestamp: signed.timestamp,
        nonce: signed.nonce,
      },
      status,
      timestamp,
      nonce,
      body,
    });
    const signature = await signCanonical(canonical, responder.provider.key);
    headers['X-Timestamp'] = timestamp;
    headers['X-Nonce'] = nonce;
    headers['X-Signature'] = formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: responder.provider.keyVersion, signature});
  } catch {
    // Only a request value with a line break cannot be bound (responseCanonicalString); HTTP cannot carry one.
  }
  return {status, headers, body, ...(reply.holdSeconds ? {holdSeconds: reply.holdSeconds} : {})};
}
