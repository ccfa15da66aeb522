/**
 * The demos' test accounts page and 3-D Secure in a live demo, in Chromium: a "Use in Try it" link opens the
 * operation's Try it with the value in the request; a "Use in a demo" link plays the demo to the outcome it
 * shows; the 3-D Secure challenge stops at the issuer's screen and then declines with the contract's code;
 * the page is axe clean in both colour modes and stacks its cards at 360 px.
 */
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';
import {consoleErrors} from '../support/pageWatch';

test.describe.configure({mode: 'parallel'});

test('test accounts: a Try it link prefills Try it, a demo link plays its outcome', async ({clean: {page}}) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  await page.goto('/demos/testaccount');
  const endings = page.getByRole('list', {name: 'Amount endings of payments'});
  const declined = endings.getByRole('listitem').filter({has: page.locator('code', {hasText: /^51$/})});
  await expect(declined).toContainText('insufficient funds');

  await declined.getByRole('link', {name: /^Use in Try it: Create order, with 51$/}).click();
  await expect(page).toHaveURL(/\/docs\/createorder\?try-it&body\.amount\.value=4251/);
  const body = page.getByLabel('Request body (JSON, sent exactly as written)');
  await expect(body).toHaveValue(/"value":\s*4251/, {timeout: 30_000});

  await page.goBack();
  await declined.getByRole('link', {name: /^Use in a demo, with 51$/}).click();
  await expect(page).toHaveURL(/\/demos\/hosted-paypage\?demo=hosted&outcome=decline-51&amount=4251/);
  const panel = page.getByTestId('live-demo');
  await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 60_000});
  await expect(panel).toHaveAttribute('data-order-status', 'PENDING');
  await expect(panel.getByTestId('live-demo-timeline')).toContainText('ORDER.PAYMENT_FAILED');
  await expect(page.getByRole('combobox', {name: 'Outcome'})).toHaveValue('decline-51');
  expect(errors).toEqual([]);
});

test('live demo: 3-D Secure stops at the challenge, then the failed challenge declines with AUTHENTICATION_FAILED', async ({
  clean: {page},
}) => {
  test.setTimeout(90_000);
  await page.goto('/demos/iframe-paypage');
  await page.getByRole('button', {name: 'Start the live demo'}).click();
  const panel = page.getByTestId('live-demo');
  await expect(panel.getByRole('button', {name: 'Play'})).toBeEnabled({timeout: 60_000});
  await page.getByRole('combobox', {name: 'Outcome'}).selectOption('3ds-failed');
  await expect(panel).toContainText('4000000000003246');
  const step = panel.getByRole('button', {name: 'Step'});
  await step.click();
  await step.click();
  await expect(panel).toHaveAttribute('data-screen', 'challenge');
  await expect(panel).toContainText('3-D Secure for the card ending 3246');
  await expect(panel).toHaveAttribute('data-order-status', 'PENDING');
  await expect(panel.getByTestId('live-demo-timeline')).not.toContainText('ORDER.PAYMENT_FAILED');
  await panel.getByRole('button', {name: 'Play'}).click();
  await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 30_000});
  const failed = panel.getByTestId('live-demo-timeline').getByRole('listitem').filter({hasText: 'ORDER.PAYMENT_FAILED'}).first();
  await expect(failed.getByRole('list')).toContainText('signature verifies with the provider test key');
  await expect(panel).toContainText('AUTHENTICATION_FAILED');
});

for (const theme of ['light', 'dark'] as const)
  test(`test accounts and overview: axe clean, one card look, stacked cards and no sideways scroll at 360 px (${theme})`, async ({
    clean: {page},
  }) => {
    await page.setViewportSize({width: 360, height: 800});
    const looks: Array<Record<string, string>> = [];
    for (const path of ['/demos/testaccount', '/demos/overview']) {
      await page.goto(`${path}?docusaurus-theme=${theme}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
      // The navbar, sidebar and footer are the routes spec's to scan: here only what these pages add.
      expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude: ['nav', 'footer', 'aside']}), path).toEqual([]);
      // Both grids are the one card component: the same look, and a card that is not a control does not look like one.
      const card = page.locator('article ul[aria-label] > li').first();
      await card.hover();
      looks.push(
        await card.evaluate((element) => {
          const style = getComputedStyle(element);
          const {cursor, borderTopColor, borderTopLeftRadius, backgroundColor, paddingTop, boxShadow} = style;
          return {cursor, borderTopColor, borderTopLeftRadius, backgroundColor, paddingTop, boxShadow};
        }),
      );
    }
    expect(looks[0], 'the test values and the flows share one card look').toEqual(looks[1]);
    expect(looks[0]?.cursor, 'a card is not pressable').not.toBe('pointer');
    const cards = page.getByRole('list', {name: 'The checkout flows compared'}).getByRole('listitem');
    const [first, second] = [await cards.nth(0).boundingBox(), await cards.nth(1).boundingBox()];
    expect(second?.y ?? 0, 'the flows stack on a phone').toBeGreaterThan((first?.y ?? 0) + (first?.height ?? 0) - 1);
  });
