/**
 * The live demos (src/components/demo/live/) in Chromium: nothing of the demo loads before the reader
 * starts it; each delivered flow plays to success and to a failure on the in-browser sandbox, its
 * notification verifies, its order shows in the sandbox console, a replay link restores a run, and the
 * panel is axe-clean in both colour modes with no sideways scroll at 360 px.
 */
import {expect, type Locator, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';
import {consoleErrors, requestedScripts} from '../support/pageWatch';

const demos = [
  {flow: 'hosted', path: '/demos/hosted-paypage', failure: 'decline-51', failureEvent: 'ORDER.PAYMENT_FAILED', failureStatus: 'PENDING'},
  {flow: 'iframe', path: '/demos/iframe-paypage', failure: 'abandon', failureEvent: undefined, failureStatus: 'PENDING'},
  {flow: 'paylink', path: '/demos/paylink', failure: 'expiry', failureEvent: 'ORDER.CLOSED', failureStatus: 'PENDING'},
] as const;

/** Opens a replay link, which starts the demo and plays it; waits until the run has finished. */
async function playReplay(page: Page, path: string, query: string) {
  await page.goto(`${path}?${query}`);
  const demo = page.getByTestId('live-demo');
  await expect(demo).toHaveAttribute('data-state', 'finished', {timeout: 60_000});
  return demo;
}

/** Opens a demo page and starts its live demo; answers the panel. */
async function startDemo(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', {name: 'Start the live demo'}).click();
  return page.getByTestId('live-demo');
}

/** The run's order number, from the first state change of an order in the timeline. */
async function orderNoIn(timeline: Locator): Promise<string> {
  const orderNo =
    (
      await timeline
        .getByText(/Order ORD-DEMO-[A-Z0-9]+:/)
        .first()
        .textContent()
    )?.match(/ORD-DEMO-[A-Z0-9]+/)?.[0] ?? '';
  expect(orderNo).not.toBe('');
  return orderNo;
}

test.describe.configure({mode: 'parallel'});

for (const demo of demos) {
  test(`live demo ${demo.flow}: Play runs it to PAID, ORDER.PAID verifies, the order is in the sandbox console`, async ({
    clean: {page},
  }) => {
    test.setTimeout(90_000);
    const errors = consoleErrors(page);
    const scripts = requestedScripts(page);
    await page.goto(demo.path);
    const start = page.getByRole('button', {name: 'Start the live demo'});
    await expect(start).toBeEnabled();
    await page.waitForLoadState('networkidle');
    expect(
      scripts.filter((url) => /live-demo/.test(url)),
      'nothing of the demo before it starts',
    ).toEqual([]);
    await start.click();
    const panel = page.getByTestId('live-demo');
    await expect(panel.getByRole('button', {name: 'Play'})).toBeEnabled({timeout: 60_000});
    expect(
      scripts.some((url) => /live-demo/.test(url)),
      'the demo came in its own chunk',
    ).toBe(true);
    await panel.getByRole('button', {name: 'Step'}).click();
    await expect(panel.getByTestId('copy-as-code')).toContainText('/v1/orders');
    await panel.getByRole('button', {name: 'Play'}).click();
    await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 30_000});
    await expect(panel).toHaveAttribute('data-order-status', 'PAID');
    const timeline = panel.getByTestId('live-demo-timeline');
    const paid = timeline.getByRole('listitem').filter({hasText: 'ORDER.PAID'});
    await expect(paid.getByRole('list')).toContainText('signature verifies with the provider test key');
    await expect(paid.getByRole('list')).toContainText('client ID sandbox-merchant-0001 matches');
    await expect(paid.getByRole('list')).not.toContainText('fail');
    if (demo.flow === 'iframe') await expect(timeline).toContainText('veloxa:payment_succeeded');
    const orderNo =
      (
        await timeline
          .getByText(/Order (ORD-DEMO|PL)-[A-Z0-9-]+:/)
          .first()
          .textContent()
      )?.match(/(ORD-DEMO|PL)-[A-Z0-9-]+/)?.[0] ?? '';
    expect(orderNo).not.toBe('');
    expect(errors).toEqual([]);

    if (demo.flow === 'hosted') {
      // Deliver again: your server calls Redeliver event; the same notification arrives again, verified and marked.
      await paid.first().getByRole('button', {name: 'Deliver again: ORDER.PAID'}).click();
      const again = timeline.locator('li[data-kind="notification"]').filter({hasText: 'delivered again'});
      await expect(again).toContainText('ORDER.PAID');
      await expect(again.getByRole('list')).toContainText('signature verifies with the provider test key');
      await expect(panel.getByTestId('copy-as-code')).toContainText('/redeliver');
      // The notification opens in the signature debugger, with the provider test key, and verifies there.
      await paid.first().getByRole('link', {name: 'Open this notification in the signature debugger'}).click();
      const tool = page.getByRole('region', {name: 'Check a signature'});
      await expect(tool.getByLabel('The notification as received (raw HTTP)')).toHaveValue(/"eventType":"ORDER.PAID"/);
      await expect(tool.getByLabel('The provider public key (PEM)')).toHaveValue(/BEGIN PUBLIC KEY/);
      await tool.getByRole('button', {name: 'Check signature'}).click();
      await expect(tool.getByText('The signature verifies')).toBeVisible();
    }

    await page.goto('/docs/sandbox-console');
    const orders = page.getByRole('region', {name: 'Orders', exact: true});
    await expect(orders).toContainText(orderNo, {timeout: 30_000});
  });

  test(`live demo ${demo.flow}: a replay link plays the ${demo.failure} outcome`, async ({clean: {page}}) => {
    test.setTimeout(90_000);
    const panel = await playReplay(page, demo.path, `demo=${demo.flow}&outcome=${demo.failure}`);
    const timeline = panel.getByTestId('live-demo-timeline');
    if (demo.failureEvent) {
      const item = timeline.getByRole('listitem').filter({hasText: demo.failureEvent}).first();
      await expect(item.getByRole('list')).toContainText('signature verifies with the provider test key');
    }
    if (demo.flow === 'iframe') await expect(timeline).toContainText('veloxa:closed');
    if (demo.flow === 'paylink') await expect(timeline).toContainText('creates a new order');
    await expect(panel).toHaveAttribute('data-order-status', demo.failureStatus);
    await expect(page.getByRole('combobox', {name: 'Outcome'})).toHaveValue(demo.failure);
  });
}

for (const theme of ['light', 'dark'] as const) {
  test(`live demo: axe finds nothing after a run, no sideways scroll at 360 px (${theme})`, async ({clean: {page}}) => {
    test.setTimeout(90_000);
    await page.setViewportSize({width: 360, height: 800});
    await page.goto(`/demos/hosted-paypage?docusaurus-theme=${theme}&demo=hosted&outcome=refund`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    const panel = page.getByTestId('live-demo');
    await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 60_000});
    await expect(panel.getByTestId('live-demo-timeline')).toContainText('REFUND.SUCCEEDED');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa']})).toEqual([]);
  });
}

test('live demo: when the in-browser sandbox cannot start, the panel says so in one sentence and the page stays readable', async ({
  page,
}) => {
  // A browser without IndexedDB (storage refused, an old browser): the engine cannot keep its state.
  await page.addInitScript(() => Object.defineProperty(window, 'indexedDB', {value: undefined}));
  const errors = consoleErrors(page);
  await startDemo(page, '/demos/paylink');
  await expect(page.getByRole('alert')).toHaveText(
    /^The in-browser sandbox could not start here \(.+\), so this demo cannot run; the steps below explain the flow\.$/,
  );
  await expect(page.getByRole('heading', {level: 2}).first()).toBeVisible();
  expect(errors).toEqual([]);
});

/** A replay link plays the flow's decline by amount ending 51: the order stays PENDING, ORDER.PAYMENT_FAILED verifies. */
async function expectDeclineReplay(page: Page, path: string, flow: string) {
  const declined = await playReplay(page, path, `demo=${flow}&outcome=decline-51`);
  await expect(declined).toHaveAttribute('data-order-status', 'PENDING');
  await expectVerifies(declined.getByTestId('live-demo-timeline'), 'ORDER.PAYMENT_FAILED');
}

/** The notification of that event type in the timeline verifies: signature with the provider test key, client ID, nothing failing. */
async function expectVerifies(timeline: Locator, eventType: string) {
  const item = timeline.getByRole('listitem').filter({hasText: eventType}).first();
  await expect(item.getByRole('list')).toContainText('signature verifies with the provider test key');
  await expect(item.getByRole('list')).toContainText('client ID sandbox-merchant-0001 matches');
  await expect(item.getByRole('list')).not.toContainText('fail');
}

test('live demo dynqr: a real QR code of the order, scanned from the keyboard, PAID; ORDER.PAID verifies; the order is in the console', async ({
  clean: {page},
}) => {
  test.setTimeout(60_000);
  const errors = consoleErrors(page);
  const panel = await startDemo(page, '/demos/dynqr');
  await panel.getByRole('button', {name: 'Show the QR code'}).click();
  const qr = panel.getByTestId('qr-code');
  await expect(qr).toHaveAttribute('data-content', /^https:\/\/sandbox-cashier\.example\.com\/qr\//);
  await expect(qr.getByRole('img', {name: /QR code for order ORD-DEMO-/})).toBeVisible();
  const scan = panel.getByRole('button', {name: 'Scan with the wallet'});
  await scan.focus();
  await page.keyboard.press('Enter');
  await expect(panel).toHaveAttribute('data-screen', 'wallet-result');
  await panel.getByRole('button', {name: 'Play'}).click();
  await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 20_000});
  await expect(panel).toHaveAttribute('data-order-status', 'PAID');
  await expectVerifies(panel.getByTestId('live-demo-timeline'), 'ORDER.PAID');
  const orderNo = await orderNoIn(panel.getByTestId('live-demo-timeline'));
  expect(errors).toEqual([]);
  await page.goto('/docs/sandbox-console');
  await expect(page.getByRole('region', {name: 'Orders', exact: true})).toContainText(orderNo, {timeout: 30_000});
});

test('live demo dynqr: a replay link scans after qrExpiresAt: refused with ORDER_CLOSED, cancelled, ORDER.CLOSED verifies', async ({
  clean: {page},
}) => {
  const panel = await playReplay(page, '/demos/dynqr', 'demo=dynqr&outcome=qr-expired');
  const timeline = panel.getByTestId('live-demo-timeline');
  await expect(timeline).toContainText('ORDER_CLOSED: The QR code has expired');
  await expectVerifies(timeline, 'ORDER.CLOSED');
  await expect(panel).toHaveAttribute('data-order-status', 'CLOSED');
});

test('live demo smart-code: the customer types the amount in the wallet, Play runs it to PAID, ORDER.PAID verifies; a replay of ending 51 is declined', async ({
  clean: {page},
}) => {
  const panel = await startDemo(page, '/demos/smart-code');
  await expect(panel.getByTestId('qr-code')).toHaveAttribute('data-content', 'https://shop.example.com/pay/store-12');
  await panel.getByRole('button', {name: 'Scan the sign with the wallet'}).click();
  const amount = panel.getByLabel('Amount (USD)');
  await amount.fill('9.5x');
  await panel.getByRole('button', {name: 'Continue'}).click();
  await expect(panel).toContainText('Enter an amount from 1.00');
  await amount.fill('9.00');
  await panel.getByRole('button', {name: 'Continue'}).click();
  await expect(panel.getByTestId('copy-as-code')).toContainText('"value":900');
  await panel.getByRole('button', {name: 'Play'}).click();
  await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 20_000});
  await expect(panel).toHaveAttribute('data-order-status', 'PAID');
  await expectVerifies(panel.getByTestId('live-demo-timeline'), 'ORDER.PAID');
  await expectDeclineReplay(page, '/demos/smart-code', 'smart-code');
});

for (const [flow, path, theme] of [
  ['ewallet', '/demos/ewallet', 'light'],
  ['jsapi', '/demos/jsapi', 'dark'],
] as const) {
  test(`live demo ${flow}: a replay link plays it to PAID, ORDER.PAID verifies, axe finds nothing at 360 px (${theme}); ending 51 is declined`, async ({
    clean: {page},
  }) => {
    await page.setViewportSize({width: 360, height: 800});
    const panel = await playReplay(page, path, `docusaurus-theme=${theme}&demo=${flow}&outcome=approve`);
    await expect(panel).toHaveAttribute('data-order-status', 'PAID');
    const timeline = panel.getByTestId('live-demo-timeline');
    await expectVerifies(timeline, 'ORDER.PAID');
    await expect(timeline).toContainText(flow === 'jsapi' ? 'VeloxaWallet.requestPayment(jsapiParams)' : 'veloxapay://pay?session=');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa']})).toEqual([]);
    await expectDeclineReplay(page, path, flow);
  });
}

test('live demo cash: the voucher, the till, Play to PAID after the cash seconds; a late visit is refused; the order is in the console', async ({
  clean: {page},
}) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  const panel = await startDemo(page, '/demos/cash-top-up');
  await panel.getByRole('button', {name: 'Get my payment code'}).click();
  await expect(panel).toHaveAttribute('data-screen', 'voucher');
  await expect(panel.getByText(/Payment reference: \d{12}/)).toBeVisible();
  await expect(panel.getByTestId('copy-as-code')).toContainText('CASH_TOP_UP');
  await panel.getByRole('button', {name: 'Play'}).click();
  await expect(panel).toHaveAttribute('data-state', 'finished', {timeout: 30_000});
  await expect(panel).toHaveAttribute('data-order-status', 'PAID');
  const timeline = panel.getByTestId('live-demo-timeline');
  await expect(timeline).toContainText('The sandbox clock moves 60 s');
  await expectVerifies(timeline, 'ORDER.PAID');
  const orderNo = await orderNoIn(timeline);

  expect(errors).toEqual([]);

  // A replay link plays the late visit to its end at once (the same sandbox: this browser's).
  const late = await playReplay(page, '/demos/cash-top-up', 'demo=cash&outcome=late');
  await expect(late).toHaveAttribute('data-order-status', 'CLOSED');
  await expect(late.getByTestId('live-demo-timeline')).toContainText('ORDER_CLOSED');
  await expectVerifies(late.getByTestId('live-demo-timeline'), 'ORDER.CLOSED');

  await page.goto('/docs/sandbox-console');
  await expect(page.getByRole('region', {name: 'Orders', exact: true})).toContainText(orderNo, {timeout: 30_000});
});

test('live demo invoice: a partial transfer then the rest, two VAM.TOP_UP verify, the statement is not ready, axe at 360 px (dark), Reset unsets the notification URL it set, the credit is in the console', async ({
  clean: {page},
}) => {
  test.setTimeout(90_000);
  const errors = consoleErrors(page);
  await page.setViewportSize({width: 360, height: 800});
  const panel = await playReplay(page, '/demos/invoice', 'docusaurus-theme=dark&demo=invoice&outcome=partial-then-rest');
  const timeline = panel.getByTestId('live-demo-timeline');
  const notifications = timeline.locator('li[data-kind="notification"]');
  await expect(notifications).toHaveCount(2);
  for (const item of await notifications.all()) {
    await expect(item).toContainText('VAM.TOP_UP');
    await expect(item.getByRole('list')).toContainText('signature verifies with the provider test key');
    await expect(item.getByRole('list')).not.toContainText('fail');
  }
  await expect(timeline).toContainText('STATEMENT_NOT_READY');
  await expect(timeline).toContainText('Available GBP rose by 1200.00 GBP');
  await expect(panel).toHaveAttribute('data-screen', 'statement');
  await expect(panel.getByText(/^Finished: Invoice INV-DEMO-\S+ paid; the balance shows the credit\.$/)).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa']})).toEqual([]);
  // The run set the default notification URL this fresh sandbox lacked; Reset takes it away again.
  await expect(timeline.locator('li[data-kind="setting"]')).toContainText('Reset sets defaultNotifyUrl to null again');
  await panel.getByRole('button', {name: 'Reset'}).click();
  await expect(panel.getByTestId('live-demo-reset')).toHaveText(/^Reset set defaultNotifyUrl back to null\. The sandbox clock stays/);

  expect(errors).toEqual([]);

  const partial = await playReplay(page, '/demos/invoice', 'demo=invoice&outcome=partial');
  await expect(partial).toContainText('Part-paid: 600.00 GBP still due');
  await expect(partial.getByText(/^Finished: Invoice INV-DEMO-\S+ part-paid, 600\.00 GBP still due;/)).toBeVisible();

  await page.goto('/docs/sandbox-console');
  await expect(page.getByRole('region', {name: 'Ledger entries', exact: true})).toContainText('top-up of vam_', {timeout: 30_000});
});

test('live demo ewallet-desktop: a replay link redirects to the cashier, the phone pays, PAID; ORDER.PAID verifies; ending 51 is declined', async ({
  clean: {page},
}) => {
  const panel = await playReplay(page, '/demos/ewallet', 'demo=ewallet-desktop&outcome=approve');
  await expect(panel).toHaveAttribute('data-order-status', 'PAID');
  const timeline = panel.getByTestId('live-demo-timeline');
  await expect(timeline).toContainText('window.location = cashierUrl');
  await expectVerifies(timeline, 'ORDER.PAID');
  await expectDeclineReplay(page, '/demos/ewallet', 'ewallet-desktop');
});
