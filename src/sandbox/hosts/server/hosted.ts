/**
 * `npm run sandbox -- --hosted`: the rules that make one server safe for many merchants (issue 33, point 3).
 *
 * - Registration (POST /_sandbox/merchants) is the one unsigned change: limited per address, and the public
 *   key must be RSA of the published size.
 * - Every other test tool is signed by the merchant exactly like an API call, and checked by the engine's own
 *   authenticate step (engine/tenants.ts): unsigned, badly signed and replayed calls are refused as the API
 *   refuses them, and a call naming another merchant's client ID is PERMISSION_DENIED.
 * - What would touch everyone touches the caller alone: reset and export are the caller's, faults answer only
 *   its calls, the delivery log lists only its notifications, and a clock move moves the caller's own clock
 *   (each merchant has one, engine/merchantClock.ts). Import (a whole state) is refused; the local sandbox offers it.
 * - The shared test merchant, whose private key is published, keeps the shopper's actions and the reads but no
 *   test tools (api/sandbox.yaml: merchant.testTools), so nobody can reset or fault it for everyone.
 * - A sweep on a timer removes idle merchants and expired events (engine/tenants.ts).
 *
 * The limits are data (api/sandbox.yaml `hosted`), published on the hosted sandbox page.
 */
import {importPublicKey} from '../../../lib/signing';
import {ActionInputError, bodyMembers, readActionInput, sandboxAction} from '../../actions';
import type {SandboxEngine} from '../../engine/engine';
import type {HostedLimits} from '../../engine/rules/types';

/** A control request as hosted mode sees it: the route it matched and what it carried. */
export interface HostedCall {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string;
  /** The matched route, "POST /_sandbox/reset". */
  readonly route: string;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly remoteAddress: string;
}

/** What hosted mode decides: answer here (a refusal or a value), or let the endpoint's own handler answer. */
export type HostedDecision =
  | {readonly kind: 'refuse'; readonly code: string; readonly message: string; readonly headers?: Readonly<Record<string, string>>}
  | {readonly kind: 'answer'; readonly value: unknown}
  | {readonly kind: 'next'};

/** Retention run elsewhere than in this process's memory (instances sharing a database: sharedSweep.ts). */
export interface HostedSweep {
  /** Sweeps when it is due; undefined when it was not (or another instance runs it). */
  run(): Promise<{merchantsRemoved: string[]; eventsRemoved: number} | undefined>;
  /** How often to ask. */
  readonly everyMs: number;
}

export interface HostedMode {
  decide(call: HostedCall): Promise<HostedDecision>;
  /** Stops the sweep timer. */
  close(): void;
}

const next: HostedDecision = {kind: 'next'};
const refuse = (code: string, message: string, headers?: Record<string, string>): HostedDecision => ({
  kind: 'refuse',
  code,
  message,
  ...(headers ? {headers} : {}),
});
const answer = (value: unknown): HostedDecision => ({kind: 'answer', value});

/** Routes anyone may call unsigned: the clock a request's X-Timestamp is taken from, and health. */
const openRoutes = new Set(['GET /_sandbox/health', 'GET /_sandbox/clock']);
const registration = 'POST /_sandbox/merchants';

/** Whether a control route ("POST /_sandbox/reset") is a test tool its merchant signs, counted at the test tools' rate. */
export const isSignedTool = (route: string): boolean => !openRoutes.has(route) && route !== registration;

/** The JSON object a body holds, or undefined (the endpoint's handler then refuses it with its own sentence). */
function bodyObject(body: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body === '' ? '{}' : body);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Why a public key is refused for the hosted sandbox, or undefined: RSA, with a modulus of the published size. */
export async function hostedKeyProblem(publicKeyPem: unknown, limits: HostedLimits): Promise<string | undefined> {
  if (typeof publicKeyPem !== 'string' || publicKeyPem === '') return undefined; // the action refuses a missing key itself
  let key: CryptoKey;
  try {
    key = await importPublicKey(publicKeyPem);
  } catch (error) {
    return `publicKeyPem: ${(error as Error).message}`;
  }
  const bits = (key.algorithm as RsaHashedKeyAlgorithm).modulusLength;
  const {min, max} = limits.publicKeyBits;
  return bits >= min && bits <= max
    ? undefined
    : `publicKeyPem: the hosted sandbox takes RSA keys of ${min} to ${max} bits; this one has ${bits}.`;
}

/** Counts events per key in fixed windows of `windowMs` of real time; forgets old windows as it goes. */
function windowCounter(windowMs: number): (key: string) => number {
  const windows = new Map<string, {window: number; count: number}>();
  return (key) => {
    const window = Math.floor(Date.now() / windowMs);
    if (windows.size > 10_000) for (const [seen, entry] of windows) if (entry.window !== window) windows.delete(seen);
    const entry = windows.get(key);
    const count = entry && entry.window === window ? entry.count + 1 : 1;
    windows.set(key, {window, count});
    return count;
  };
}

export function hostedMode(
  engine: SandboxEngine,
  limits: HostedLimits,
  sharedClientId: string,
  log: (line: string) => void,
  sweeper?: HostedSweep,
): HostedMode {
  const registrations = windowCounter(60_000);

  const sweep = () =>
    (sweeper?.run() ?? engine.tenants.sweep()).then(
      (swept) => {
        if (!swept) return;
        const {merchantsRemoved, eventsRemoved} = swept;
        if (merchantsRemoved.length || eventsRemoved)
          log(`sandbox: removed ${merchantsRemoved.length} idle merchants and ${eventsRemoved} expired events`);
      },
      (error: unknown) => log(`sandbox: the hosted sweep failed: ${(error as Error).message}`),
    );
  const timer = setInterval(() => void sweep(), sweeper?.everyMs ?? limits.sweepIntervalSeconds * 1000);
  timer.unref();
  void sweep();

  async function register(call: HostedCall): Promise<HostedDecision> {
    if (registrations(call.remoteAddress) > limits.registrationsPerMinutePerAddress) {
      return refuse(
        'RATE_LIMITED',
        `More than ${limits.registrationsPerMinutePerAddress} merchant registrations in one minute from this address.`,
        {'Retry-After': '60'},
      );
    }
    const problem = await hostedKeyProblem(bodyObject(call.body)?.['publicKeyPem'], limits);
    return problem ? refuse('INVALID_PARAMETER', problem) : next;
  }

  /** A fault set by a merchant answers its own calls only. */
  function setFault(caller: string, body: Record<string, unknown> | undefined): HostedDecision {
    const action = sandboxAction('control.setFault');
    if (!body) return refuse('INVALID_PARAMETER', 'The body must be a JSON object.');
    const unknown = Object.keys(body).find((name) => !bodyMembers(action).includes(name));
    if (unknown !== undefined)
      return refuse(
        'INVALID_PARAMETER',
        `Unknown member "${unknown.slice(0, 40)}"; this endpoint takes ${bodyMembers(action).join(', ')}.`,
      );
    try {
      const input = readActionInput(action, body) as {resultCode: string; operationId?: string; count?: number};
      const result = engine.tenants.setFault(caller, input);
      return result.ok ? answer(result.value) : refuse(result.code, result.message);
    } catch (error) {
      if (error instanceof ActionInputError) return refuse('INVALID_PARAMETER', error.message);
      throw error;
    }
  }

  /** A merchant moves its own clock: its jobs fall due on it, no one else's (engine/merchantClock.ts). */
  async function advanceClock(caller: string, body: Record<string, unknown> | undefined): Promise<HostedDecision> {
    if (!body) return refuse('INVALID_PARAMETER', 'The body must be a JSON object.');
    try {
      const {seconds} = readActionInput(sandboxAction('clock.advance'), body) as {seconds: number};
      const result = await engine.tenants.advanceClock(caller, seconds);
      return result.ok ? answer(result.value) : refuse(result.code, result.message);
    } catch (error) {
      if (error instanceof ActionInputError) return refuse('INVALID_PARAMETER', error.message);
      throw error;
    }
  }

  async function asCaller(call: HostedCall, caller: string): Promise<HostedDecision> {
    const body = bodyObject(call.body);
    const named = [call.params['clientId'], call.query.get('clientId') ?? undefined, body?.['clientId']];
    const other = named.find((clientId) => clientId !== undefined && clientId !== caller);
    if (other !== undefined) {
      return refuse(
        'PERMISSION_DENIED',
        `This request is signed by ${caller} but names ${String(other).slice(0, 64)}: on the hosted sandbox a merchant's test tools reach its own sandbox only.`,
      );
    }
    const isShopper = call.route.startsWith('POST /_sandbox/shopper/');
    if (caller === sharedClientId && call.method !== 'GET' && !isShopper) {
      return refuse(
        'PERMISSION_DENIED',
        `The shared test merchant ${sharedClientId} has no test tools on the hosted sandbox, because anyone can sign as it. Register a merchant of your own.`,
      );
    }
    switch (call.route) {
      case 'POST /_sandbox/reset': {
        const result = await engine.tenants.reset(caller);
        return result.ok ? answer(result.value) : refuse(result.code, result.message);
      }
      case 'GET /_sandbox/export':
        return answer(engine.tenants.exportOf(caller));
      case 'POST /_sandbox/faults':
        return setFault(caller, body);
      case 'GET /_sandbox/notifications':
        return answer({deliveries: await engine.control.deliveries(caller)});
      case 'POST /_sandbox/import':
        return refuse(
          'PERMISSION_DENIED',
          'The hosted sandbox does not import a whole state, which would replace every merchant; import it into a local sandbox (npm run sandbox).',
        );
      case 'POST /_sandbox/clock/advance':
        return advanceClock(caller, body);
      default:
        return next;
    }
  }

  return {
    async decide(call) {
      if (call.route === registration) return register(call);
      if (!isSignedTool(call.route)) return next;
      const has = (name: string) => Boolean(call.headers[name]);
      if (!has('x-client-id') || !has('x-signature')) {
        return refuse(
          'INVALID_SIGNATURE',
          'On the hosted sandbox every test tool is signed by your merchant like an API call: send X-Client-Id, X-Timestamp, X-Nonce and X-Signature over this request.',
        );
      }
      const caller = await engine.tenants.caller({method: call.method, target: call.target, headers: {...call.headers}, body: call.body});
      if (!caller.ok) return refuse(caller.code, caller.message, caller.code === 'RATE_LIMITED' ? {'Retry-After': '1'} : undefined);
      return asCaller(call, caller.value);
    },
    close() {
      clearInterval(timer);
    },
  };
}
