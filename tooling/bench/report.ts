/**
 * The benchmark's tables: for each figure and page type, build A against build B (the portal
 * against stock, or the portal with a group of mechanisms against the portal without it).
 */
import {compare, metrics, type RunFigures} from './stats';

export type PairedRuns = Record<string, {a: RunFigures[]; b: RunFigures[]}>;

// Layout shift is a fraction: three decimals, where milliseconds and bytes get one.
const format = (value: number) => (!Number.isFinite(value) ? String(value) : Math.abs(value) < 1 ? String(Math.round(value * 1000) / 1000) : String(Math.round(value * 10) / 10));

/**
 * Rows are figures, columns page types. A cell reads "A / B (ratio)", the score "A / B (+points)";
 * "k/n" counts the interleaved pairs A won, and the cell is bold when the difference is beyond the
 * run-to-run spread (every run of one build better than every run of the other).
 */
export function comparisonTable(runs: PairedRuns): string {
  const pageTypes = Object.keys(runs);
  const lines = [`| Figure | ${pageTypes.join(' | ')} |`, `| --- |${pageTypes.map(() => ' --- |').join('')}`];
  for (const {key, label, lowerIsBetter} of metrics) {
    const cells = pageTypes.map((pageType) => {
      const paired = runs[pageType] as PairedRuns[string];
      const c = compare(
        paired.a.map((run) => run[key]),
        paired.b.map((run) => run[key]),
        lowerIsBetter,
      );
      const relation = key === 'lighthousePerformance' ? `${c.medianA - c.medianB >= 0 ? '+' : ''}${format(c.medianA - c.medianB)}` : `${c.ratio}x`;
      const cell = `${format(c.medianA)} / ${format(c.medianB)} (${relation}, ${c.pairsAWon}/${c.pairs})`;
      return c.beyondSpread ? `**${cell}**` : cell;
    });
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  return lines.join('\n');
}

export const tableLegend =
  'Each cell: median of A / median of B (A/B ratio, or the difference in points for the score; pairs of interleaved runs in which A was better). ' +
  'Bold: beyond the run-to-run spread, every run of one build better than every run of the other. ' +
  'Lighthouse: mobile preset, simulated throttling; CPU-time TBT: the same sum over its trace\'s main-thread tasks from navigation start, of thread CPU time (tooling/bench/mainThreadCost.ts). ' +
  'Bytes: the first load as a production server sends it, Brotli copies (precompressed). ' +
  'Real browser (Chromium, 4x CPU throttling, 412 px wide): first paint is first-contentful-paint; usable is hydrated (`data-has-hydrated`) with the colour-mode toggle enabled; long tasks are the time of tasks over 50 ms from navigation start until usable. ' +
  'Layout shift: Lighthouse\'s cumulative layout shift on its phone load, and the sum of layout shifts without recent input in a real Chromium at 1280x800, unthrottled, until a second after usable.';
