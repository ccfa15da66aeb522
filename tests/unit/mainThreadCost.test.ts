import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {mainThreadCost, type TraceEvent} from '../../tooling/bench/mainThreadCost';

const page = {pid: 7, tid: 1};
const ms = 1000;

/** A top-level task on the page's main thread: start and durations in milliseconds. */
const task = (start: number, wall: number, cpu: number): TraceEvent => ({
  name: 'RunTask',
  ph: 'X',
  ...page,
  ts: start * ms,
  dur: wall * ms,
  tdur: cpu * ms,
});
const layout = (start: number, wall: number): TraceEvent => ({
  name: 'Layout',
  ph: 'X',
  ...page,
  ts: start * ms,
  dur: wall * ms,
  tdur: wall * ms,
});

const preamble: TraceEvent[] = [
  {name: 'thread_name', ph: 'M', ...page, ts: 0, args: {name: 'CrRendererMain'}},
  // Another renderer's main thread, whose tasks are not the page's.
  {name: 'thread_name', ph: 'M', pid: 9, tid: 1, ts: 0, args: {name: 'CrRendererMain'}},
  // Lighthouse opens about:blank before the page: the page's own navigation is the last start before the paint.
  {name: 'navigationStart', ph: 'R', ...page, ts: 0},
  {name: 'navigationStart', ph: 'R', ...page, ts: 20 * ms, args: {data: {isLoadingMainFrame: true}}},
  {name: 'firstContentfulPaint', ph: 'R', ...page, ts: 100 * ms},
];

describe("the main thread's cost of a page load", () => {
  test('counts tasks from the navigation start on, with the CPU slowdown, and separates CPU time from wall time', () => {
    const cost = mainThreadCost(
      [
        ...preamble,
        task(5, 40, 40), // before the page's navigation (about:blank): not counted
        task(50, 30, 30), // before the first paint, ending in it: 30 x 4 = 120 -> 70 either way
        task(200, 30, 15), // wall 30 x 4 = 120 -> 70 blocking; CPU 15 x 4 = 60 -> 10
        task(300, 10, 10), // 40: under the threshold either way
        {...task(400, 100, 100), pid: 9}, // another process
      ],
      4,
    );
    assert.deepEqual(cost, {tasks: 3, wallMs: 70, cpuMs: 55, cpuShare: 0.79, cpuBlockingMs: 80, wallBlockingMs: 140});
  });

  test('a task that laid out the page gets half the slowdown, as in Lighthouse', () => {
    const cost = mainThreadCost([...preamble, task(200, 40, 40), layout(210, 20), task(300, 40, 40)], 4);
    // 40 x 2 = 80 -> 30, and 40 x 4 = 160 -> 110.
    assert.equal(cost.wallBlockingMs, 140);
    assert.equal(cost.cpuBlockingMs, 140);
    assert.equal(cost.cpuShare, 1);
  });

  test('a task nested inside another is part of it, not a second task', () => {
    const cost = mainThreadCost([...preamble, task(200, 40, 20), task(210, 10, 5)], 4);
    assert.equal(cost.tasks, 1);
    assert.equal(cost.wallMs, 40);
  });

  test('a load with no tasks after the navigation start costs nothing', () => {
    const cost = mainThreadCost([...preamble, task(2, 80, 80)], 4);
    assert.equal(cost.tasks, 0);
    assert.equal(cost.cpuBlockingMs, 0);
    assert.ok(Number.isNaN(cost.cpuShare));
  });

  test('a trace without a first paint, its main thread or its navigation start is refused with a reason', () => {
    assert.throws(() => mainThreadCost([task(200, 40, 40)], 4), /no firstContentfulPaint/);
    assert.throws(
      () => mainThreadCost([{name: 'firstContentfulPaint', ph: 'R', ...page, ts: 0}], 4),
      /no CrRendererMain thread in process 7/,
    );
    const withoutNavigation = preamble.filter((event) => event.name !== 'navigationStart');
    assert.throws(() => mainThreadCost(withoutNavigation, 4), /no navigationStart before its firstContentfulPaint/);
  });
});
