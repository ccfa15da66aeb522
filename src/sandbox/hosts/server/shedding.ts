/**
 * Shedding before the signature check (issue 33, points 3 and 7), in hosted mode, for API calls and signed test
 * tools alike (one admission, wrapped around the whole call, database transaction included):
 * - At most callsInEnginePerMerchant calls of one merchant are in the engine at once; the rest wait here, in
 *   their merchant's own line, so a merchant sending many calls at once queues behind itself, not in front
 *   of another merchant's calls in the engine's one-call-at-a-time unit of work.
 * - A call whose merchant has spent this second's allowance for its rate class (an API operation's class, or
 *   the test tools' hosted.controlRequestsPerSecond; counting the calls already in the engine) is answered 429
 *   RATE_LIMITED without verifying its signature, entering the engine or opening a database transaction. So a
 *   flood costs the server a route match and one signed answer per excess request.
 * - With --no-rate-limits (load tests) nothing is shed: the line per merchant stays.
 *
 * The merchant is read from the X-Client-Id header, before anything proves who sent the request. The count
 * it is compared with is the engine's own (pipeline/limits.ts), which only verified calls add to: a forged or
 * unsigned request naming a merchant spends nothing of that merchant's allowance. What a forger gains is a
 * 429 instead of INVALID_SIGNATURE while the named merchant is at its limit, which tells nothing the public
 * rate limits do not; and while its requests wait or are being verified they hold the named merchant's
 * places in the engine, slowing that merchant alone. That is the accepted trade-off.
 *
 * The contract signs every answer, errors included (x-signature responseRequestValues), so the 429 is signed
 * by the engine's refuse() like any refusal made before authentication. The answer is then held until the
 * merchant's allowance renews at the next second, as the server holds any answer (holdSeconds): a client
 * waiting for each answer, as merchants' code and CI do, then sends at most one excess request per
 * connection per second, instead of as many as the server can sign. A held answer costs a timer, not work.
 */
import type {SandboxEngine} from '../../engine/engine';
import type {RateClass} from '../../engine/pipeline/limits';
import {msPerSecond} from '../../engine/values';
import type {Reply, ServerCall} from './server';

/** Runs a call: answered by `handle` (the engine) in its merchant's turn, or shed with a signed 429. */
export type Admission = (call: ServerCall, handle: () => Promise<Reply>) => Promise<Reply>;

/**
 * Calls of one merchant in the engine at once. The engine carries out one call at a time (its unit of work),
 * so more would only queue there, in front of other merchants' calls; here they queue behind their own.
 */
export const callsInEnginePerMerchant = 2;

/**
 * `rateClassOf` names the class a call is counted in once verified (undefined: not counted, never shed or
 * queued, as registration, the clock and health).
 */
export function rateShedder(
  engine: Pick<SandboxEngine, 'clock' | 'limiter' | 'refuse'>,
  rateClassOf: (call: ServerCall) => RateClass | undefined,
): Admission {
  const merchants = new Map<string, {inEngine: number; waiting: (() => void)[]}>();

  function shed(clientId: string, call: ServerCall, rateClass: RateClass): Promise<Reply> {
    const message = `More than ${rateClass.perSecond} ${rateClass.name} requests in one second for ${clientId.slice(0, 64)}.`;
    return engine.refuse(call, 'RATE_LIMITED', message).then((reply) => ({
      ...reply,
      headers: {...reply.headers, 'RateLimit-Limit': String(rateClass.perSecond), 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1'},
      holdSeconds: (msPerSecond - (engine.clock.now() % msPerSecond)) / msPerSecond,
    }));
  }

  return async (call, handle) => {
    const clientId = call.headers['x-client-id'];
    const rateClass = clientId ? rateClassOf(call) : undefined;
    if (!clientId || !rateClass) return handle();
    const merchant = merchants.get(clientId) ?? {inEngine: 0, waiting: []};
    merchants.set(clientId, merchant);
    // A place is handed from a call that ends to the next in line, so none is taken twice.
    if (merchant.inEngine >= callsInEnginePerMerchant) await new Promise<void>((resolve) => merchant.waiting.push(resolve));
    else merchant.inEngine += 1;
    const release = () => {
      const next = merchant.waiting.shift();
      if (next) return next();
      merchant.inEngine -= 1;
      if (merchant.inEngine === 0) merchants.delete(clientId);
    };
    // Its turn: the merchant's other calls in the engine will be counted too, so they take from what is left.
    if (engine.limiter.enforced && engine.limiter.remainingUncounted(clientId, rateClass) - (merchant.inEngine - 1) <= 0) {
      release();
      return shed(clientId, call, rateClass);
    }
    try {
      return await handle();
    } finally {
      release();
    }
  };
}
