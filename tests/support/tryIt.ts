/**
 * Driving the Try it panel in e2e specs: open it on an operation page, send, and check the answer as the
 * panel reports it (tests/e2e/tryIt.spec.ts, tests/e2e/sandboxConsole.spec.ts).
 */
import {expect, type Locator, type Page} from '@playwright/test';

/**
 * Goes to `path` as a reader does from an open docs page: by its link in the sidebar, a client-side
 * navigation (no new document, so no second load of the page's scripts). Collapsed categories render
 * their items only once opened, so they are opened, outermost first, until the link is there.
 */
export async function followSidebarLink(page: Page, path: string): Promise<void> {
  const sidebar = page.locator('.theme-doc-sidebar-menu');
  // Category toggles carry aria-expanded (and an href for readers without JavaScript); page links do not.
  const link = sidebar.locator(`a[href="${path}"]:not([aria-expanded])`);
  const closedCategory = sidebar.locator('a[aria-expanded="false"]');
  while ((await link.count()) === 0) {
    if ((await closedCategory.count()) === 0) throw new Error(`The docs sidebar has no link to ${path}`);
    await closedCategory.first().click();
  }
  await link.first().click();
  await expect(page).toHaveURL((url) => url.pathname === path);
}

/**
 * Opens the panel on `path`, whose operation is `summary`; answers the panel's region. With `from`
 * 'sidebar', an open docs page follows its sidebar link there instead of loading it.
 */
export async function openTryIt(page: Page, path: string, summary: string, from: 'load' | 'sidebar' = 'load'): Promise<Locator> {
  // The button is renamed "Close Try it" once open, so it is found by what it controls.
  const opener = page.locator('button[aria-controls][aria-expanded]').filter({hasText: /^(Try .* in the sandbox|Close Try it)$/});
  if (from === 'sidebar') {
    await followSidebarLink(page, path);
    // The page's heading is its operation's summary: the new page is on screen.
    await expect(page.locator('h1')).toHaveText(summary);
  } else {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  }
  // A panel opened on this page earlier in the visit is open again on return (ApiReference's openedPanels).
  const reopened = from === 'sidebar' && (await opener.getAttribute('aria-expanded')) === 'true';
  if (!reopened) {
    await expect(opener).toHaveText(`Try ${summary} in the sandbox`);
    await expect(opener).toHaveAttribute('aria-expanded', 'false');
    // Under the full suite's load a click right after hydration was seen lost twice in one run (as in
    // start-up.spec.ts's pagination test); a reader would click again, and so does this test, at most three times.
    await expect(async () => {
      if ((await opener.getAttribute('aria-expanded')) !== 'true') await opener.click();
      await expect(opener).toHaveAttribute('aria-expanded', 'true', {timeout: 2000});
    }).toPass({intervals: [0, 500], timeout: 8000});
  }
  const panel = page.getByRole('region', {name: 'Try it'});
  await expect(panel).toBeVisible();
  return panel;
}

/**
 * Sends the panel's request and checks its answer's status line, signature and contract checks; with
 * send false, only checks the answer the panel got by itself (the retrieve after a shopper action).
 */
export async function sendAndCheck(panel: Locator, expected: RegExp, what = '', send = true): Promise<void> {
  if (send) await panel.getByRole('button', {name: 'Send signed request'}).click();
  const checks = panel.getByRole('list', {name: 'Checks of the response'});
  const status = panel
    .locator('strong')
    .filter({hasText: /^HTTP \d{3}/})
    .first();
  // The first send of a page loads and starts the engine (its own chunk), which takes seconds on a busy machine.
  await expect(status).toBeVisible({timeout: 15_000});
  // On a wrong status, the message says which call and why: the response's own message.
  if (!expected.test((await status.textContent()) ?? ''))
    throw new Error(`${what} answered ${await status.locator('xpath=..').textContent()}`);
  await expect(checks).toContainText('Its signature verifies with the provider test key.');
  await expect(checks).toContainText('It matches the contract.');
}
