/**
 * The home page: headline, sentence and the two paths above the fold at desktop and phone sizes, and the
 * live "Create a sandbox order" that loads the sandbox engine only when pressed, shows the signed request,
 * the response, PENDING -> PAID and a notification that verifies, without moving the page (layout shift),
 * with no console error, axe-clean in both colour modes after the run.
 */
import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';
import {consoleErrors, requestedScripts} from '../support/pageWatch';

const sizes = [
  {name: 'desktop', width: 1280, height: 800},
  {name: 'phone', width: 390, height: 844},
] as const;

/** Collects layout shifts from the first paint (the page's own CLS entries, not ones caused by input). */
const layoutShiftProbe = `
  window.__shift = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
  }).observe({type: 'layout-shift', buffered: true});
`;

async function aboveTheFold(page: Page, name: string | RegExp, role: 'heading' | 'link') {
  const box = await page
    .getByRole(role, {name, exact: typeof name === 'string'})
    .first()
    .boundingBox();
  expect(box, `${String(name)} is laid out`).not.toBeNull();
  const viewport = page.viewportSize();
  expect((box?.y ?? Infinity) + (box?.height ?? 0), `${String(name)} ends above the fold`).toBeLessThanOrEqual(viewport?.height ?? 0);
}

for (const size of sizes) {
  test(`home: headline, sentence and both paths are above the fold at ${size.width}x${size.height}`, async ({clean: {page}}) => {
    await page.setViewportSize({width: size.width, height: size.height});
    await page.goto('/');
    await aboveTheFold(page, 'Take payments, pay out and reconcile with one signed API', 'heading');
    await aboveTheFold(page, 'Start integrating', 'link');
    await aboveTheFold(page, 'See the demos', 'link');
    const tagline = await page.locator('header p').filter({hasText: 'One Create order call'}).boundingBox();
    expect((tagline?.y ?? Infinity) + (tagline?.height ?? 0)).toBeLessThanOrEqual(size.height);
    // Under "Create a sandbox order" the steps follow at the panel's own padding: no empty band kept for a status line.
    const panel = page.getByRole('region', {name: 'Try it now: a real signed order'});
    const button = await panel.getByRole('button', {name: 'Create a sandbox order'}).boundingBox();
    const steps = await panel.getByRole('list').first().boundingBox();
    const padding = await panel.evaluate((element) => parseFloat(getComputedStyle(element).paddingTop));
    const band = (steps?.y ?? Infinity) - ((button?.y ?? 0) + (button?.height ?? 0));
    expect(band, `space under the action (the panel's padding is ${padding} px)`).toBeLessThanOrEqual(padding + 1);
  });
}

test('home: "Create a sandbox order" signs, pays and verifies the notification, loading the engine only on demand, without layout shift', async ({
  page,
}) => {
  // The engine's chunk and the contract's validators load on the first press: slow on a busy 2-core machine.
  test.setTimeout(120_000);
  const errors = consoleErrors(page);
  const scripts = requestedScripts(page);
  await page.addInitScript(layoutShiftProbe);
  await page.setViewportSize({width: 1280, height: 800});
  await page.goto('/');
  const panel = page.getByRole('region', {name: 'Try it now: a real signed order'});
  const button = panel.getByRole('button', {name: 'Create a sandbox order'});
  await expect(button).toBeEnabled();
  // Hydrated and idle: nothing of the sandbox has been fetched yet.
  await page.waitForLoadState('networkidle');
  expect(scripts.filter((url) => /home-sandbox-order/.test(url))).toEqual([]);
  const heightBefore = (await panel.boundingBox())?.height ?? 0;

  await button.click();
  await expect(panel.getByRole('status').first()).toContainText('Done: the order is paid and its notification verified.', {
    timeout: 60_000,
  });
  expect(
    scripts.some((url) => /home-sandbox-order/.test(url)),
    'the runner came in its own chunk',
  ).toBe(true);

  const request = panel.getByLabel('The signed request');
  await expect(request).toContainText('POST /v1/orders');
  await expect(request).toContainText(/X-Signature: algorithm=RSA-SHA256, keyVersion=1, signature=\S{40,}/);
  await expect(panel.getByLabel('The response body')).toContainText('"code": "SUCCESS"');
  const states = panel.getByTestId('order-states');
  await expect(states).toContainText('PENDING');
  await expect(states).toContainText(/PAID$/);
  const checks = panel.getByTestId('notification-checks');
  await expect(checks).toContainText('ORDER.PAID');
  await expect(checks).toContainText('signature verifies');
  await expect(checks).not.toContainText('does not verify');
  await expect(panel.getByLabel('The notification')).toContainText('"eventType": "ORDER.PAID"');

  expect((await panel.boundingBox())?.height ?? 0, 'the panel keeps its size').toBeCloseTo(heightBefore, 0);
  const shift = await page.evaluate(() => (window as unknown as {__shift: number}).__shift);
  expect(shift, 'cumulative layout shift').toBeLessThanOrEqual(0.02);
  expect(errors).toEqual([]);

  // A second run creates another order; the page still verifies it.
  await panel.getByRole('button', {name: 'Create another sandbox order'}).click();
  await expect(panel.getByRole('status').first()).toContainText('Done:', {timeout: 60_000});
});

for (const theme of ['light', 'dark'] as const) {
  test(`home: axe finds nothing after a sandbox order, no sideways scroll at 360 px (${theme})`, async ({clean: {page}}) => {
    test.setTimeout(90_000);
    await page.setViewportSize({width: 360, height: 800});
    await page.goto(`/?docusaurus-theme=${theme}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const panel = page.getByRole('region', {name: 'Try it now: a real signed order'});
    await panel.getByRole('button', {name: 'Create a sandbox order'}).click();
    await expect(panel.getByRole('status').first()).toContainText('Done:', {timeout: 60_000});
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa']})).toEqual([]);
  });
}
