/**
 * Where the end-to-end tests and the benchmark find Chromium. This machine has
 * no internet, so Playwright's own browser download cannot be relied on: the
 * order is CHROME_PATH, Debian's /usr/bin/chromium, then Playwright's installed
 * browser.
 */
import {existsSync} from 'node:fs';
import {chromium} from '@playwright/test';

export interface FoundBrowser {
  readonly executablePath: string;
  readonly source: 'CHROME_PATH' | 'debian' | 'debian-headless-shell' | 'playwright';
}

export const debianChromiumPath = '/usr/bin/chromium';
/** Debian's chromium-headless-shell: the same Chromium build, without the browser's windows. */
export const debianHeadlessShellPath = '/usr/bin/chromium-headless-shell';

/**
 * Flags for Debian's Chromium as root in a sandboxed, offline machine: no
 * sandbox (root), no GPU, and no background calls to Google services that the
 * closed network would refuse. Playwright already gives each launch a fresh,
 * temporary user-data dir.
 */
export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/**
 * The end-to-end suite's flags: the above, and V8 without its optimising compilers (Maglev and TurboFan; the
 * interpreter and the baseline compiler remain). A test loads a page, acts on it for a few seconds and leaves: the
 * optimisers compile code that rarely runs long enough to repay them. Sixteen warm page loads with the rendered axe
 * rules and a phone resize, three interleaved rounds: 24.0 against 31.7 processor-seconds of the machine (0.76). Scripts
 * behave the same; only their speed differs, so the bench (scripts/bench.ts), which measures what readers get, keeps
 * the browser as it ships.
 */
export const testChromiumArgs: readonly string[] = [...chromiumArgs, '--js-flags=--no-opt --no-maglev'];

function playwrightBrowserPath(): string | undefined {
  try {
    const path = chromium.executablePath();
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The browser the end-to-end suite drives: CHROME_PATH, then Debian's headless shell, then what findChromium finds.
 * The shell renders with the same engine but opens no browser window, tab strip or WebUI renderer per tab: a test's
 * fresh page and first load cost about 2.4 times less CPU than with the full browser's headless mode (7.7 against
 * 18.5 CPU-seconds for eight fresh contexts loading /blog, two interleaved pairs), and the suite is bound by CPU
 * on two cores. It is the build Playwright itself uses for headless tests. The benchmark keeps the full browser: it
 * measures what a reader's browser does.
 */
export function findTestChromium(
  env: NodeJS.ProcessEnv = process.env,
  exists: (path: string) => boolean = existsSync,
): FoundBrowser | undefined {
  if (!env.CHROME_PATH && exists(debianHeadlessShellPath))
    return {executablePath: debianHeadlessShellPath, source: 'debian-headless-shell'};
  return findChromium(env);
}

export function findChromium(env: NodeJS.ProcessEnv = process.env): FoundBrowser | undefined {
  const fromEnv = env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) {
      throw new Error(`CHROME_PATH is set to ${fromEnv}, but no file exists there.`);
    }
    return {executablePath: fromEnv, source: 'CHROME_PATH'};
  }
  if (existsSync(debianChromiumPath)) {
    return {executablePath: debianChromiumPath, source: 'debian'};
  }
  const installed = playwrightBrowserPath();
  return installed ? {executablePath: installed, source: 'playwright'} : undefined;
}
