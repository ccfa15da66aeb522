/**
 * Try it on the operation pages, against the sandbox in the browser: closed by default and loaded on
 * opening; a journey from Create order through the shopper's payment to a refund and its notifications,
 * each response signed, verified and valid; bad input named field by field; and an unreachable target
 * explained in one sentence.
 */
import path from 'node:path';
import {expect} from '@playwright/test';
import {test} from '../support/warmPage';
import {brand} from '../../src/brand';
import {scanApiPages} from '../../src/contract/node/apiPages';
import {loadContract} from '../../src/contract/node/loadContract';
import {localSandboxOrigin} from '../../src/lib/tryIt';
import {axeViolations} from '../support/axe';
import {startLocalSandbox} from '../support/localSandbox';
import {repoRoot} from '../support/routeContract';
import {openTryIt, sendAndCheck} from '../support/tryIt';
import {consoleErrors, requestedScripts} from '../support/pageWatch';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
/** Every operation page (not the notification pages), with its operation's summary. */
const operationPages = scanApiPages(repoRoot)
  .map((page) => ({...page, location: contract.operations.get(page.operationId)}))
  .filter((page) => page.location?.kind === 'operation')
  .map((page) => ({url: page.url, operationId: page.operationId, summary: page.location?.operation.summary ?? page.operationId}));

test.describe('Try it', () => {
  test('from Create order to a refund in a few clicks: shopper pays, follow-ups prefilled, state marked', async ({clean: {page}}) => {
    const errors = consoleErrors(page);
    const scripts = requestedScripts(page);
    const panel = await openTryIt(page, '/docs/createorder', 'Create order');
    expect(
      scripts.some((url) => /try-it/.test(url)),
      'the panel came in a chunk of its own',
    ).toBe(true);
    // The form's numbers agree: the subject and the return URL name the merchantOrderNo the body sends.
    const started = JSON.parse(await panel.getByLabel('Request body (JSON, sent exactly as written)').inputValue()) as Record<
      string,
      string
    >;
    expect(started['merchantOrderNo']).toMatch(/^ORD-\d+$/);
    expect(started['subject']).toBe(`Order ${started['merchantOrderNo']}`);
    expect(started['returnUrl']).toContain(started['merchantOrderNo']);
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PENDING');
    await expect(panel.getByLabel('Canonical string')).toContainText('/v1/orders');
    await expect(panel.getByLabel('curl command')).toContainText('openssl');

    await panel.getByRole('button', {name: 'Pay as the shopper'}).click();
    // The panel retrieves the order by itself and shows its new state, its top still in view.
    await expect(panel.getByRole('heading', {name: /Retrieve order detail/})).toBeVisible();
    await expect(panel.getByText('The shopper paid with test card')).toBeVisible();
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/, 'the retrieve after paying', false);
    await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PAID');
    // Anchored: the panel's box (on a wide screen, the sticky pane that holds it, which scrolls to the answer on
    // its own) stays where the reader is looking, and the new state is on screen.
    const top = await panel.evaluate((element) => (element.closest('[data-api-pane]') ?? element).getBoundingClientRect().top);
    expect(top, 'the panel top stays in view').toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(800 / 2);
    await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toBeInViewport();
    const timeline = panel.getByRole('list', {name: 'Timeline of this panel'});
    await expect(timeline.locator('li')).toHaveCount(3);
    await expect(timeline).toContainText(
      /POST \/v1\/orders → HTTP 200 SUCCESS[\s\S]*Shopper paid with card[\s\S]*GET \/v1\/orders\/[^ ]+ → HTTP 200 SUCCESS/,
    );

    await panel.getByRole('button', {name: 'Refund order'}).click();
    await expect(panel.getByRole('heading', {name: /Refund order/})).toBeVisible();
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    await expect(panel.getByRole('list', {name: 'Checks of the response'})).toContainText(/refund is now (PROCESSING|SUCCEEDED)/);
    expect(errors).toEqual([]);
  });

  test('on a phone, the new state after a shopper action is on screen, below the long form', async ({clean: {page}}) => {
    await page.setViewportSize({width: 390, height: 844});
    const panel = await openTryIt(page, '/docs/createorder', 'Create order');
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    await panel.getByRole('button', {name: 'Pay as the shopper'}).click();
    await expect(panel.getByText('The shopper paid with test card')).toBeVisible();
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/, 'the retrieve after paying', false);
    const current = panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]');
    await expect(current).toContainText('PAID');
    await expect(current).toBeInViewport();
  });

  test('names bad input field by field before sending, and explains an unreachable target', async ({clean: {page}}) => {
    const panel = await openTryIt(page, '/docs/createorder', 'Create order');
    const body = panel.getByLabel('Request body (JSON, sent exactly as written)');
    await body.fill('{"merchantOrderNo": 5');
    await panel.getByRole('button', {name: 'Send signed request'}).click();
    await expect(panel.getByText('The body is not valid JSON')).toBeVisible();
    await expect(body).toHaveAttribute('aria-invalid', 'true');
    await body.fill('{"merchantOrderNo": 5, "amount": {"value": -1, "currency": "USD"}, "scene": "HOSTED_PAYPAGE"}');
    await panel.getByRole('button', {name: 'Send signed request'}).click();
    await expect(panel.locator('[id$="-body-error"]')).toContainText('merchantOrderNo');
    await expect(panel.locator('[id$="-body-error"]')).toContainText('amount');

    // The test build's hosted target is the local sandbox's origin (SANDBOX_HOSTED_ORIGIN in build:test, for
    // hostedSandbox.spec.ts), which another spec may be serving: this test makes it unreachable for its own page.
    for (const origin of [localSandboxOrigin, `https://${brand.hosts.sandboxApi}`])
      await page.route(`${origin}/**`, (route) => route.abort('connectionrefused'));
    await panel.getByRole('radio', {name: /hosted sandbox/}).check();
    await panel.getByRole('combobox', {name: 'Start from the example'}).selectOption({index: 0});
    await panel.getByRole('button', {name: 'Send signed request'}).click();
    await expect(panel.getByRole('alert')).toContainText('could not reach');
  });

  /**
   * Every operation page, in an order a merchant would call them, so each call finds the object it needs in
   * this browser's sandbox (the panel fills path parameters from the newest objects): every one answers 200,
   * signed, verified and valid. Three journeys, each in its own browser (its own sandbox), run side by side.
   * The first page of a journey is loaded; the others are reached by their sidebar link, as a reader goes
   * from page to page (one page load per journey: loads are what the suite's time goes to).
   */
  const journeys: Record<string, readonly {operationId: string; scene?: string}[]> = {
    'orders, refunds and events': [
      {operationId: 'createOrder'},
      {operationId: 'getCashierUrl'},
      {operationId: 'adjustOrderExpiryTime'},
      {operationId: 'retrieveOrderDetail'},
      {operationId: 'cancelOrder'},
      {operationId: 'revokeOrder'},
      {operationId: 'createOrder', scene: 'QR_PAY'},
      {operationId: 'retrieveOrderPayer'},
      {operationId: 'refundOrder'},
      {operationId: 'queryRefund'},
      {operationId: 'queryRefundPage'},
      {operationId: 'queryOrderPage'},
      {operationId: 'listEvents'},
      {operationId: 'redeliverEvent'},
    ],
    payouts: [
      {operationId: 'transfer'},
      {operationId: 'queryTransfer'},
      {operationId: 'listTransfers'},
      {operationId: 'listCountriesAndCurrencies'},
      {operationId: 'getIbanHolderName'},
      {operationId: 'calculateRate'},
      {operationId: 'transferToBank'},
      {operationId: 'queryTransferToBank'},
      {operationId: 'listBankTransfers'},
      {operationId: 'verifyCardPayoutEligibility'},
      {operationId: 'transferToBankCard'},
      {operationId: 'queryBankCardTransfer'},
      {operationId: 'listCardPayouts'},
    ],
    'balance, statements, agreements and wallet auth': [
      {operationId: 'getBalance'},
      {operationId: 'downloadStatement'},
      {operationId: 'createAgreement'},
      {operationId: 'queryAgreement'},
      {operationId: 'cancelAgreement'},
      {operationId: 'exchangeWalletAuthCode'},
    ],
  };

  test('the journeys cover every operation page', () => {
    const covered = new Set(Object.values(journeys).flatMap((steps) => steps.map((step) => step.operationId)));
    expect([...covered].sort()).toEqual(operationPages.map((page) => page.operationId).sort());
  });

  for (const [name, steps] of Object.entries(journeys)) {
    test(`every operation page answers 200, signed and valid: ${name}`, async ({clean: {page}}) => {
      test.setTimeout(120_000);
      for (const [index, step] of steps.entries()) {
        const target = operationPages.find((candidate) => candidate.operationId === step.operationId);
        if (!target) throw new Error(`no page for ${step.operationId}`);
        const panel = await openTryIt(page, target.url, target.summary, index === 0 ? 'load' : 'sidebar');
        if (step.scene) await panel.getByRole('combobox', {name: /^scene/}).selectOption(step.scene);
        await sendAndCheck(panel, /^HTTP 200 SUCCESS/, step.operationId);
      }
    });
  }

  test('the same panel works against npm run sandbox on its default port', async ({clean: {page}}) => {
    // The page's Content-Security-Policy allows exactly this origin, so the server must be on it.
    // Another spec may hold it for a while: the helper waits for it.
    const server = await startLocalSandbox();
    try {
      const panel = await openTryIt(page, '/docs/createorder', 'Create order');
      await panel.getByRole('radio', {name: /Your local sandbox/}).check();
      await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
      await panel.getByRole('button', {name: 'Pay as the shopper'}).click();
      await expect(panel.getByText('The shopper paid with test card')).toBeVisible();
      await sendAndCheck(panel, /^HTTP 200 SUCCESS/, 'the retrieve after paying', false);
      await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PAID');
      // A key pair made in the page and registered with the local server signs just as well.
      await panel.getByRole('radio', {name: /A merchant of my own/}).check();
      await sendAndCheck(panel, /^HTTP 404 ORDER_NOT_FOUND/);
    } finally {
      await server.close();
    }
  });

  test('open, with the body form, a response and its state diagram on screen: axe clean in light mode, then in dark mode (the system switching), and no sideways scrolling at 360 px', async ({
    clean: {page},
  }) => {
    await page.setViewportSize({width: 360, height: 800});
    // The theme follows the system's colour scheme until the reader picks one (respectPrefersColorScheme):
    // one load serves both modes.
    await page.emulateMedia({colorScheme: 'light'});
    const panel = await openTryIt(page, '/docs/createorder', 'Create order');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    // The form writes the JSON that is sent, and a bad value is named next to its input.
    await panel.getByLabel('amount.value (required)').fill('0');
    await expect(panel.getByLabel('Request body (JSON, sent exactly as written)')).toHaveValue(/"value": 0,/);
    await panel.getByRole('button', {name: 'Send signed request'}).click();
    await expect(panel.getByLabel('amount.value (required)')).toHaveAttribute('aria-invalid', 'true');
    await expect(panel.getByText('/amount/value must be >= 1').first()).toBeVisible();
    await panel.getByLabel('amount.value (required)').fill('1250');
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    const diagram = panel.getByRole('img', {name: /State diagram of OrderStatus, with PENDING marked/});
    for (const mode of ['light', 'dark'] as const) {
      if (mode === 'dark') {
        await page.emulateMedia({colorScheme: 'dark'});
        await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
        // The dark drawing is in, with the current state marked in its dark colours (StateDiagram's marks).
        await expect(diagram.locator('[style*="stroke:#ffd54f"]')).toHaveCount(1);
      }
      await expect(diagram).toBeVisible();
      expect(
        await axeViolations(page, {
          tags: ['wcag2a', 'wcag2aa', 'wcag21aa'],
          exclude: [
            'nav',
            'footer',
            '.theme-doc-toc-desktop',
            '.theme-doc-markdown > :not([data-api-reference])',
            '[data-api-reference] > :not([data-panel="try-it"])',
          ],
        }),
        `axe in ${mode} mode`,
      ).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `no sideways scrolling in ${mode} mode`).toBeLessThanOrEqual(0);
    }
  });
});
