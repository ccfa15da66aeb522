/**
 * What a page's load cost its main thread, read from a Lighthouse trace, and how much of the
 * main thread's wall time was CPU time.
 *
 * Lighthouse's mobile Total Blocking Time is simulated (Lantern): it takes the wall time of each
 * main-thread task it observed, multiplies it by the CPU slowdown (4x; half that for a task that
 * laid out the page) and counts what exceeds 50 ms. Wall time includes every moment the thread
 * was ready but not running. On a 2-vCPU machine shared by Chromium's processes, Lighthouse and
 * the web server, that is often more than half of it, so the blocking time measures the host's
 * contention as much as the page. The bench prints, per run:
 *
 * - cpuShare: thread CPU time / wall time of the main thread's tasks. A host that gives the page's
 *   main thread a core of its own, as a phone does, is near 1.
 * - cpuBlockingMs: the sum Lighthouse makes, with the same multipliers, but of each task's thread
 *   CPU time instead of its wall time: what the blocking time would be on this host with nothing
 *   else running. It leaves out Lantern's reordering of tasks and counts every task from the
 *   navigation's start to the end of the trace: counted from the first paint, it missed the task
 *   that ends in that paint, which on stock Docusaurus is the largest of the load.
 *
 * They are diagnostics beside Lighthouse's figures; the budgets are in bench/budgets.json.
 */

/** The fields of a Chrome trace event this module reads. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: {name?: string; data?: {isLoadingMainFrame?: boolean}};
}

export interface MainThreadCost {
  /** Top-level main-thread tasks that started at or after the navigation's start. */
  tasks: number;
  wallMs: number;
  cpuMs: number;
  /** cpuMs / wallMs; NaN when there were no tasks. */
  cpuShare: number;
  /** Lighthouse's blocking-time sum over those tasks, of thread CPU time instead of wall time. */
  cpuBlockingMs: number;
  /** The same sum of wall time, which is close to what Lighthouse's simulation starts from. */
  wallBlockingMs: number;
}

/** Lighthouse's threshold: the part of a task beyond 50 ms blocks input. */
export const blockingThresholdMs = 50;
/** Lantern simulates a task that laid out the page at this fraction of the CPU slowdown. */
export const layoutTaskFactor = 0.5;

const complete = (event: TraceEvent): event is TraceEvent & {dur: number} => event.ph === 'X' && typeof event.dur === 'number';

/**
 * @param events the trace's events (Lighthouse's saved trace, `traceEvents`)
 * @param cpuSlowdown the run's CPU slowdown (`configSettings.throttling.cpuSlowdownMultiplier`)
 * @throws when the trace has no first contentful paint, no main thread for it or no navigation start before it
 */
export function mainThreadCost(events: readonly TraceEvent[], cpuSlowdown: number): MainThreadCost {
  const firstPaint = events.find((event) => event.name === 'firstContentfulPaint');
  if (!firstPaint) {
    throw new Error('The trace has no firstContentfulPaint event: it did not record a page load that painted.');
  }
  const mainThread = events.find((event) => event.name === 'thread_name' && event.pid === firstPaint.pid && event.args?.name === 'CrRendererMain');
  if (!mainThread) {
    throw new Error(`The trace names no CrRendererMain thread in process ${firstPaint.pid}, the one that painted.`);
  }
  // The page's own navigation: the last main-frame start before the paint (Lighthouse opens about:blank first).
  const navigationStart = events
    .filter((event) => event.name === 'navigationStart' && event.pid === firstPaint.pid && event.ts <= firstPaint.ts && event.args?.data?.isLoadingMainFrame !== false)
    .reduce<TraceEvent | undefined>((latest, event) => (latest && latest.ts >= event.ts ? latest : event), undefined);
  if (!navigationStart) {
    throw new Error(`The trace has no navigationStart before its firstContentfulPaint in process ${firstPaint.pid}.`);
  }
  const onMainThread = events.filter((event) => event.pid === firstPaint.pid && event.tid === mainThread.tid).filter(complete).sort((a, b) => a.ts - b.ts);

  // Top-level tasks only: a RunTask nested in another (a nested message loop) is part of it.
  const tasks: Array<TraceEvent & {dur: number}> = [];
  for (const event of onMainThread) {
    const previous = tasks.at(-1);
    if (event.name === 'RunTask' && event.ts >= navigationStart.ts && !(previous && event.ts < previous.ts + previous.dur)) {
      tasks.push(event);
    }
  }
  const layouts = onMainThread.filter((event) => event.name === 'Layout');

  let wallMs = 0;
  let cpuMs = 0;
  let cpuBlockingMs = 0;
  let wallBlockingMs = 0;
  let nextLayout = 0;
  for (const task of tasks) {
    const end = task.ts + task.dur;
    while (nextLayout < layouts.length && (layouts[nextLayout]?.ts ?? Infinity) < task.ts) nextLayout += 1;
    const laidOut = (layouts[nextLayout]?.ts ?? Infinity) < end;
    const multiplier = laidOut ? cpuSlowdown * layoutTaskFactor : cpuSlowdown;
    const wall = task.dur / 1000;
    // A trace without thread clocks has no tdur: count such a task as all CPU.
    const cpu = (task.tdur ?? task.dur) / 1000;
    wallMs += wall;
    cpuMs += cpu;
    wallBlockingMs += Math.max(0, wall * multiplier - blockingThresholdMs);
    cpuBlockingMs += Math.max(0, cpu * multiplier - blockingThresholdMs);
  }
  return {
    tasks: tasks.length,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round(cpuMs),
    cpuShare: tasks.length ? Math.round((cpuMs / wallMs) * 100) / 100 : NaN,
    cpuBlockingMs: Math.round(cpuBlockingMs),
    wallBlockingMs: Math.round(wallBlockingMs),
  };
}
