/**
 * One sandbox instance among several on one PostgreSQL database (`--database URL --shared`): joins the shared
 * store (sharedStore.ts, where the design is written down) to the engine and the HTTP server.
 *
 * - Each request runs in its merchant's transaction (`around`); the engine's copy of that merchant is loaded
 *   again first when the database holds a newer version.
 * - Memory is bounded by the merchants the instance serves: at most `cacheMerchants` are kept, the least
 *   recently used dropped first (the database keeps them).
 * - Jobs are claimed in the database (`jobs`), never run from the engine's own queue: first those of the merchants
 *   held here, others' only once overdue (sharedStore.ts, claimGraceMs).
 * - A clock advance moves the shared clock; reset, import and export, which concern every merchant at once,
 *   are refused with a sentence that says why.
 * - With `hosted` (--hosted --shared), a signed test tool runs in its signer's transaction, so reset, export and
 *   a clock move are the signer's own (hosted.ts); the clock moved is the merchant's (engine/merchantClock.ts),
 *   and the notification attempts it makes due are claimed and sent after the transaction, as any job is.
 * - A database that fails during a request is answered 503 SYSTEM_BUSY with Retry-After, in the contract's
 *   envelope (signed for an API call), and the instance's copy of the merchant is dropped.
 */
import {AsyncLocalStorage} from 'node:async_hooks';
import {isoSeconds} from '../../engine/clock';
import type {DeliveryLogEntry, SandboxEngine} from '../../engine/engine';
import {pathOf} from '../../engine/pipeline/route';
import {ActionInputError, readActionInput, sandboxAction} from '../../actions';
import {sandboxFiles} from './loadEngine';
import {claimGraceMs, DatabaseUnavailable, type LockedMerchant, type SharedStore} from './sharedStore';
import {errorReply, jsonReply, merchantOfCall, type CallWrapper, type JobDriver, type Reply, type ServerCall} from './server';

/** Seconds a client waits before retrying while the database is away. */
const retryAfterSeconds = 1;
/** How long a claimed delivery attempt is leased before another instance may send it again: well over the contract's timeout. */
const deliveryLeaseMs = 60_000;
/** Jobs one timer tick runs at most, so requests get their turn. */
const jobsPerTick = 100;
/** How often the simulate endpoint reads the log while another instance makes the first attempt. */
const firstAttemptPollMs = 50;
const simulateRoute = 'POST /_sandbox/notifications/simulate';

export interface SharedInstance {
  readonly around: CallWrapper;
  readonly jobs: JobDriver;
  /** The merchants this instance holds in memory. */
  cachedMerchants(): number;
}

export function sharedInstance(
  engine: SandboxEngine,
  store: SharedStore,
  options: {cacheMerchants: number; hosted?: boolean; log?: (line: string) => void},
): SharedInstance {
  /** The version of each merchant the engine holds, least recently used first. */
  const versions = new Map<string, string>();
  const deliveries = new Set<Promise<void>>();
  const deliveriesByJob = new Map<string, Promise<void>>();
  const log = options.log ?? (() => undefined);
  /**
   * How long the simulate endpoint waits for a first attempt another instance claimed: the contract's delivery
   * timeout, then the claim grace (a job nobody holds), then a second for recording the outcome.
   */
  const firstAttemptWaitMs = sandboxFiles().spec.delivery.timeoutSeconds * 1000 + claimGraceMs + 1000;
  /** Set while a request runs in its merchant's transaction: jobs asked for there (the simulate endpoint) run after it. */
  const insideCall = new AsyncLocalStorage<true>();
  // A merchant's clock move holds its lock: attempts it makes due are sent after, by whichever instance claims them.
  if (options.hosted) engine.tenants.inlineDeliveries = false;

  const forget = (clientId: string) => {
    versions.delete(clientId);
    engine.cache.drop(clientId);
  };

  /** After the lock: the shared clock, and the merchant loaded again when this copy is not the database's. */
  const refresh = async (merchant: LockedMerchant): Promise<void> => {
    if (merchant.clockOffsetMs > engine.clock.offsetMs) engine.clock.advanceBy(merchant.clockOffsetMs - engine.clock.offsetMs);
    const {clientId, version} = merchant;
    const held = versions.get(clientId);
    versions.delete(clientId);
    if (version === null) {
      engine.cache.drop(clientId);
      return;
    }
    if (held !== version) engine.cache.load(clientId, await merchant.records());
    versions.set(clientId, version);
    // Merchants whose version this instance does not know (loaded at start, or registered here) go too.
    for (const id of engine.cache.ids()) if (!versions.has(id) && id !== clientId) engine.cache.drop(id);
    while (versions.size > options.cacheMerchants) {
      const oldest = versions.keys().next().value as string;
      forget(oldest);
    }
  };

  const committed = (clientId: string, version: string | null) => {
    versions.delete(clientId);
    if (version !== null && engine.cache.ids().includes(clientId)) versions.set(clientId, version);
  };

  const inMerchant = async <T>(clientId: string, work: () => Promise<T>): Promise<T> => {
    try {
      const {value, version} = await store.withMerchant(clientId, refresh, () => insideCall.run(true, work));
      committed(clientId, version);
      return value;
    } catch (error) {
      // The engine may have applied what the database refused: its copy goes, to be loaded again.
      forget(clientId);
      throw error;
    }
  };

  /** Sends a claimed delivery with no lock held, then records its result in the merchant's transaction. */
  const deliver = (clientId: string, jobId: string): void => {
    const delivery = (async () => {
      const sent = await engine.cache.send(clientId, jobId);
      // Not sent (the event has no URL, or this copy no longer holds the job): the lease runs out and it is claimed again.
      if (sent) await inMerchant(clientId, () => engine.cache.record(clientId, jobId, sent));
    })().catch((error: unknown) => log(`sandbox: recording a delivery failed: ${(error as Error).message}`));
    deliveries.add(delivery);
    deliveriesByJob.set(jobId, delivery);
    void delivery.finally(() => {
      deliveries.delete(delivery);
      deliveriesByJob.delete(jobId);
    });
  };

  const runDue = async (): Promise<number> => {
    let ran = 0;
    if (insideCall.getStore()) return ran;
    while (ran < jobsPerTick) {
      let claimed;
      const held = new Map(versions);
      try {
        claimed = await store.claimDueJob(Date.now(), held, refresh, async (job) => {
          // Rare while every instance is up (claim affinity): a merchant nobody holds, or whose instance is down.
          if (held.get(job.clientId) !== versions.get(job.clientId))
            log(`sandbox: ran job ${job.id} of ${job.clientId}, not held here and over ${claimGraceMs} ms overdue`);
          // Leases count on the merchant's clock, which job times are on (its own, on the hosted sandbox).
          if (job.kind === 'event.deliver') return job.lease(engine.cache.now(job.clientId) + deliveryLeaseMs);
          // Not in this copy after the reload: the job is stale; it waits a lease rather than being claimed in a loop.
          if (!(await engine.cache.run(job.clientId, job.id))) await job.lease(engine.cache.now(job.clientId) + deliveryLeaseMs);
        });
      } catch (error) {
        if (error instanceof DatabaseUnavailable) return ran;
        throw error;
      }
      if (!claimed) break;
      committed(claimed.job.clientId, claimed.version);
      if (claimed.job.kind === 'event.deliver') deliver(claimed.job.clientId, claimed.job.id);
      ran += 1;
    }
    return ran;
  };

  const jobs: JobDriver = {
    claimedInDatabase: true,
    runDue,
    nextJobAt: () => undefined,
    settle: async () => {
      while (deliveries.size > 0) await Promise.allSettled([...deliveries]);
    },
    // The simulate endpoint waits for one notification's first attempt: every delivery started, here.
    settleDelivery: async () => {
      if (!insideCall.getStore()) await Promise.allSettled([...deliveriesByJob.values()]);
    },
  };

  /** A request the database could not serve: 503 SYSTEM_BUSY with Retry-After, signed for an API call. */
  const unavailable = async (call: ServerCall): Promise<Reply> => {
    const message = 'The sandbox database is unavailable; nothing was changed. Retry after the number of seconds in Retry-After.';
    const reply = call.target.startsWith('/_sandbox')
      ? errorReply('SYSTEM_BUSY', message)
      : await engine.refuse(call, 'SYSTEM_BUSY', message);
    return {...reply, headers: {...reply.headers, 'Retry-After': String(retryAfterSeconds)}};
  };

  const advanceClock = async (call: ServerCall): Promise<Reply> => {
    let seconds: number;
    try {
      const members = JSON.parse(call.body === '' ? '{}' : call.body) as Record<string, unknown>;
      seconds = Number(readActionInput(sandboxAction('clock.advance'), members)['seconds']);
    } catch (error) {
      if (error instanceof SyntaxError || error instanceof ActionInputError || error instanceof TypeError)
        return errorReply('INVALID_PARAMETER', error instanceof ActionInputError ? error.message : 'The body must be a JSON object.');
      throw error;
    }
    const offset = await store.advanceClock(seconds * 1000, engine.clock.offsetMs);
    engine.clock.advanceBy(offset - engine.clock.offsetMs);
    // Jobs now due run at the new time (not each at its own, as one process does), by whichever instance claims them.
    const jobsRun = await runDue();
    return jsonReply({now: isoSeconds(engine.clock.now()), jobsRun});
  };

  /**
   * The first attempt at a notification as the shared log lists it, whichever instance made it. This instance
   * claims and sends it itself when it can (it wrote the merchant's current version, so claim affinity gives it
   * the job), but another instance may have claimed it first (it holds a newer version, or the job went over
   * the grace): then its outcome is in the log once that instance records it, within the contract's delivery
   * timeout. The wait is bounded; past it the answer says `delivery: null` (the attempt is still listed later).
   */
  const firstAttempt = async (clientId: string, notificationId: string): Promise<DeliveryLogEntry | undefined> => {
    const deadline = Date.now() + firstAttemptWaitMs;
    for (;;) {
      const entry = (await engine.control.deliveries(clientId)).find((logged) => logged.notificationId === notificationId);
      if (entry || Date.now() >= deadline) return entry;
      await new Promise((resolve) => setTimeout(resolve, firstAttemptPollMs));
    }
  };

  /**
   * The simulate endpoint answers with the first attempt: the event is created in the merchant's transaction,
   * then its attempt is claimed and sent after it (by this instance, or by another that claimed it first).
   * Nothing here runs a job outside a claim, so each attempt is still made once.
   */
  const simulate = async (clientId: string, work: () => Promise<Reply>): Promise<Reply> => {
    const reply = await inMerchant(clientId, work);
    if (reply.status !== 200) return reply;
    const simulated = JSON.parse(String(reply.body)) as {notificationId: string};
    await runDue();
    await jobs.settleDelivery(simulated.notificationId);
    const delivery = await firstAttempt(clientId, simulated.notificationId);
    return jsonReply({...simulated, delivery: delivery ?? null});
  };

  const wholeSandbox = new Set(['POST /_sandbox/reset', 'POST /_sandbox/import', 'GET /_sandbox/export']);

  const around: CallWrapper = async (call, work) => {
    const route = `${call.method} ${pathOf(call.target)}`;
    try {
      // Hosted: a signed test tool is its signer's (hosted.ts refuses one that names another merchant).
      const signer = options.hosted && call.target.startsWith('/_sandbox') ? call.headers['x-client-id'] : undefined;
      if (signer) return await (route === simulateRoute ? simulate(signer, work) : inMerchant(signer, work));
      if (wholeSandbox.has(route) && !options.hosted)
        return errorReply(
          'INVALID_PARAMETER',
          `${route} concerns every merchant at once, which this sandbox does not do while several instances share its database.`,
        );
      if (route === 'POST /_sandbox/clock/advance' && !options.hosted) return await advanceClock(call);
      if (route === 'GET /_sandbox/health') {
        await store.ping();
        const reply = await work();
        const health = JSON.parse(String(reply.body)) as Record<string, unknown>;
        return jsonReply({...health, database: 'reachable', cachedMerchants: engine.cache.ids().length});
      }
      const clientId = merchantOfCall(call);
      if (route === simulateRoute) return await simulate(clientId ?? '', work);
      // A control read about no merchant (the clock, the delivery log) needs no lock.
      if (clientId === undefined && call.target.startsWith('/_sandbox') && call.method === 'GET') return await work();
      return await inMerchant(clientId ?? '', work);
    } catch (error) {
      if (error instanceof DatabaseUnavailable) return unavailable(call);
      throw error;
    }
  };

  return {around, jobs, cachedMerchants: () => engine.cache.ids().length};
}
