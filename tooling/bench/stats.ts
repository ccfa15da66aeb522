/**
 * The arithmetic of the benchmark: medians of interleaved runs, one build against another, and the
 * budgets of bench/budgets.json, which are stated against stock Docusaurus measured in the same run.
 * Pure functions, unit-tested (tests/unit/benchStats.test.ts).
 */

/** What one run of one page measures (tooling/bench/measure.ts). */
export interface RunFigures {
  /** Lighthouse mobile performance score, 0-100. */
  lighthousePerformance: number;
  /** Lighthouse's simulated mobile figures, printed as they are. */
  lighthouseLcpMs: number;
  lighthouseTbtMs: number;
  /** Lighthouse's blocking-time sum over its trace's main-thread tasks from navigation start, of thread CPU time (mainThreadCost.ts). */
  cpuBlockingMs: number;
  /** First-load bytes as sent: the Brotli copy of each file the page loaded, or the file itself where it has none. */
  htmlBytes: number;
  cssBytes: number;
  jsBytes: number;
  /** Real browser, 4x CPU throttling: first-contentful-paint from the Paint Timing API. */
  firstPaintMs: number;
  /** Real browser: when the page was hydrated and its colour-mode toggle enabled. */
  usableMs: number;
  /** Real browser: the time of long tasks (over 50 ms) from navigation start until usable. */
  longTasksMs: number;
  /** Lighthouse's cumulative layout shift (mobile). */
  lighthouseCls: number;
  /** Real browser, 1280x800 without throttling: layout shift not caused by input, until a second after usable. */
  desktopCls: number;
  /** The same at 390x844, a phone with touch (the e2e suite's phone size). */
  phoneCls: number;
}

export type Metric = keyof RunFigures;

/** The figures in the order the tables print them, with whether less is better. */
export const metrics: ReadonlyArray<{key: Metric; label: string; lowerIsBetter: boolean}> = [
  {key: 'lighthousePerformance', label: 'Lighthouse mobile performance', lowerIsBetter: false},
  {key: 'lighthouseLcpMs', label: 'Lighthouse LCP ms', lowerIsBetter: true},
  {key: 'lighthouseTbtMs', label: 'Lighthouse TBT ms', lowerIsBetter: true},
  {key: 'cpuBlockingMs', label: 'CPU-time TBT ms', lowerIsBetter: true},
  {key: 'htmlBytes', label: 'HTML bytes', lowerIsBetter: true},
  {key: 'cssBytes', label: 'CSS bytes', lowerIsBetter: true},
  {key: 'jsBytes', label: 'JS bytes', lowerIsBetter: true},
  {key: 'firstPaintMs', label: 'first paint ms', lowerIsBetter: true},
  {key: 'usableMs', label: 'usable ms', lowerIsBetter: true},
  {key: 'longTasksMs', label: 'long tasks ms', lowerIsBetter: true},
  {key: 'lighthouseCls', label: 'layout shift (Lighthouse, phone)', lowerIsBetter: true},
  {key: 'desktopCls', label: 'layout shift (desktop)', lowerIsBetter: true},
  {key: 'phoneCls', label: 'layout shift (phone 390x844)', lowerIsBetter: true},
];

/** The median; of an even count, the mean of the middle two. NaN for no values. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export function medians(runs: readonly RunFigures[]): RunFigures {
  return Object.fromEntries(metrics.map(({key}) => [key, median(runs.map((run) => run[key]))])) as unknown as RunFigures;
}

/**
 * a / b, rounded to two decimals. Two zeros are equal (1); a non-zero over zero is Infinity, so a
 * "times stock's" budget of zero long tasks is still checked.
 */
export function ratio(a: number, b: number): number {
  if (b === 0) return a === 0 ? 1 : Infinity;
  return Math.round((a / b) * 100) / 100;
}

/** How one build's runs compare with another's on one figure. */
export interface Comparison {
  medianA: number;
  medianB: number;
  /** medianA / medianB. */
  ratio: number;
  /** Pairs (run i of A against run i of B) in which A was better. */
  pairsAWon: number;
  pairs: number;
  /**
   * True when every run of one build was better than every run of the other: the difference of
   * the medians is beyond the run-to-run spread of both builds (their ranges do not overlap).
   */
  beyondSpread: boolean;
}

export function compare(a: readonly number[], b: readonly number[], lowerIsBetter: boolean): Comparison {
  const better = (x: number, y: number) => (lowerIsBetter ? x < y : x > y);
  const pairs = Math.min(a.length, b.length);
  let pairsAWon = 0;
  for (let index = 0; index < pairs; index += 1) if (better(a[index] as number, b[index] as number)) pairsAWon += 1;
  const separated = (low: readonly number[], high: readonly number[]) => Math.max(...low) < Math.min(...high);
  return {
    medianA: median(a),
    medianB: median(b),
    ratio: ratio(median(a), median(b)),
    pairsAWon,
    pairs,
    beyondSpread: a.length > 0 && b.length > 0 && (separated(a, b) || separated(b, a)),
  };
}

/**
 * bench/budgets.json: each figure is held against stock's median in the same run, either as a
 * score at least stock's plus some points or as at most some multiple of stock's figure.
 */
export type Budget = {metric: Metric; atLeastStockPlus: number} | {metric: Metric; atMostStockTimes: number};

export interface BudgetFile {
  budgets: Budget[];
}

export function parseBudgets(json: unknown): Budget[] {
  const budgets = (json as Partial<BudgetFile> | undefined)?.budgets;
  if (!Array.isArray(budgets) || budgets.length === 0) throw new Error('bench/budgets.json: expected {"budgets": [...]}.');
  const known = new Set<string>(metrics.map(({key}) => key));
  for (const budget of budgets as Array<Record<string, unknown>>) {
    if (typeof budget.metric !== 'string' || !known.has(budget.metric)) throw new Error(`bench/budgets.json: unknown metric ${JSON.stringify(budget.metric)}.`);
    if (typeof budget.atLeastStockPlus !== 'number' && typeof budget.atMostStockTimes !== 'number') {
      throw new Error(`bench/budgets.json: the budget on ${budget.metric} needs atLeastStockPlus or atMostStockTimes.`);
    }
  }
  return budgets as Budget[];
}

/** One line per broken budget, naming the page type, both medians and the limit. */
export function brokenBudgets(pageType: string, portal: RunFigures, stock: RunFigures, budgets: readonly Budget[]): string[] {
  const broken: string[] = [];
  for (const budget of budgets) {
    const actual = portal[budget.metric];
    const reference = stock[budget.metric];
    if ('atLeastStockPlus' in budget) {
      const limit = reference + budget.atLeastStockPlus;
      if (!(actual >= limit)) broken.push(`${pageType} ${budget.metric}: ${actual}, stock ${reference} (budget >= stock + ${budget.atLeastStockPlus})`);
    } else if (!(actual <= reference * budget.atMostStockTimes)) {
      // Compared unrounded: the printed ratio is rounded to two decimals.
      broken.push(`${pageType} ${budget.metric}: ${actual}, stock ${reference}, ratio ${ratio(actual, reference)} (budget <= ${budget.atMostStockTimes}x stock)`);
    }
  }
  return broken;
}
