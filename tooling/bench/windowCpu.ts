/**
 * Where the processor time of a benchmark window went (npm run bench -- --sandbox): the cores the whole machine kept
 * busy (Linux /proc/stat), the share of them this process took (the load generator), and the rest per answer.
 */
import {readFileSync} from 'node:fs';

/** Processor time over one window, warm-up included. */
export interface WindowCpu {
  /** Cores the whole machine kept busy, on average. */
  readonly busyCores: number;
  /** Of them, the load generator's (this process). */
  readonly generatorCores: number;
  /** Busy time less the generator's, per answer, in ms: the target's cost of a call on a quiet machine. */
  readonly msPerAnswer: number;
}

/** The machine's busy processor time so far, in seconds summed over the cores (Linux /proc/stat), or undefined. */
export function machineBusySeconds(): number | undefined {
  try {
    // user nice system idle iowait irq softirq steal: busy is what this machine ran; guest time is inside user already.
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '')
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    // USER_HZ is 100 on every Linux Node supports.
    return (user + nice + system + irq + softirq) / 100;
  } catch {
    return undefined;
  }
}

/** Runs `window` and reads where the processor time went while it ran; `answers` is what it answered, warm-up included. */
export async function withCpu<T>(window: () => Promise<T>, answers: (result: T) => number): Promise<{result: T; cpu: WindowCpu | undefined}> {
  const [busyBefore, ownBefore, started] = [machineBusySeconds(), process.cpuUsage(), performance.now()];
  const result = await window();
  const [busyAfter, own, seconds] = [machineBusySeconds(), process.cpuUsage(ownBefore), (performance.now() - started) / 1000];
  if (busyBefore === undefined || busyAfter === undefined || seconds <= 0) return {result, cpu: undefined};
  const generator = (own.user + own.system) / 1e6;
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  return {
    result,
    cpu: {
      busyCores: round((busyAfter - busyBefore) / seconds, 2),
      generatorCores: round(generator / seconds, 2),
      msPerAnswer: round((Math.max(0, busyAfter - busyBefore - generator) * 1000) / Math.max(1, answers(result)), 2),
    },
  };
}

