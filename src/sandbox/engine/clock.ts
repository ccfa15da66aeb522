/**
 * The sandbox's clock: real time plus an offset that only grows. Advancing it runs whatever falls
 * due (expiry, delays, settlement, notification retries) in time order, so a test or a reader can
 * reach tomorrow in a call. Tests inject a fixed start time.
 */
import {flatText} from './text';

export interface SandboxClock {
  /** Milliseconds since the epoch, on the sandbox's clock. */
  now(): number;
  /** How far ahead of real time the clock runs, in milliseconds. */
  readonly offsetMs: number;
  /** Moves the clock forward (never back). */
  advanceBy(milliseconds: number): void;
  /** Moves the clock forward to `at` if it is later than now. */
  advanceTo(at: number): void;
}

/** A clock over `realNow` (Date.now by default), starting `offsetMs` ahead of it. */
export function createClock(options: {realNow?: () => number; offsetMs?: number} = {}): SandboxClock {
  const realNow = options.realNow ?? (() => Date.now());
  let offset = Math.max(0, options.offsetMs ?? 0);
  return {
    now: () => realNow() + offset,
    get offsetMs() {
      return offset;
    },
    advanceBy(milliseconds) {
      if (milliseconds > 0) offset += milliseconds;
    },
    advanceTo(at) {
      const gap = at - (realNow() + offset);
      if (gap > 0) offset += gap;
    },
  };
}

/** A clock that only moves when told to: for tests and property runs. */
export function fixedClock(startMs: number): SandboxClock {
  let now = startMs;
  return {
    now: () => now,
    get offsetMs() {
      return 0;
    },
    advanceBy(milliseconds) {
      if (milliseconds > 0) now += milliseconds;
    },
    advanceTo(at) {
      if (at > now) now = at;
    },
  };
}

/** The seconds isoSeconds formatted lately, and their text. */
const recentSeconds = new Map<number, string>();
const recentSecondsKept = 64;

/**
 * YYYY-MM-DDTHH:MM:SSZ, the API's one timestamp format. The records one call or clock step writes share
 * their seconds (now, and an expiry or a retry time ahead), so the texts of recent seconds are kept and
 * handed out again: one flat string (text.ts) in memory instead of one per timestamp field, and no formatting.
 */
export function isoSeconds(ms: number): string {
  const second = Math.floor(ms / 1000);
  let text = recentSeconds.get(second);
  if (text === undefined) {
    if (recentSeconds.size >= recentSecondsKept) recentSeconds.clear();
    text = flatText(new Date(second * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
    recentSeconds.set(second, text);
  }
  return text;
}

/** YYYY-MM-DD of the UTC day `ms` falls on. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Milliseconds at 00:00:00 UTC of a YYYY-MM-DD day. */
export function dayStart(day: string): number {
  return Date.parse(`${day}T00:00:00Z`);
}
