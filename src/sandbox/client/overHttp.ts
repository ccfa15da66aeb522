/**
 * A sandbox target at an origin: the local server (npm run sandbox) or any host that serves the API and
 * the /_sandbox/ routes the actions declare. The server runs its own job timer, so nothing is run here.
 */
import {actionPath, bodyMembers, sandboxAction} from '../actions';
import {signRequest, withContentType, type MerchantSigner} from './signing';
import type {SandboxTarget} from './target';

/** The target could not be reached at all (no server, a proxy or an extension in the way). */
export class TargetUnreachableError extends Error {}

export interface HttpTargetOptions {
  /** Defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** Signs every test tool call as this merchant, as the hosted sandbox requires (npm run sandbox -- --hosted). */
  readonly signer?: MerchantSigner;
}

export function httpTarget(origin: string, options: HttpTargetOptions = {}): SandboxTarget {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const reach = async (path: string, init: RequestInit): Promise<Response> => {
    try {
      return await fetchImpl(`${origin}${path}`, init);
    } catch (error) {
      throw new TargetUnreachableError(`No answer from ${origin}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const target: SandboxTarget = {
    async call(request) {
      const response = await reach(request.target, {
        method: request.method,
        headers: withContentType(request),
        ...(request.body === '' ? {} : {body: request.body}),
      });
      const headers: Record<string, string> = {};
      response.headers.forEach((value, name) => (headers[name] = value));
      return {status: response.status, headers, body: await response.text()};
    },
    async act(name, input) {
      const action = sandboxAction(name);
      const body = Object.fromEntries(
        bodyMembers(action)
          .filter((member) => input[member] !== undefined)
          .map((member) => [member, input[member]]),
      );
      const unsigned = {method: action.method, target: actionPath(action, input), body: JSON.stringify(body)};
      const signed = options.signer ? await signRequest(options.signer, unsigned, await target.clock.now()) : undefined;
      const response = await reach(unsigned.target, {
        method: action.method,
        headers: {'Content-Type': 'application/json', ...signed?.headers},
        body: unsigned.body,
      });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        return {ok: false, code: 'INTERNAL_ERROR', message: `${response.status}: ${text.slice(0, 200)}`};
      }
      if (response.ok) return {ok: true, value: json};
      const refusal = json as {code?: unknown; message?: unknown};
      return {
        ok: false,
        code: typeof refusal.code === 'string' ? refusal.code : 'INTERNAL_ERROR',
        message: typeof refusal.message === 'string' ? refusal.message : `${response.status}: ${text.slice(0, 200)}`,
      };
    },
    clock: {
      async now() {
        const answer = (await (await reach('/_sandbox/clock', {method: 'GET'})).json()) as {now?: string};
        return Date.parse(answer.now ?? '');
      },
    },
  };
  return target;
}
