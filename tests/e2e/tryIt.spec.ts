/**
 * Try it on the operation pages, against the sandbox in the browser: closed by default and loaded on
 * opening; a journey from Create order through the shopper's payment to a refund and its notifications,
 * each response signed, verified and valid; bad input named field by field; and an unreachable target
 * explained in one sentence.
 */
import path from 'node:path';
import {expect, test} from '@playwright/test';
import {scanApiPages} from '../../plugins/content/openapi-contract/apiPages';
import {loadContract} from '../../plugins/content/openapi-contract/loadContract';
import {localSandboxOrigin} from '../../src/lib/tryIt';
import {createNodeEngine} from '../../src/sandbox/server/loadEngine';
import {createHttpTransport, startSandboxServer} from '../../src/sandbox/server/server';
import {axeViolations} from '../support/axe';
import {repoRoot} from '../support/routeContract';
import {openTryIt, sendAndCheck} from '../support/tryIt';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
/** Every operation page (not the notification pages), with its operation's summary. */
const operationPages = scanApiPages(repoRoot)
  .map((page) => ({...page, location: contract.operations.get(page.operationId)}))
  .filter((page) => page.location?.kind === 'operation')
  .map((page) => ({url: page.url, operationId: page.operationId, summary: page.location?.operation.summary ?? page.operationId}));

test.describe('Try it', () => {
  test('from Create order to a refund in a few clicks: shopper pays, follow-ups prefilled, state marked', async ({page}) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    const panel = await openTryIt(page, '/docs/createorder', 'Create order');
    expect(scripts.some((url) => /try-it/.test(url)), 'the panel came in a chunk of its own').toBe(true);
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PENDING');
    await expect(panel.getByLabel('Canonical string')).toContainText('/v1/orders');
    await expect(panel.getByLabel('curl command')).toContainText('openssl');

    await panel.getByRole('button', {name: 'Pay as the shopper'}).click();
    await expect(panel.getByRole('heading', {name: /Retrieve order detail/})).toBeVisible();
    await expect(panel.getByText('The shopper paid with test card')).toBeVisible();
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PAID');

    await panel.getByRole('button', {name: 'Refund order'}).click();
    await expect(panel.getByRole('heading', {name: /Refund order/})).toBeVisible();
    await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
    await expect(panel.getByRole('list', {name: 'Checks of the response'})).toContainText(/refund is now (PROCESSING|SUCCEEDED)/);
    expect(errors).toEqual([]);
  });

  test('names bad input field by field before sending, and explains an unreachable target', async ({page}) => {
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

    await panel.getByRole('radio', {name: /hosted sandbox/}).check();
    await panel.getByRole('combobox', {name: 'Start from the example'}).selectOption({index: 0});
    await panel.getByRole('button', {name: 'Send signed request'}).click();
    await expect(panel.getByRole('alert')).toContainText('could not reach');
  });

  test('every operation page has a panel whose signed request gets a signed answer that matches the contract', async ({page}) => {
    test.setTimeout(120_000);
    expect(operationPages.length).toBe([...contract.operations.values()].filter((location) => location.kind === 'operation').length);
    for (const {url, summary} of operationPages) {
      const panel = await openTryIt(page, url, summary);
      // The examples name objects this browser's sandbox may not hold: a documented refusal, signed and valid, is a working call too.
      await sendAndCheck(panel, /^HTTP (200 SUCCESS|4\d\d [A-Z_]+)/);
    }
  });

  test('the same panel works against npm run sandbox on its default port', async ({page}) => {
    // The page's Content-Security-Policy allows exactly this origin, so the server must be on it.
    const port = Number(new URL(localSandboxOrigin).port);
    const server = await startSandboxServer({engine: await createNodeEngine({transport: createHttpTransport()}), port});
    try {
      const panel = await openTryIt(page, '/docs/createorder', 'Create order');
      await panel.getByRole('radio', {name: /Your local sandbox/}).check();
      await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
      await panel.getByRole('button', {name: 'Pay as the shopper'}).click();
      await expect(panel.getByText('The shopper paid with test card')).toBeVisible();
      await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
      await expect(panel.getByRole('list', {name: 'States of OrderStatus'}).locator('[aria-current="step"]')).toContainText('PAID');
      // A key pair made in the page and registered with the local server signs just as well.
      await panel.getByRole('radio', {name: /A merchant of my own/}).check();
      await sendAndCheck(panel, /^HTTP 404 ORDER_NOT_FOUND/);
    } finally {
      await server.close();
    }
  });

  for (const mode of ['light', 'dark'] as const) {
    test(`open, with a response on screen: axe clean in ${mode} mode and no sideways scrolling at 360 px`, async ({page}) => {
      await page.setViewportSize({width: 360, height: 800});
      const panel = await openTryIt(page, `/docs/transfer-to-bank/list-countries-and-currencies?docusaurus-theme=${mode}`, 'List countries and currencies');
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      await sendAndCheck(panel, /^HTTP 200 SUCCESS/);
      expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude: ['nav', 'footer', '.theme-doc-toc-desktop', '.theme-doc-markdown > :not([class*="tryIt"])']})).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    });
  }
});
