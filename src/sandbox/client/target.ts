/**
 * Where a merchant's calls go: one interface, two implementations. `inPageTarget` is an engine in this
 * process (the browser host's, or one a Node host or test built); `httpTarget` is a sandbox at an origin
 * (npm run sandbox, the downloaded veloxa-sandbox.mjs). A widget, the MCP server or a test talks to either
 * the same way; only the in-page one has to run the jobs that fall due, since nothing else drives its clock.
 */
import type {ActionResult} from '../engine/engine';

/** A request on the wire: what signRequest made, or anything else a caller chooses to send. */
export interface OutgoingRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** A response with its header names as the target gave them (the engine's X-Signature, fetch's x-signature): look them up with headerValue. */
export interface TargetResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Seconds a real sandbox would hold the answer (in page it comes at once). */
  readonly holdSeconds?: number;
}

export interface SandboxTarget {
  /** Sends a request as it is (signed or not) and answers the response; jobs due after it have run. */
  call(request: OutgoingRequest): Promise<TargetResponse>;
  /** Runs a declared shopper, clock or control action (src/sandbox/actions.ts) by name with plain input. */
  act(name: string, input: Readonly<Record<string, unknown>>): Promise<ActionResult<unknown>>;
  readonly clock: {
    /** The sandbox clock, in milliseconds: what a request's X-Timestamp must be near. */
    now(): Promise<number>;
  };
}

/** Header names in lower case, values as text: one shape for showing either target's answer. */
export function lowerCaseNames(headers: Readonly<Record<string, string | number | undefined>>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) lower[name.toLowerCase()] = String(value);
  return lower;
}
