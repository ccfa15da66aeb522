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
  readonly source: 'CHROME_PATH' | 'debian' | 'playwright';
}

export const debianChromiumPath = '/usr/bin/chromium';

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

function playwrightBrowserPath(): string | undefined {
  try {
    const path = chromium.executablePath();
    return existsSync(path) ? path : undefined;
  } catch {
    return undefined;
  }
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
