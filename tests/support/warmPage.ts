import {test as base, type Page, type ConsoleMessage, type ViewportSize} from '@playwright/test';

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
 * site keeps (colour mode, tabs, the sandbox's IndexedDB) take `clean`: the same tab, with the site's storage wiped and
 * the viewport and emulated media reset first. It keeps the renderer and the warm caches (about 1 s of processor time
 * a test less than a fresh context: 0.6-1.0 against 1.5-2.4 s for a load, measured on four page types). Tests that
 * change what cannot be undone (init scripts, permissions, exposed functions, the clock) or that measure a first
 * visit (layout shift, first click) keep Playwright's own fresh `page`.
 *
 * Each test gets the tab at the desktop viewport with its own error log. A failed test ends its
 * worker, so a broken tab never reaches the next test. Traces are not recorded for this tab.
 */
// The fixture callback is named provide, not use: ESLint's React rules take use() for React's hook.
export const test = base.extend<{warm: WarmPage; clean: WarmPage}, {workerTab: Page}>({
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
      // The tab reads as a reader with the browser's Data Saver on: Docusaurus then skips prefetching the routes of
      // every link in view (about 25 requests a page load, 15 to 20 % of the browser's processor time for a load
      // here). Navigation itself still loads its route first (the pending-navigation tests run here), but
      // window.docusaurus.preload, what hovering a link calls, does nothing: a test that needs it takes a fresh page
      // (navigation.spec.ts). Tests on a fresh page (first visits, layout shift, first clicks, start-up) keep the
      // prefetching readers get by default.
      // The session stays attached: the override lasts as long as the session that set it.
      const session = await context.newCDPSession(page);
      await session.send('Emulation.setDataSaverOverride', {dataSaverEnabled: true});
      await provide(page);
      await context.close();
    },
    {scope: 'worker'},
  ],
  warm: async ({workerTab: page}, provide) => {
    await page.setViewportSize(desktop);
    await withErrorLog(page, provide);
  },
  clean: async ({workerTab: page, baseURL, viewport, colorScheme}, provide) => {
    const origin = new URL(baseURL ?? '').origin;
    // test.use({viewport, colorScheme}) applies here as it does to a fresh page.
    await wipe(page, origin, viewport ?? desktop, colorScheme ?? 'light');
    await withErrorLog(page, provide);
    // And after: the read-only tests that share the tab expect a first visit's state too.
    await page.unrouteAll({behavior: 'ignoreErrors'});
    // Listeners the test added (console, requests, dialogs) must not outlive it.
    page.removeAllListeners();
    await wipe(page, origin, desktop, 'light');
  },
});

/**
 * Leaves the page (for a same-origin file with no script, so the tab keeps its renderer), so that nothing it
 * writes on the way out lands after the wipe; wipes what the site stores; resets the viewport and media.
 */
async function wipe(page: Page, origin: string, viewport: ViewportSize, colorScheme: ColorScheme): Promise<void> {
  await page.goto(blankPage);
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Storage.clearDataForOrigin', {origin, storageTypes: siteStorage});
  } finally {
    await cdp.detach();
  }
  await page.setViewportSize(viewport);
  await page.emulateMedia({media: 'screen', colorScheme, reducedMotion: 'no-preference', forcedColors: 'none'});
}

/**
 * A page of the site with no script: the tab waits there while the storage is wiped. A navigation to
 * about:blank would cost the renderer, the very thing the shared tab saves.
 */
const blankPage = '/img/favicon.svg';
/** What the site keeps between visits: the theme's choices (local storage) and the sandbox's state (IndexedDB). */
const siteStorage = 'cookies,local_storage,indexeddb,cache_storage,service_workers';
type ColorScheme = 'light' | 'dark' | 'no-preference';

/** Gives the test the tab and a log of its console errors, uncaught exceptions and CSP violations. */
async function withErrorLog(page: Page, provide: (value: WarmPage) => Promise<void>): Promise<void> {
  const errors: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  };
  const onPageError = (error: Error) => errors.push(error.message);
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  await provide({page, errors});
  page.off('console', onConsole);
  page.off('pageerror', onPageError);
}
