import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {brokenBudgets, compare, median, parseBudgets, ratio, type RunFigures} from '../../tooling/bench/stats';
import {longTaskTimeBetween} from '../../tooling/bench/measure';
import {mechanismsLeftOut, switchConstant} from '../../performance.config';

const figures = (overrides: Partial<RunFigures>): RunFigures => ({
  lighthousePerformance: 80,
  lighthouseLcpMs: 2000,
  lighthouseTbtMs: 300,
  cpuBlockingMs: 100,
  lighthouseCls: 0,
  desktopCls: 0,
  phoneCls: 0,
  htmlBytes: 5000,
  cssBytes: 15000,
  jsBytes: 150000,
  firstPaintMs: 400,
  usableMs: 1000,
  longTasksMs: 500,
  ...overrides,
});

describe('benchmark arithmetic', () => {
  test('median of an odd and an even count, unsorted', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.ok(Number.isNaN(median([])));
  });

  test('ratio rounds to two decimals and treats two zeros as equal', () => {
    assert.equal(ratio(2, 3), 0.67);
    assert.equal(ratio(0, 0), 1);
    assert.equal(ratio(5, 0), Infinity);
  });

  test('comparison counts pairs won and calls a difference beyond the spread only when the ranges do not overlap', () => {
    const separated = compare([10, 11, 12], [20, 21, 19], true);
    assert.deepEqual(separated, {medianA: 11, medianB: 20, ratio: 0.55, pairsAWon: 3, pairs: 3, beyondSpread: true});
    const overlapping = compare([10, 25, 12], [20, 21, 19], true);
    assert.equal(overlapping.pairsAWon, 2);
    assert.equal(overlapping.beyondSpread, false);
    // Higher is better for a score: A's lower scores lose every pair, still beyond the spread.
    const scores = compare([70, 71], [80, 82], false);
    assert.equal(scores.pairsAWon, 0);
    assert.equal(scores.beyondSpread, true);
  });
});

describe('budgets against stock', () => {
  const budgets = parseBudgets({
    budgets: [
      {metric: 'lighthousePerformance', atLeastStockPlus: 10},
      {metric: 'jsBytes', atMostStockTimes: 1},
      {metric: 'usableMs', atMostStockTimes: 0.9},
      {metric: 'longTasksMs', atMostStockTimes: 0.2},
    ],
  });
  const stock = figures({});
  const withinBudgets = figures({lighthousePerformance: 90, jsBytes: 150000, usableMs: 900, longTasksMs: 100});

  test('a portal within every budget breaks none', () => {
    assert.deepEqual(brokenBudgets('guide', withinBudgets, stock, budgets), []);
  });

  test('each budget broken is named with both figures', () => {
    // One byte or millisecond over each limit: compared unrounded, although the printed ratio rounds.
    const broken = brokenBudgets(
      'guide',
      figures({lighthousePerformance: 89, jsBytes: 150001, usableMs: 901, longTasksMs: 101}),
      stock,
      budgets,
    );
    assert.equal(broken.length, 4);
    assert.match(broken[0] ?? '', /^guide lighthousePerformance: 89, stock 80 \(budget >= stock \+ 10\)$/);
    assert.match(broken[2] ?? '', /^guide usableMs: 901, stock 1000, ratio 0.9 \(budget <= 0.9x stock\)$/);
  });

  test('a missing figure (NaN) breaks its budget instead of passing it', () => {
    assert.deepEqual(brokenBudgets('guide', {...withinBudgets, lighthousePerformance: NaN}, stock, budgets), [
      'guide lighthousePerformance: NaN, stock 80 (budget >= stock + 10)',
    ]);
  });

  test('the budget file is checked for known metrics and a limit', () => {
    assert.throws(() => parseBudgets({budgets: [{metric: 'tbt', atMostStockTimes: 1}]}), /unknown metric "tbt"/);
    assert.throws(() => parseBudgets({budgets: [{metric: 'jsBytes'}]}), /needs atLeastStockPlus or atMostStockTimes/);
    assert.throws(() => parseBudgets({}), /expected \{"budgets"/);
  });
});

describe('long tasks between first paint and a usable page', () => {
  test('only the part of each task inside the window counts', () => {
    const tasks = [
      {start: 100, duration: 80}, // 100-180, before the paint at 200: none
      {start: 150, duration: 100}, // 150-250: 50
      {start: 400, duration: 60}, // 60
      {start: 950, duration: 100}, // 950-1050, usable at 1000: 50
      {start: 1100, duration: 70}, // after: none
    ];
    assert.equal(longTaskTimeBetween(tasks, 200, 1000), 160);
  });
});

describe('benchmark switches (PORTAL_WITHOUT)', () => {
  test('unset leaves out nothing; names are split, trimmed and checked', () => {
    assert.equal(mechanismsLeftOut(undefined).size, 0);
    assert.equal(mechanismsLeftOut('').size, 0);
    assert.deepEqual([...mechanismsLeftOut('scheduling, tabs-kept')], ['scheduling', 'tabs-kept']);
    assert.throws(() => mechanismsLeftOut('scheduling,router'), /unknown mechanisms \(router\)/);
    assert.equal(switchConstant('tabs-kept'), '__PORTAL_WITHOUT_TABS_KEPT__');
  });
});
