import {defineConfig} from '@playwright/test';
import {findTestChromium, testChromiumArgs} from './tooling/browser';

/**
 * The suite runs against the production build in build-test/, served locally
 * with the production hosting configuration (hosting/_headers and _redirects:
 * CSP and other security headers, compression, 301s).
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const browser = findTestChromium();

export default defineConfig({
  testDir: './tests/e2e',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  workers: 2,
  // The JSON report keeps each test's duration, to find what makes the suite slow (.playwright/results.json).
  reporter: [['list'], ['json', {outputFile: '.playwright/results.json'}], ...(process.env.CI ? [] : [['html', {open: 'never'}] as const])],
  timeout: 30_000,
  // Hydration and the first engine start take seconds when the machine is shared; a reader would wait as long.
  expect: {timeout: 10_000},
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // Recording a trace costs about a quarter of the suite's time (3.5 against 2.6 minutes on the
    // specs outside the route suite), so it is kept for the retry of a failed test. To trace a
    // failure locally: npx playwright test -g '<test name>' --trace on
    trace: 'on-first-retry',
    launchOptions: {
      executablePath: browser?.executablePath,
      args: [...testChromiumArgs],
    },
  },
  projects: [{name: 'chromium', use: {browserName: 'chromium'}}],
  webServer: {
    command: `npx tsx scripts/serve-production.ts build-test ${port}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
