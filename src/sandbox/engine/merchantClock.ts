/**
 * A clock per merchant, for the hosted sandbox (issue 33): there many merchants share one sandbox clock (real
 * time), so none may move it, but each may move its own. A merchant's clock is the sandbox clock plus an
 * offset kept on the merchant's record (MerchantRecord.clockOffsetMs), so it is stored wherever the merchant
 * is: the journal, or the shared database. A unit of work reads the clock of the merchant it works on
 * (unit.ts), and a job falls due when its merchant's clock reaches it (jobs.ts). The local and in-browser
 * sandboxes never set an offset: there every merchant reads the one clock.
 */
import type {SandboxClock} from './clock';
import type {JobQueue} from './jobs';
import type {JobRecord, MerchantRecord, MerchantRecords} from './state';
import {msPerSecond} from './values';

/** How far a merchant's clock runs ahead of the sandbox clock, in milliseconds. */
export const merchantOffsetMs = (merchant: Pick<MerchantRecord, 'clockOffsetMs'> | undefined): number => merchant?.clockOffsetMs ?? 0;

/** The sandbox clock seen `offsetMs()` ahead: a merchant's clock. Moving it moves the sandbox clock (nothing in the domain does). */
export function offsetClock(base: SandboxClock, offsetMs: () => number): SandboxClock {
  return {
    now: () => base.now() + offsetMs(),
    get offsetMs() {
      return base.offsetMs + offsetMs();
    },
    advanceBy: (milliseconds) => base.advanceBy(milliseconds),
    advanceTo: (at) => base.advanceTo(at - offsetMs()),
  };
}

/** What moving one merchant's clock needs from the engine. */
export interface MerchantClockHost {
  readonly clock: SandboxClock;
  readonly jobs: JobQueue;
  /** Applies a new merchant record and adds it to the next batch. */
  writeMerchant(state: MerchantRecords, merchant: MerchantRecord): void;
  /** Runs one job taken off the queue as a unit of work (a job its state machine refuses does nothing). */
  runJob(job: JobRecord): Promise<void>;
  commit(): Promise<void>;
}

/**
 * Moves one merchant's clock on by `seconds`, running that merchant's jobs each at its own time, in order, and
 * no one else's. With `deliveries` false, notification attempts that fall due are left on the queue, due at
 * once, for the host to send without holding the merchant (instances sharing a database claim them).
 */
export async function advanceMerchantClock(
  host: MerchantClockHost,
  state: MerchantRecords,
  seconds: number,
  options: {deliveries: boolean},
): Promise<{now: number; jobsRun: number}> {
  const {clock, jobs} = host;
  const clientId = state.merchant.clientId;
  const moveTo = (at: number) => {
    const offset = Math.max(merchantOffsetMs(state.merchant), at - clock.now());
    if (offset !== merchantOffsetMs(state.merchant)) host.writeMerchant(state, {...state.merchant, clockOffsetMs: offset});
  };
  const target = clock.now() + merchantOffsetMs(state.merchant) + seconds * msPerSecond;
  const next = (): JobRecord | undefined =>
    jobs
      .values()
      .filter((job) => job.clientId === clientId && job.at <= target && (options.deliveries || job.kind !== 'event.deliver'))
      .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
  let jobsRun = 0;
  for (let job = next(); job; job = next()) {
    moveTo(job.at);
    jobs.takeById(job.id);
    await host.runJob(job);
    jobsRun += 1;
  }
  moveTo(target);
  // Due times on the sandbox clock changed for this merchant's jobs: the queue orders them again.
  jobs.reorder();
  await host.commit();
  return {now: clock.now() + merchantOffsetMs(state.merchant), jobsRun};
}
