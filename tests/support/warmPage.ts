import {test as base, type Page, type ConsoleMessage} from '@playwright/test';

/** The viewport every test starts with (Playwright's default). */
const desktop = {width: 1280, height: 720};

export interface WarmPage {
  page: Page;
  /** Console errors, uncaught exceptions and Content-Security-Policy violations since the test began. */
  errors: string[];
}

/**
 * One browser tab per worker, reused by every test that only reads pages: a fresh context per
 * test costs a new renderer and a cold HTTP and code cache, about 2 s of the 3 s a page took to load
 * and hydrate here, and the route suite opens every page of the site. Tests that change state the
 * site keeps (colour mode, tabs, local storage) use Playwright's own fresh `page` instead.
 *
 * Each test gets the tab at the desktop viewport with its own error log. A failed test ends its
 * worker, so a broken tab never reaches the next test. Traces are not recorded for this tab.
 */
// The fixture callback is named provide, not use: ESLint's React rules take use() for React's hook.
export const test = base.extend<{warm: WarmPage}, {workerTab: Page}>({
  workerTab: [
    async ({browser}, provide, workerInfo) => {
      const context = await browser.newContext({baseURL: workerInfo.project.use.baseURL});
      // Content-Security-Policy violations become console errors, so the error log catches them
      // (the suite serves the build with the production headers).
      await context.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          console.error(`CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
        });
      });
      const page = await context.newPage();
      await provide(page);
      await context.close();
    },
    {scope: 'worker'},
  ],
  warm: async ({workerTab: page}, provide) => {
    const errors: string[] = [];
    const onConsole = (message: ConsoleMessage) => {
      if (message.type() === 'error') errors.push(message.text());
    };
    const onPageError = (error: Error) => errors.push(error.message);
    await page.setViewportSize(desktop);
    page.on('console', onConsole);
    page.on('pageerror', onPageError);
    await provide({page, errors});
    page.off('console', onConsole);
    page.off('pageerror', onPageError);
  },
});
