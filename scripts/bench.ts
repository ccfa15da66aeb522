/**
 * Benchmark: builds the production site (time, peak memory), serves it with
 * the production hosting configuration (precompressed by scripts/precompress.ts,
 * same headers), and for each page type records first-load bytes (HTML, CSS,
 * JS; raw, gzip and the Brotli a current browser is sent) and
 * Lighthouse medians of three runs on the same Chromium, mobile and desktop
 * presets, with each mobile run's main-thread CPU time beside its simulated
 * blocking time (scripts/mainThreadCost.ts). Prints a table, writes bench/results.json and bench/results.md and
 * exits non-zero when a budget in bench/budgets.json is broken.
 *
 * Usage: npm run bench [-- --site DIR --skip-build --runs N --label NAME --out FILE]
 *   --site DIR     benchmark another Docusaurus site (for example the stock classic template)
 *   --skip-build   reuse DIR/build
 *   --only TYPES   comma-separated page types to measure (for example "guide,demo"); budgets still apply to them
 */
import {spawn, spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import {chromium} from '@playwright/test';
import {chromiumArgs, findChromium} from './browser';
import {mainThreadCost, type MainThreadCost, type TraceEvent} from './mainThreadCost';
import {copyExtension, precompressBuild} from './precompress';

interface Options {
  site: string;
  skipBuild: boolean;
  runs: number;
  label: string;
  out: string;
  pages: Record<string, string>;
  checkBudgets: boolean;
}

function parseArgs(argv: string[]): Options {
  const value = (name: string) => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const site = path.resolve(value('--site') ?? '.');
  const isPortal = site === path.resolve('.');
  const only = value('--only')?.split(',');
  const pick = (pages: Record<string, string>) => (only ? Object.fromEntries(Object.entries(pages).filter(([type]) => only.includes(type))) : pages);
  return {
    site,
    skipBuild: argv.includes('--skip-build'),
    runs: Number(value('--runs') ?? 3),
    label: value('--label') ?? (isPortal ? 'portal' : path.basename(site)),
    out: value('--out') ?? (isPortal ? 'bench/results' : 'bench/stock'),
    checkBudgets: isPortal,
    pages: pick(
      isPortal
      ? {
          home: '/',
          guide: '/docs/integration-guide',
          'API reference': '/docs/createorder',
          notification: '/docs/payment/payment-result-notification',
          demo: '/demos/dynqr',
          'blog post': '/blog/long-blog-post',
        }
      : {home: '/', guide: '/docs/intro', 'blog post': '/blog/long-blog-post'},
    ),
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
};

function build(site: string): {seconds: number; peakMemoryMb: number} {
  const started = Date.now();
  const result = spawnSync('/usr/bin/time', ['-f', '%M', 'npx', 'docusaurus', 'build'], {cwd: site, encoding: 'utf8', env: {...process.env, PORTAL_TEST_ROUTES: ''}});
  if (result.status !== 0) throw new Error(`build failed:\n${result.stdout}\n${result.stderr}`);
  const peakKb = Number(result.stderr.trim().split('\n').at(-1));
  return {seconds: (Date.now() - started) / 1000, peakMemoryMb: Math.round(peakKb / 1024)};
}

interface Bytes {
  htmlRaw: number;
  htmlGzip: number;
  cssRaw: number;
  cssGzip: number;
  jsRaw: number;
  jsGzip: number;
  htmlBrotli: number;
  cssBrotli: number;
  jsBrotli: number;
}

/** What a first visit downloads: the document, its CSS and the JS executed before idle. */
async function firstLoadBytes(baseUrl: string, pagePath: string, buildDir: string, executablePath: string): Promise<Bytes> {
  const browser = await chromium.launch({executablePath, args: [...chromiumArgs]});
  const page = await browser.newPage();
  const urls = new Map<string, string>();
  page.on('request', (request) => {
    const type = request.resourceType();
    if (['document', 'stylesheet', 'script'].includes(type)) urls.set(request.url(), type);
  });
  await page.goto(baseUrl + pagePath, {waitUntil: 'networkidle'});
  await browser.close();
  const bytes: Bytes = {htmlRaw: 0, htmlGzip: 0, cssRaw: 0, cssGzip: 0, jsRaw: 0, jsGzip: 0, htmlBrotli: 0, cssBrotli: 0, jsBrotli: 0};
  for (const [url, type] of urls) {
    let pathname = new URL(url).pathname;
    if (type === 'document') pathname = path.join(pathname, 'index.html');
    const file = path.join(buildDir, pathname);
    if (!existsSync(file)) continue;
    const content = readFileSync(file);
    const gzip = gzipSync(content).length;
    const key = type === 'document' ? 'html' : type === 'stylesheet' ? 'css' : 'js';
    bytes[`${key}Raw`] += content.length;
    bytes[`${key}Gzip`] += gzip;
    // What the server sends a browser that accepts Brotli: the precompressed copy, or the file itself when it is too small to have one.
    const brotliCopy = `${file}.${copyExtension.br}`;
    bytes[`${key}Brotli`] += existsSync(brotliCopy) ? statSync(brotliCopy).size : content.length;
  }
  return bytes;
}

/** Medians over the runs, and per run what varies most on a shared host. */
type RunMedians = Scores & {
  tbtRunsMs: number[];
  benchmarkIndexRuns: number[];
  /** Mobile runs only: CPU time and wall time of the main thread after the first paint. */
  mainThreadRuns: MainThreadCost[];
  /** Median of the runs' cpuBlockingMs (NaN without mobile runs). */
  cpuBlockingMs: number;
};

interface Scores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
}

interface LighthouseResult {
  categories: Record<string, {score: number | null} | undefined>;
  audits: Record<string, {numericValue?: number} | undefined>;
  environment?: {benchmarkIndex?: number};
  configSettings: {throttling: {cpuSlowdownMultiplier: number}};
}

/** A run's report and, for a mobile run, what the load cost the main thread (scripts/mainThreadCost.ts). */
interface LighthouseRun {
  lhr: LighthouseResult;
  mainThread?: MainThreadCost;
}

/**
 * Lighthouse's mobile preset slows the CPU 4×, a factor meant for a host in its high-end desktop
 * bracket, benchmarkIndex 1500 and up (docs/throttling.md in the Lighthouse repository); each
 * report carries the host's index, measured as the run starts. This VM drifts between about 2000
 * and about 1100 from one minute to the next, and on the slow side the same build shows two to
 * three times the blocking time. A mobile run measured below the bracket is therefore repeated,
 * three times at most; the last attempt counts whatever its index. Every counted run's index is
 * reported beside its blocking time, so a slow host stays visible in the results.
 */
const calibratedBenchmarkIndex = 1500;
const slowHostRepeats = 3;

/**
 * One Lighthouse run. With `withTrace`, Lighthouse also saves the load's trace (--save-assets),
 * which is read for the main thread's CPU time and then deleted.
 */
function runLighthouse(cli: string, args: string[], url: string, chromePath: string, withTrace: boolean): LighthouseRun {
  const outputDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  const reportPath = path.join(outputDir, 'run.json');
  const runArgs = [...args, `--output-path=${reportPath}`, ...(withTrace ? ['--save-assets'] : [])];
  try {
    // Lighthouse now and then loses the trace of a load (NO_NAVSTART); such a run is repeated, twice at most.
    let result = spawnSync(cli, runArgs, {encoding: 'utf8', env: {...process.env, CHROME_PATH: chromePath}});
    for (let retry = 0; retry < 2 && result.status !== 0; retry += 1) {
      console.warn(`Lighthouse run failed for ${url}, repeating it: ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
      result = spawnSync(cli, runArgs, {encoding: 'utf8', env: {...process.env, CHROME_PATH: chromePath}});
    }
    if (result.status !== 0) throw new Error(`Lighthouse failed for ${url}: ${result.stderr}`);
    const lhr = JSON.parse(readFileSync(reportPath, 'utf8')) as LighthouseResult;
    if (!withTrace) return {lhr};
    // Lighthouse names the saved trace after the report: run-0.trace.json for its one navigation.
    const trace = JSON.parse(readFileSync(path.join(outputDir, 'run-0.trace.json'), 'utf8')) as {traceEvents: TraceEvent[]};
    return {lhr, mainThread: mainThreadCost(trace.traceEvents, lhr.configSettings.throttling.cpuSlowdownMultiplier)};
  } finally {
    rmSync(outputDir, {recursive: true, force: true});
  }
}

/**
 * Medians over the runs, plus each run's blocking time (the metric that varies
 * most from run to run here) and the host's benchmark index for that run.
 *
 * Runs Lighthouse's CLI rather than its Node API: the API evaluates its own
 * functions in the page by source text, and the TypeScript runner's name
 * helpers injected into them break that (`__name is not defined`).
 */
async function lighthouseMedians(url: string, preset: 'mobile' | 'desktop', runs: number, chromePath: string): Promise<RunMedians> {
  const samples: Scores[] = [];
  const benchmarkIndexRuns: number[] = [];
  const mainThreadRuns: MainThreadCost[] = [];
  const cli = path.resolve('node_modules', '.bin', 'lighthouse');
  for (let run = 0; run < runs; run += 1) {
    const args = [
      url,
      '--output=json',
      '--quiet',
      '--only-categories=performance,accessibility,best-practices,seo',
      `--chrome-flags=--headless=new ${chromiumArgs.join(' ')}`,
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ];
    const mobile = preset === 'mobile';
    let run = runLighthouse(cli, args, url, chromePath, mobile);
    // The desktop preset does not slow the CPU down, so only mobile runs wait for a calibrated host.
    for (let repeat = 0; mobile && repeat < slowHostRepeats && (run.lhr.environment?.benchmarkIndex ?? Infinity) < calibratedBenchmarkIndex; repeat += 1) {
      console.warn(`Host benchmark index ${run.lhr.environment?.benchmarkIndex} is below ${calibratedBenchmarkIndex} (what the 4x CPU slowdown assumes); repeating the mobile run of ${url}.`);
      run = runLighthouse(cli, args, url, chromePath, mobile);
    }
    const {lhr} = run;
    benchmarkIndexRuns.push(Math.round(lhr.environment?.benchmarkIndex ?? NaN));
    if (run.mainThread) mainThreadRuns.push(run.mainThread);
    const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
    const numeric = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    samples.push({
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      lcpMs: Math.round(numeric('largest-contentful-paint')),
      tbtMs: Math.round(numeric('total-blocking-time')),
      cls: Math.round(numeric('cumulative-layout-shift') * 1000) / 1000,
    });
  }
  const keys = Object.keys(samples[0] ?? {}) as Array<keyof Scores>;
  const medians = Object.fromEntries(keys.map((key) => [key, median(samples.map((sample) => sample[key]))])) as unknown as Scores;
  return {
    ...medians,
    tbtRunsMs: samples.map((sample) => sample.tbtMs),
    benchmarkIndexRuns,
    mainThreadRuns,
    cpuBlockingMs: median(mainThreadRuns.map((cost) => cost.cpuBlockingMs)),
  };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const browser = findChromium();
  if (!browser) throw new Error('No Chromium found; run the end-to-end tests once or set CHROME_PATH.');
  const buildDir = path.join(options.site, 'build');
  const buildStats = options.skipBuild ? undefined : build(options.site);
  // As the build scripts do (npm run build); also for another site, so both are served alike.
  const precompressStarted = Date.now();
  await precompressBuild(buildDir);
  const precompressSeconds = (Date.now() - precompressStarted) / 1000;

  const port = 4300 + Math.floor(Math.random() * 500);
  // Node itself with tsx's loader, not npx: killing npx left the server it started running after the bench.
  const server = spawn(process.execPath, ['--import', 'tsx', path.resolve('scripts/serve-production.ts'), buildDir, String(port)], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await fetch(baseUrl);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const rows: Array<{pageType: string; path: string; bytes: Bytes; mobile: RunMedians; desktop: RunMedians}> = [];
  try {
    for (const [pageType, pagePath] of Object.entries(options.pages)) {
      const bytes = await firstLoadBytes(baseUrl, pagePath, buildDir, browser.executablePath);
      const mobile = await lighthouseMedians(baseUrl + pagePath, 'mobile', options.runs, browser.executablePath);
      const desktop = await lighthouseMedians(baseUrl + pagePath, 'desktop', options.runs, browser.executablePath);
      rows.push({pageType, path: pagePath, bytes, mobile, desktop});
      console.log(`${pageType}: mobile ${mobile.performance}, desktop ${desktop.performance}, JS ${Math.round(bytes.jsGzip / 1024)} KB gzip`);
    }
  } finally {
    server.kill();
  }

  const failures: string[] = [];
  if (options.checkBudgets) {
    const budgets = JSON.parse(readFileSync('bench/budgets.json', 'utf8')) as {
      mobile: Partial<Scores>;
      desktop: Partial<Scores>;
      firstLoadJsGzip: Record<string, number>;
    };
    for (const row of rows) {
      for (const preset of ['mobile', 'desktop'] as const) {
        for (const [metric, limit] of Object.entries(budgets[preset]) as Array<[keyof Scores, number]>) {
          const actual = row[preset][metric];
          const lowerIsBetter = metric === 'lcpMs' || metric === 'tbtMs' || metric === 'cls';
          if (lowerIsBetter ? actual > limit : actual < limit) failures.push(`${row.pageType} ${preset} ${metric}: ${actual} (budget ${lowerIsBetter ? '<=' : '>='} ${limit})`);
        }
      }
      const jsBudget = budgets.firstLoadJsGzip[row.pageType];
      if (jsBudget !== undefined && row.bytes.jsGzip > jsBudget) failures.push(`${row.pageType} first-load JS: ${row.bytes.jsGzip} B gzip (budget ${jsBudget})`);
    }
  }

  const kb = (n: number) => (n / 1024).toFixed(1);
  const header = '| Page type | HTML KB (gzip / br) | CSS KB (gzip / br) | JS KB (gzip / br) | Mobile perf | A11y | BP | SEO | LCP ms | TBT ms | TBT each run (host index) | CPU-time TBT ms | CPU-time TBT each run (main-thread CPU share) | CLS | Desktop perf |';
  const lines = [
    `# Benchmark: ${options.label}`,
    '',
    `Measured ${new Date().toISOString()} on ${process.platform}, Node ${process.version}, Chromium at ${browser.executablePath}; Lighthouse medians of ${options.runs} runs.`,
    `${buildStats ? `Build: ${buildStats.seconds.toFixed(1)} s, peak memory ${buildStats.peakMemoryMb} MB` : 'Build: reused'}; precompression ${precompressSeconds.toFixed(1)} s.`,
    '',
    header,
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (r) =>
        `| ${r.pageType} | ${kb(r.bytes.htmlRaw)} (${kb(r.bytes.htmlGzip)} / ${kb(r.bytes.htmlBrotli)}) | ${kb(r.bytes.cssRaw)} (${kb(r.bytes.cssGzip)} / ${kb(r.bytes.cssBrotli)}) | ${kb(r.bytes.jsRaw)} (${kb(r.bytes.jsGzip)} / ${kb(r.bytes.jsBrotli)}) | ${r.mobile.performance} | ${r.mobile.accessibility} | ${r.mobile.bestPractices} | ${r.mobile.seo} | ${r.mobile.lcpMs} | ${r.mobile.tbtMs} | ${r.mobile.tbtRunsMs.map((tbt, i) => `${tbt} (${r.mobile.benchmarkIndexRuns[i]})`).join(' / ')} | ${r.mobile.cpuBlockingMs} | ${r.mobile.mainThreadRuns.map((cost) => `${cost.cpuBlockingMs} (${cost.cpuShare.toFixed(2)})`).join(' / ')} | ${r.mobile.cls} | ${r.desktop.performance} |`,
    ),
    '',
    'TBT is Lighthouse\'s simulated mobile figure, the one the budget holds: the wall time of each main-thread task after the first paint, times the 4x CPU slowdown (2x for a task that laid out the page), beyond 50 ms. CPU-time TBT makes the same sum of each task\'s thread CPU time, leaving out the time the thread was ready but not running; the share in brackets is CPU time over wall time of those tasks. A share well below 1 means the run measured the host\'s contention as much as the page (scripts/mainThreadCost.ts).',
    '',
    options.checkBudgets ? (failures.length ? `Budgets broken:\n${failures.map((f) => `- ${f}`).join('\n')}` : 'All budgets met.') : 'No budgets checked for this site.',
  ];
  const markdown = `${lines.join('\n')}\n`;
  console.log(markdown);
  writeFileSync(`${options.out}.md`, markdown);
  writeFileSync(`${options.out}.json`, `${JSON.stringify({label: options.label, build: buildStats, precompressSeconds, rows, failures}, null, 2)}\n`);
  process.exit(failures.length ? 1 : 0);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
