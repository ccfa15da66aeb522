/**
 * The request pipeline, step by step: route, authenticate, limits and faults, validate, dispatch, respond.
 * Each step is a module of this folder; this file only says in which order they run and what a failure
 * in any of them becomes (a rejection is answered with its code, anything else with INTERNAL_ERROR). The
 * steps from authenticate to dispatch run as one unit of work (../unit.ts): its writes are applied when the
 * call succeeds, only the nonce and a Revoke tombstone when it is rejected, nothing when it crashes.
 */
import {lowerCaseHeaders, type SandboxRequest, type SandboxResponse} from '../http';
import {randomId} from '../ids';
import {handlerOf} from '../operations';
import type {RequestValidator} from '../api';
import type {EngineSpec, OperationSpec} from '../spec';
import {reject, Rejected, type Reply} from '../tx';
import type {UnitOfWork} from '../unit';
import type {Authenticator} from './authenticate';
import type {FaultQueue, RateAllowance, RateLimiter} from './limits';
import {respond, type Responder, type SignedRequest} from './respond';
import {routeRequest} from './route';
import {parseBody, parseParameters} from './validate';

export interface PipelineParts {
  readonly spec: EngineSpec;
  readonly validator: RequestValidator;
  readonly authenticator: Authenticator;
  readonly limiter: RateLimiter;
  readonly faults: FaultQueue;
  readonly responder: Responder;
  /** Runs the call's work as one unit of work, after the one before it has ended. */
  inUnit<T>(work: (unit: UnitOfWork) => Promise<T>): Promise<T>;
  /** Makes what the finished units wrote durable. */
  commit(): Promise<void>;
}

export function signedRequestOf(headers: Record<string, string | undefined>): SignedRequest {
  return {clientId: headers['x-client-id'] ?? '', timestamp: headers['x-timestamp'] ?? '', nonce: headers['x-nonce'] ?? ''};
}

export async function runPipeline(parts: PipelineParts, request: SandboxRequest): Promise<SandboxResponse> {
  const headers = lowerCaseHeaders(request.headers);
  const requestId = randomId('req_', 20);
  let operation: OperationSpec | undefined;
  let rate: RateAllowance | undefined;
  // Off the thread pool while earlier calls hold their turn: a call waits for its turn, not for its own RSA check.
  const early = parts.authenticator.verifyEarly(request, headers);
  const reply = await parts.inUnit(async (unit): Promise<Reply> => {
    let handled: Reply;
    try {
      const routed = routeRequest(parts.spec, request.method, request.target);
      operation = routed.operation;
      const state = await parts.authenticator.authenticate(unit, request, headers, early);
      rate = parts.limiter.count(state, operation);
      // One fault per call: a SYSTEM_BUSY answered before the call leaves an INTERNAL_ERROR behind it for the next.
      const busy = parts.faults.take(operation, 'before', state.merchant.clientId);
      if (busy) {
        handled = busy;
      } else {
        const params = parseParameters(parts.validator, operation, routed.pathParams, routed.query);
        const body = parseBody(parts.spec, parts.validator, operation, request.body);
        const handler =
          handlerOf(operation.operationId) ?? reject('INVALID_PARAMETER', `${operation.operationId} is not carried out by this sandbox.`);
        handled = await handler(unit.tx, {state, params, body: body ?? {}, hasBody: body !== undefined});
        handled = parts.faults.take(operation, 'after', state.merchant.clientId) ?? handled;
      }
    } catch (error) {
      unit.end(error instanceof Rejected ? 'rejected' : 'crashed');
      return error instanceof Rejected
        ? {code: error.code, message: error.message}
        : {code: 'INTERNAL_ERROR', message: `The sandbox failed: ${(error as Error).message}`};
    }
    unit.end('done');
    return handled;
  });
  await parts.commit();
  return respond(
    parts.responder,
    {request, signed: signedRequestOf(headers), requestId, ...(operation ? {operation} : {}), ...(rate ? {rate} : {})},
    reply,
  );
}
