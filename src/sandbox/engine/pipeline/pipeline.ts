/**
 * The request pipeline, step by step: route, authenticate, limits and faults, validate, dispatch, respond.
 * Each step is a module of this folder; this file only says in which order they run and what a failure
 * in any of them becomes (a rejection is answered with its code, anything else with INTERNAL_ERROR).
 */
import {lowerCaseHeaders, type SandboxRequest, type SandboxResponse} from '../http';
import {randomId} from '../ids';
import {handlerOf} from '../operations';
import type {OperationSpec} from '../spec';
import {reject, Rejected, type Reply, type Tx} from '../tx';
import type {Authenticator} from './authenticate';
import type {FaultQueue, RateAllowance, RateLimiter} from './limits';
import {respond, type Responder, type SignedRequest} from './respond';
import {routeRequest} from './route';
import {parseBody, parseParameters} from './validate';

export interface PipelineParts {
  readonly tx: Tx;
  readonly authenticator: Authenticator;
  readonly limiter: RateLimiter;
  readonly faults: FaultQueue;
  readonly responder: Responder;
  /** Ends the call's unit of work: `kept` false throws its changes away (a crash mid-call), true commits them. */
  finish(kept: boolean): Promise<void>;
}

export function signedRequestOf(headers: Record<string, string | undefined>): SignedRequest {
  return {clientId: headers['x-client-id'] ?? '', timestamp: headers['x-timestamp'] ?? '', nonce: headers['x-nonce'] ?? ''};
}

export async function runPipeline(parts: PipelineParts, request: SandboxRequest): Promise<SandboxResponse> {
  const headers = lowerCaseHeaders(request.headers);
  const requestId = randomId('req_', 20);
  let operation: OperationSpec | undefined;
  let rate: RateAllowance | undefined;
  let reply: Reply;
  let kept = true;
  try {
    const routed = routeRequest(parts.tx.spec, request.method, request.target);
    operation = routed.operation;
    const state = await parts.authenticator.authenticate(request, headers);
    rate = parts.limiter.count(state, operation);
    // One fault per call: a SYSTEM_BUSY answered before the call leaves an INTERNAL_ERROR behind it for the next.
    const busy = parts.faults.take(operation, 'before');
    if (busy) {
      reply = busy;
    } else {
      const params = parseParameters(parts.tx.validator, operation, routed.pathParams, routed.query);
      const body = parseBody(parts.tx.spec, parts.tx.validator, operation, request.body);
      const handler = handlerOf(operation.operationId) ?? reject('INVALID_PARAMETER', `${operation.operationId} is not carried out by this sandbox.`);
      reply = await handler(parts.tx, {state, params, body: body ?? {}, hasBody: body !== undefined});
      reply = parts.faults.take(operation, 'after') ?? reply;
    }
  } catch (error) {
    kept = error instanceof Rejected;
    reply = error instanceof Rejected ? {code: error.code, message: error.message} : {code: 'INTERNAL_ERROR', message: `The sandbox failed: ${(error as Error).message}`};
  }
  await parts.finish(kept);
  return respond(parts.responder, {request, signed: signedRequestOf(headers), requestId, ...(operation ? {operation} : {}), ...(rate ? {rate} : {})}, reply);
}
