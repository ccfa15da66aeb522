/**
 * Benchmark: the portal against the stock Docusaurus classic template, or (--ab GROUP) the portal
 * against itself built without a group of first-load mechanisms. Both builds are served alike and
 * measured interleaved, run by run, on matching page types (tooling/bench/sites.ts), so a slow
 * moment of the shared host falls on both. Writes bench/results.md and .json (against stock,
 * exiting non-zero when a budget of bench/budgets.json is broken) or bench/ab.md and .json.
 *
 * With --sandbox, instead: the sandbox's throughput at saturation and its p50/p99 at one fixed offered rate, in
 * memory, on the journal, on PostgreSQL and as two instances behind nginx (tooling/bench/sandboxTargets.ts), with
 * --merchants N a many-merchant run on two hosted instances, written to bench/sandbox.md; with --reference also against `prism mock` and its memory for 100,000 orders
 * (tooling/bench/sandbox.ts). Exits non-zero when one of the budgets is broken.
 *
 * Every run against stock also records, per page type, the bytes of the HTML page and of its Markdown twin
 * (tooling/bench/twinBytes.ts); `--twins [DIR]` prints that table alone for a build already made (default build/).
 *
 * With --layout-shift, only layout shift: every page type at 1280x800 and 390x844, portal against stock,
 * interleaved (tooling/bench/measure.ts measureLayoutShift); writes bench/layout-shift.md and .json and exits
 * non-zero when a portal median passes the e2e suite's budget of 0.02. It takes minutes, not the full run's hour.
 *
 * Usage: npm run bench [-- --runs N --only TYPES --ab GROUP --skip-build --portal-dir DIR --layout-shift]
 *        npm run bench -- --sandbox [--seconds N --rate N --merchants N --reference --orders N --only TARGETS --fixed-rate-only]
 *        npm run bench -- --twins [DIR]
 *   --runs N       interleaved runs of each build (default 5)
 *   --only TYPES   comma-separated page types, for example "guide,demo"
 *   --ab NAME      A/B of one first-load mechanism (performance.config.ts)
 *   --skip-build   reuse the portal builds in the cache when present
 *   --portal-dir   measure this portal build (for example build-test) instead of building one
 *   --layout-shift layout shift only, at both screen sizes
 *   --sandbox      the sandbox benchmark; --seconds per measured window (default 10); --rate the fixed offered
 *                  rate in requests/s (default 60% of the slowest saturation figure of the run); --merchants N adds
 *                  the many-merchant run; --reference adds Prism and memory, --orders for memory (default 100000);
 *                  --only memory,journal,postgres,shared runs those targets alone (a profile: bench/sandbox.md is
 *                  not written); --fixed-rate-only, with --rate, leaves out the saturation windows
 */
import {existsSync, readFileSync, writeFileSync} from 'node:fs';
import {chromium} from '@playwright/test';
import {chromiumArgs, findChromium} from '../tooling/browser';
import {performanceMechanisms} from '../performance.config';
import {layoutShiftScreens, measureLayoutShift, measureRun, type ServedSite} from '../tooling/bench/measure';
import {comparisonTable, tableLegend, type PairedRuns} from '../tooling/bench/report';
import {benchSandbox} from '../tooling/bench/sandbox';
import {benchSandboxTargets, targetKeys, type TargetKey} from '../tooling/bench/sandboxTargets';
import {startPostgres} from '../tests/support/postgres';
import {seedRecords, startSharedSandbox} from '../tests/support/sharedSandbox';
import {notFoundPath, pageTypes, portalBuild, serve, stockBuild, stockVersion, type Build} from '../tooling/bench/sites';
import {brokenBudgets, median, medians, parseBudgets, ratio} from '../tooling/bench/stats';
import {twinBytes, twinBytesTable} from '../tooling/bench/twinBytes';

function parseArgs(argv: string[]) {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const only = value('--only')?.split(',');
  const unknown = only?.filter((type) => !(type in pageTypes));
  if (unknown?.length) throw new Error(`Unknown page types ${unknown.join(', ')}; known: ${Object.keys(pageTypes).join(', ')}.`);
  const group = value('--ab');
  if (group !== undefined && !(group in performanceMechanisms))
    throw new Error(`Unknown mechanism ${group}; known: ${Object.keys(performanceMechanisms).join(', ')}.`);
  return {
    runs: Number(value('--runs') ?? 5),
    only,
    group,
    skipBuild: argv.includes('--skip-build'),
    portalDir: value('--portal-dir'),
    layoutShiftOnly: argv.includes('--layout-shift'),
  };
}

async function sandboxBench(argv: string[]): Promise<void> {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? Number(argv[index + 1]) : undefined;
  };
  const seconds = value('--seconds');
  const orders = value('--orders');
  const rate = value('--rate');
  const merchants = value('--merchants');
  const onlyAt = argv.indexOf('--only');
  const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? '').split(',') : undefined;
  const unknown = only?.find((key) => !(targetKeys as readonly string[]).includes(key));
  if (unknown !== undefined) throw new Error(`--only takes targets among ${targetKeys.join(', ')}; not "${unknown}".`);
  const log = (line: string) => console.log(line);
  const targets = await benchSandboxTargets({
    ...(seconds ? {seconds} : {}),
    ...(rate ? {rate} : {}),
    ...(merchants ? {merchants} : {}),
    ...(only ? {only: only as TargetKey[]} : {}),
    fixedRateOnly: argv.includes('--fixed-rate-only'),
    deployments: {startPostgres, startSharedSandbox, seedRecords},
    log,
  });
  // A run of some targets only is a profile, not the record: bench/sandbox.md keeps the whole run.
  if (only) console.log(`\n${targets.report}\n`);
  else {
    writeFileSync('bench/sandbox.md', targets.report);
    console.log(`\n${targets.report}\nWritten to bench/sandbox.md.\n`);
  }
  const budgets = [...targets.budgets];
  if (argv.includes('--reference')) {
    const result = await benchSandbox({...(seconds ? {seconds} : {}), ...(orders ? {orders} : {}), log});
    console.log(`\n${result.table}\n`);
    budgets.push(...result.budgets);
  }
  const broken = budgets.filter((budget) => !budget.met);
  console.log(
    broken.length
      ? `Budgets broken:\n${broken.map((budget) => `- ${budget.name}: ${budget.value}, limit ${budget.limit}`).join('\n')}`
      : 'All sandbox budgets met.',
  );
  process.exitCode = broken.length ? 1 : 0;
}

/** The HTML and Markdown twin bytes per page type of a build, as a table with a line of context. */
function twinSection(buildDir: string): string {
  const rows = twinBytes(
    buildDir,
    // The not-found page has no Markdown twin: there is no page to mirror.
    Object.entries(pageTypes)
      .filter(([, {portal}]) => portal !== notFoundPath)
      .map(([type, {portal}]) => [type, portal] as const),
  );
  return `Bytes of each page type's HTML and of its Markdown twin (${buildDir}; gzip at level 6 for both):\n\n${twinBytesTable(rows)}`;
}

/** The e2e suite's layout-shift budget (tests/e2e/layout-stability.spec.ts), per page type and screen. */
const layoutShiftBudget = 0.02;

/** Layout shift only: each page type, portal against stock, at both screens, interleaved run by run. */
async function layoutShiftBench(
  options: ReturnType<typeof parseArgs>,
  pages: Array<[string, {portal: string; stock: string}]>,
  executablePath: string,
) {
  const buildA: Build = options.portalDir ? {dir: options.portalDir} : await portalBuild([], options.skipBuild);
  const buildB: Build = await stockBuild();
  const [serverA, serverB] = [await serve(buildA.dir), await serve(buildB.dir)];
  const browser = await chromium.launch({executablePath, args: [...chromiumArgs]});
  type Figures = Awaited<ReturnType<typeof measureLayoutShift>>;
  const runs: Record<string, {portal: Figures[]; stock: Figures[]}> = Object.fromEntries(
    pages.map(([type]) => [type, {portal: [], stock: []}]),
  );
  const started = new Date();
  try {
    for (let run = 1; run <= options.runs; run += 1) {
      for (const [type, paths] of pages) {
        const order = run % 2 === 1 ? (['portal', 'stock'] as const) : (['stock', 'portal'] as const);
        for (const side of order) {
          const site =
            side === 'portal' ? {baseUrl: serverA.baseUrl, buildDir: buildA.dir} : {baseUrl: serverB.baseUrl, buildDir: buildB.dir};
          const figures = await measureLayoutShift(site, paths[side], browser);
          runs[type]?.[side].push(figures);
          console.log(`run ${run} ${type} ${side}: ${JSON.stringify(figures)}`);
        }
      }
    }
  } finally {
    await browser.close();
    serverA.stop();
    serverB.stop();
  }
  const screens = Object.keys(layoutShiftScreens) as Array<keyof typeof layoutShiftScreens>;
  const key = (screen: keyof typeof layoutShiftScreens): 'desktopCls' | 'phoneCls' => (screen === 'desktop' ? 'desktopCls' : 'phoneCls');
  const rows: string[] = [];
  const broken: string[] = [];
  for (const [type] of pages) {
    for (const screen of screens) {
      const portal = (runs[type]?.portal ?? []).map((figures) => figures[key(screen)]);
      const stock = (runs[type]?.stock ?? []).map((figures) => figures[key(screen)]);
      const [a, b] = [median(portal), median(stock)];
      if (a > layoutShiftBudget) broken.push(`${type} (${screen}): median ${a}, budget ${layoutShiftBudget}`);
      const {width, height} = layoutShiftScreens[screen].viewport;
      rows.push(
        `| ${type} | ${width}x${height} | ${a} | ${b} | ${ratio(a, b)} | ${Math.max(...portal)} | ${portal.join(', ')} | ${stock.join(', ')} |`,
      );
    }
  }
  const table = [
    `Measured ${started.toISOString()}; ${options.runs} interleaved pairs per page type and screen; portal ${buildA.dir}, stock Docusaurus ${stockVersion}.`,
    '',
    '| page type | screen | portal median | stock median | ratio | portal worst | portal runs | stock runs |',
    '|---|---|---:|---:|---:|---:|---|---|',
    ...rows,
    '',
    'Layout shift is the sum of shifts not caused by input, from the first paint until a second after the page is usable (hydrated), unthrottled. Ratio: portal median over stock median (1 when both are 0).',
  ].join('\n');
  const verdict = broken.length
    ? `Over the ${layoutShiftBudget} budget:\n${broken.map((line) => `- ${line}`).join('\n')}`
    : `Every median within ${layoutShiftBudget}.`;
  console.log(`${table}\n\n${verdict}`);
  writeFileSync('bench/layout-shift.md', `# Layout shift: the portal against stock Docusaurus\n\n${table}\n\n${verdict}\n`);
  writeFileSync(
    'bench/layout-shift.json',
    `${JSON.stringify({measuredAt: started.toISOString(), pages: Object.fromEntries(pages), runs, broken}, null, 2)}\n`,
  );
  process.exitCode = broken.length ? 1 : 0;
}

async function main(): Promise<void> {
  if (process.argv.includes('--sandbox')) return sandboxBench(process.argv.slice(2));
  const twinsAt = process.argv.indexOf('--twins');
  if (twinsAt >= 0) {
    const dir = process.argv[twinsAt + 1] && !process.argv[twinsAt + 1]?.startsWith('--') ? (process.argv[twinsAt + 1] as string) : 'build';
    console.log(twinSection(dir));
    return;
  }
  const options = parseArgs(process.argv.slice(2));
  const found = findChromium();
  if (!found) throw new Error('No Chromium found; set CHROME_PATH.');
  const pages = Object.entries(pageTypes).filter(([type]) => !options.only || options.only.includes(type));
  if (options.layoutShiftOnly) return layoutShiftBench(options, pages, found.executablePath);

  const [labelA, labelB] = options.group ? ['with', `without ${options.group}`] : ['portal', `stock ${stockVersion}`];
  const buildA: Build = options.portalDir ? {dir: options.portalDir} : await portalBuild([], options.skipBuild);
  const buildB: Build = options.group ? await portalBuild([options.group], options.skipBuild) : await stockBuild();
  const pathB = (type: keyof typeof pageTypes) => (options.group ? pageTypes[type]?.portal : pageTypes[type]?.stock) ?? '/';

  const serverA = await serve(buildA.dir);
  const serverB = await serve(buildB.dir);
  const siteA: ServedSite = {baseUrl: serverA.baseUrl, buildDir: buildA.dir};
  const siteB: ServedSite = {baseUrl: serverB.baseUrl, buildDir: buildB.dir};
  const browser = await chromium.launch({executablePath: found.executablePath, args: [...chromiumArgs]});
  const runs: PairedRuns = Object.fromEntries(pages.map(([type]) => [type, {a: [], b: []}]));
  const runsOf = (type: string) => runs[type] ?? {a: [], b: []};
  const started = new Date();
  try {
    for (let run = 1; run <= options.runs; run += 1) {
      for (const [type, {portal}] of pages) {
        const paired = runsOf(type);
        // Which build goes first alternates, so neither always follows the other.
        const order = run % 2 === 1 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        for (const side of order) {
          const figures =
            side === 'a'
              ? await measureRun(siteA, portal, browser, found.executablePath)
              : await measureRun(siteB, pathB(type), browser, found.executablePath);
          paired[side].push(figures);
          console.log(`run ${run} ${type} ${side === 'a' ? labelA : labelB}: ${JSON.stringify(figures)}`);
        }
      }
    }
  } finally {
    await browser.close();
    serverA.stop();
    serverB.stop();
  }

  const header = [
    `Measured ${started.toISOString()} on ${process.platform}, Node ${process.version}, ${found.executablePath}; ${options.runs} interleaved runs of each build per page type.`,
    `A = ${labelA}${buildA.seconds ? ` (built in ${buildA.seconds.toFixed(0)} s)` : ''}, B = ${labelB}${buildB.seconds ? ` (built in ${buildB.seconds.toFixed(0)} s)` : ''}.`,
    `Pages: ${pages.map(([type, {portal}]) => `${type} ${portal}${options.group ? '' : ` against ${pathB(type)}`}`).join('; ')}.`,
  ].join('\n');
  const table = `${header}\n\n${comparisonTable(runs)}\n\n${tableLegend}\n`;
  console.log(table);

  if (options.group) {
    const jsonPath = 'bench/ab.json';
    const all = (existsSync(jsonPath) ? JSON.parse(readFileSync(jsonPath, 'utf8')) : {}) as Record<
      string,
      {table: string; runs: PairedRuns}
    >;
    all[options.group] = {table, runs};
    writeFileSync(jsonPath, `${JSON.stringify(all, null, 2)}\n`);
    const sections = Object.entries(all).map(([group, {table: groupTable}]) => `## Without ${group}\n\n${groupTable}`);
    // The hand-written summary above the first measured section (mechanism, figures, verdict) is kept.
    const previous = existsSync('bench/ab.md') ? readFileSync('bench/ab.md', 'utf8') : '';
    const summary = previous.includes('\n## Without ')
      ? previous.slice(0, previous.indexOf('\n## Without ') + 1)
      : '# A/B of the first-load mechanisms\n\nA is the portal as built; B leaves out one mechanism (PORTAL_WITHOUT, performance.config.ts).\n\n';
    writeFileSync('bench/ab.md', `${summary}${sections.join('\n')}`);
    return;
  }

  const budgets = parseBudgets(JSON.parse(readFileSync('bench/budgets.json', 'utf8')));
  const broken = pages.flatMap(([type]) => brokenBudgets(type, medians(runsOf(type).a), medians(runsOf(type).b), budgets));
  const verdict = broken.length ? `Budgets broken:\n${broken.map((line) => `- ${line}`).join('\n')}` : 'All budgets met.';
  console.log(verdict);
  const twins = twinSection(buildA.dir);
  console.log(`\n${twins}`);
  writeFileSync(
    'bench/results.md',
    `# Benchmark: the portal against stock Docusaurus\n\n${table}\n${verdict}\n\n## Markdown twins\n\n${twins}\n`,
  );
  writeFileSync(
    'bench/results.json',
    `${JSON.stringify({measuredAt: started.toISOString(), pages: Object.fromEntries(pages), runs, broken}, null, 2)}\n`,
  );
  process.exitCode = broken.length ? 1 : 0;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
