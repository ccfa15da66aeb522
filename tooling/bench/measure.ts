/**
 * One measured run of one page: a Lighthouse mobile run (its score and simulated figures, and the
 * CPU time of its trace's main-thread tasks), then a load in a real browser at 4x CPU throttling
 * (first paint, usable page, long tasks, and the files of the first load).
 */
import {spawnSync} from 'node:child_process';
import {existsSync, mkdtempSync, readFileSync, rmSync, statSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import type {Browser} from '@playwright/test';
import {chromiumArgs} from '../browser';
import {copyExtension} from '../precompress';
import {mainThreadCost, type TraceEvent} from './mainThreadCost';
import {notFoundPath} from './sites';
import type {RunFigures} from './stats';

/** The real browser's CPU slowdown, as Lighthouse's mobile preset assumes for a phone. */
export const cpuThrottling = 4;
/** Lighthouse's mobile screen, so both halves of a run lay out the same page. */
const mobileViewport = {width: 412, height: 823};

interface LighthouseReport {
  categories: {performance?: {score: number | null}};
  audits: Record<string, {numericValue?: number} | undefined>;
  configSettings: {throttling: {cpuSlowdownMultiplier: number}};
}

/**
 * Lighthouse's CLI, not its Node API: the API evaluates its own functions in the page by source
 * text, and the names tsx injects into them break that (`__name is not defined`). Lighthouse now and
 * then loses a load's trace (NO_NAVSTART); such a run is repeated, twice at most.
 */
function lighthouse(url: string, chromePath: string): Pick<RunFigures, 'lighthousePerformance' | 'lighthouseLcpMs' | 'lighthouseTbtMs' | 'cpuBlockingMs' | 'lighthouseCls'> {
  const outputDir = mkdtempSync(path.join(tmpdir(), 'portal-bench-'));
  const reportPath = path.join(outputDir, 'run.json');
  // --ignore-status-code: the not-found page type is served with status 404, as it should be, and is measured like any page.
  const args = [url, '--output=json', '--quiet', '--only-categories=performance', '--ignore-status-code', '--save-assets', `--output-path=${reportPath}`, `--chrome-flags=--headless=new ${chromiumArgs.join(' ')}`];
  const cli = path.resolve('node_modules', '.bin', 'lighthouse');
  try {
    let result = spawnSync(cli, args, {encoding: 'utf8', env: {...process.env, CHROME_PATH: chromePath}});
    for (let retry = 0; retry < 2 && result.status !== 0; retry += 1) {
      console.warn(`Lighthouse failed for ${url}, repeating: ${result.stderr.trim().split('\n').at(-1) ?? ''}`);
      result = spawnSync(cli, args, {encoding: 'utf8', env: {...process.env, CHROME_PATH: chromePath}});
    }
    if (result.status !== 0) throw new Error(`Lighthouse failed for ${url}: ${result.stderr}`);
    const report = JSON.parse(readFileSync(reportPath, 'utf8')) as LighthouseReport;
    // Lighthouse names the saved trace after the report: run-0.trace.json for its one navigation.
    const trace = JSON.parse(readFileSync(path.join(outputDir, 'run-0.trace.json'), 'utf8')) as {traceEvents: TraceEvent[]};
    const audit = (id: string) => Math.round(report.audits[id]?.numericValue ?? NaN);
    return {
      lighthousePerformance: Math.round((report.categories.performance?.score ?? 0) * 100),
      lighthouseLcpMs: audit('largest-contentful-paint'),
      lighthouseTbtMs: audit('total-blocking-time'),
      cpuBlockingMs: mainThreadCost(trace.traceEvents, report.configSettings.throttling.cpuSlowdownMultiplier).cpuBlockingMs,
      lighthouseCls: Math.round((report.audits['cumulative-layout-shift']?.numericValue ?? NaN) * 1000) / 1000,
    };
  } finally {
    rmSync(outputDir, {recursive: true, force: true});
  }
}

/**
 * Installed before any of the page's scripts: long tasks as they end, and the moment the page
 * becomes usable, hydrated (Docusaurus sets `data-has-hydrated` on <html>) with its colour-mode
 * toggle enabled (the theme renders it disabled until React runs). A mutation observer sees both
 * attribute changes in the task that makes them, so the timestamp is not a polling interval late.
 * A plain string: tsx's helpers would break a function serialised into the page.
 */
const pageProbe = `
  window.__bench = {longTasks: [], usableAt: undefined, layoutShift: 0};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__bench.layoutShift += entry.value;
  }).observe({type: 'layout-shift', buffered: true});
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__bench.longTasks.push({start: entry.startTime, duration: entry.duration});
  }).observe({type: 'longtask', buffered: true});
  const usable = new MutationObserver(() => {
    const toggle = document.querySelector('[class*="colorModeToggle"] button');
    if (document.documentElement.hasAttribute('data-has-hydrated') && toggle && !toggle.disabled) {
      window.__bench.usableAt = performance.now();
      usable.disconnect();
    }
  });
  usable.observe(document, {subtree: true, attributes: true, attributeFilter: ['data-has-hydrated', 'disabled']});
`;

/** Read once the page is usable; a string for the same reason as pageProbe. */
const pageReport = `(() => {
  const local = (url) => new URL(url, location.href).origin === location.origin;
  const pathOf = (url) => new URL(url, location.href).pathname;
  return {
    firstPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    usableMs: window.__bench.usableAt,
    longTasks: window.__bench.longTasks,
    htmlPath: location.pathname,
    scripts: performance.getEntriesByType('resource').filter((entry) => entry.initiatorType === 'script' && local(entry.name)).map((entry) => pathOf(entry.name)),
    // The stylesheets the page applies, not CSS chunks prefetched for other routes.
    stylesheets: [...document.styleSheets].map((sheet) => sheet.href).filter((href) => href && local(href)).map(pathOf),
  };
})()`;

interface PageReport {
  firstPaintMs: number;
  usableMs: number;
  longTasks: Array<{start: number; duration: number}>;
  htmlPath: string;
  scripts: string[];
  stylesheets: string[];
}

/** The time of long tasks inside [from, to]: each task's part that falls in the window. */
export function longTaskTimeBetween(tasks: ReadonlyArray<{start: number; duration: number}>, from: number, to: number): number {
  let total = 0;
  for (const {start, duration} of tasks) total += Math.max(0, Math.min(start + duration, to) - Math.max(start, from));
  return Math.round(total);
}

/** Bytes a production server sends for a file of the build: its Brotli copy, or the file itself when too small to have one. */
function bytesAsSent(buildDir: string, urlPath: string): number {
  let file = path.join(buildDir, decodeURIComponent(urlPath));
  if (!existsSync(file) || statSync(file).isDirectory()) file = path.join(file, 'index.html');
  // An unknown path is answered with the build's not-found page, as the production server does.
  if (!existsSync(file) && urlPath.endsWith(notFoundPath)) file = path.join(buildDir, '404.html');
  if (!existsSync(file)) throw new Error(`The page loaded ${urlPath}, which is not a file of ${buildDir}.`);
  const brotli = `${file}.${copyExtension.br}`;
  return statSync(existsSync(brotli) ? brotli : file).size;
}

async function realBrowser(browser: Browser, url: string, buildDir: string): Promise<Pick<RunFigures, 'firstPaintMs' | 'usableMs' | 'longTasksMs' | 'htmlBytes' | 'cssBytes' | 'jsBytes'>> {
  // bypassCSP: the portal's policy forbids the string evaluation Playwright's waiting uses (and blocks stock's inline scripts).
  const context = await browser.newContext({viewport: mobileViewport, isMobile: true, hasTouch: true, deviceScaleFactor: 1.75, bypassCSP: true});
  try {
    const page = await context.newPage();
    await page.addInitScript(pageProbe);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', {rate: cpuThrottling});
    await page.goto(url, {waitUntil: 'commit'});
    await page.waitForFunction('window.__bench.usableAt !== undefined', undefined, {timeout: 60_000});
    const report = (await page.evaluate(pageReport)) as PageReport;
    const sum = (paths: string[]) => [...new Set(paths)].reduce((total, file) => total + bytesAsSent(buildDir, file), 0);
    return {
      firstPaintMs: Math.round(report.firstPaintMs),
      usableMs: Math.round(report.usableMs),
      // From navigation start, not from first paint: a long task just before the first paint (stock's
      // largest) blocks the reader as much as one after it.
      longTasksMs: longTaskTimeBetween(report.longTasks, 0, report.usableMs),
      htmlBytes: bytesAsSent(buildDir, report.htmlPath),
      cssBytes: sum(report.stylesheets),
      jsBytes: sum(report.scripts),
    };
  } finally {
    await context.close();
  }
}

/** The two screens layout shift is measured on: the e2e suite's desktop and phone sizes. */
export const layoutShiftScreens = {
  desktop: {viewport: {width: 1280, height: 800}, phone: false},
  phone: {viewport: {width: 390, height: 844}, phone: true},
} as const;

/**
 * Layout shift not caused by input, in a real browser without throttling, from the first paint until a second
 * after the page is usable: on a desktop screen (a wider hero, a sidebar, a TOC) or a phone with touch.
 */
async function layoutShiftOn(browser: Browser, url: string, screen: keyof typeof layoutShiftScreens): Promise<number> {
  const {viewport, phone} = layoutShiftScreens[screen];
  const context = await browser.newContext({viewport, ...(phone ? {isMobile: true, hasTouch: true, deviceScaleFactor: 2} : {}), bypassCSP: true});
  try {
    const page = await context.newPage();
    await page.addInitScript(pageProbe);
    await page.goto(url, {waitUntil: 'commit'});
    await page.waitForFunction('window.__bench.usableAt !== undefined', undefined, {timeout: 60_000});
    await page.waitForTimeout(1000);
    return Math.round(((await page.evaluate('window.__bench.layoutShift')) as number) * 1000) / 1000;
  } finally {
    await context.close();
  }
}

/** Layout shift of one load at each screen size. */
export async function measureLayoutShift(site: ServedSite, pagePath: string, browser: Browser): Promise<Pick<RunFigures, 'desktopCls' | 'phoneCls'>> {
  const url = site.baseUrl + pagePath;
  return {desktopCls: await layoutShiftOn(browser, url, 'desktop'), phoneCls: await layoutShiftOn(browser, url, 'phone')};
}

/** A served build: where to load it and the directory it serves, for the bytes. */
export interface ServedSite {
  baseUrl: string;
  buildDir: string;
}

export async function measureRun(site: ServedSite, pagePath: string, browser: Browser, chromePath: string): Promise<RunFigures> {
  const url = site.baseUrl + pagePath;
  const fromLighthouse = lighthouse(url, chromePath);
  return {...fromLighthouse, ...(await realBrowser(browser, url, site.buildDir)), ...(await measureLayoutShift(site, pagePath, browser))};
}
