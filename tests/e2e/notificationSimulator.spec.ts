/**
 * The notification simulator on every notification page, against the sandbox in the browser: closed by
 * default and loaded on opening; every scenario produces a notification that this test verifies on its own
 * (node:crypto over the canonical string, with the published provider key), not by the page's verdict; bad
 * JSON named next to the field; delivery to an endpoint through the local sandbox, with its log; axe and
 * no sideways scrolling at 360 px.
 */
import {createVerify} from 'node:crypto';
import {readFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import path from 'node:path';
import {expect, type Locator, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {scanApiPages} from '../../src/contract/node/apiPages';
import {loadContract} from '../../src/contract/node/loadContract';
import {canonicalString, parseSignatureHeader} from '../../src/lib/signing';
import {axeViolations} from '../support/axe';
import {startLocalSandbox} from '../support/localSandbox';
import {repoRoot} from '../support/routeContract';
import {requestedScripts} from '../support/pageWatch';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const providerPublicKeyPem = readFileSync(path.join(repoRoot, 'api', 'test-vectors', 'provider-test-public.pem'), 'utf8');
/** Every notification page, with its webhook's summary and scenarios (the named examples of its body). */
const notificationPages = scanApiPages(repoRoot)
  .map((page) => ({...page, location: contract.operations.get(page.operationId)}))
  .filter((page) => page.location?.kind === 'webhook')
  .map((page) => ({
    url: page.url,
    operationId: page.operationId,
    summary: page.location?.operation.summary ?? page.operationId,
    scenarios: Object.entries(page.location?.operation.requestBody?.content?.['application/json']?.examples ?? {}).map(
      ([name, example]) => ({name, summary: example.summary ?? name, eventType: String((example.value as {eventType?: string}).eventType)}),
    ),
  }));

async function openSimulator(page: Page, url: string): Promise<Locator> {
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
  const opener = page.locator('button[aria-controls][aria-expanded]').filter({hasText: /^(Simulate an? .*|Close the simulator)$/});
  await expect(opener).toHaveAttribute('aria-expanded', 'false');
  // A click right after hydration was seen lost under the full suite's load (see tryIt.spec.ts): click again, at most three times.
  await expect(async () => {
    if ((await opener.getAttribute('aria-expanded')) !== 'true') await opener.click();
    await expect(opener).toHaveAttribute('aria-expanded', 'true', {timeout: 2000});
  }).toPass({intervals: [0, 500], timeout: 8000});
  const panel = page.getByRole('region', {name: 'Notification simulator'});
  await expect(panel).toBeVisible();
  return panel;
}

async function produce(panel: Locator): Promise<void> {
  await panel.getByRole('button', {name: 'Produce signed notification'}).click();
  const checks = panel.getByRole('list', {name: 'Checks of the notification'});
  await expect(checks).toContainText('The signature verifies with the published provider key');
  await expect(checks).toContainText('The body matches the contract.');
}

/** A raw HTTP request's parts: the request target, the headers by lower-case name, the body. */
function parseRaw(text: string): {target: string; headers: Record<string, string>; body: string} {
  const split = text.indexOf('\n\n');
  const [requestLine = '', ...headerLines] = text.slice(0, split).split('\n');
  const headers = Object.fromEntries(
    headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return {target: requestLine.split(' ')[1] ?? '', headers, body: text.slice(split + 2)};
}

/** Verifies a notification on its own, as a merchant's endpoint would: node:crypto, the published provider key. */
function verifies(request: {target: string; headers: Record<string, string | string[] | undefined>; body: string}): boolean {
  const header = (name: string) => String(request.headers[name] ?? '');
  const canonical = canonicalString({
    method: 'POST',
    pathWithQuery: request.target,
    clientId: header('x-client-id'),
    timestamp: header('x-timestamp'),
    nonce: header('x-nonce'),
    body: request.body,
  });
  return createVerify('RSA-SHA256')
    .update(canonical, 'utf8')
    .verify(providerPublicKeyPem, parseSignatureHeader(header('x-signature')).signature, 'base64');
}

test.describe('Notification simulator', () => {
  test('every notification page has one: closed until opened, then a signed notification that verifies', async ({clean: {page}}) => {
    test.setTimeout(120_000);
    expect(notificationPages.length).toBe(8);
    const scripts = requestedScripts(page);
    for (const {url, scenarios} of notificationPages) {
      const panel = await openSimulator(page, url);
      await produce(panel);
      await expect(panel.getByLabel('Raw HTTP request')).toContainText(`"eventType":"${scenarios[0]?.eventType}"`);
    }
    expect(
      scripts.some((url) => /notification-simulator/.test(url)),
      'the panel came in a chunk of its own',
    ).toBe(true);
  });

  test('on one page, every scenario verifies independently of the page; bad JSON is named next to the field; no local sandbox is one sentence', async ({
    clean: {page},
  }) => {
    const payment = notificationPages.find((candidate) => candidate.operationId === 'paymentResultNotification');
    expect(payment?.scenarios.length).toBeGreaterThan(1);
    const panel = await openSimulator(page, payment?.url ?? '');
    const data = panel.getByLabel(/data \(JSON, prefilled from the example\)/);
    await data.fill('{"merchantOrderNo": ');
    await panel.getByRole('button', {name: 'Produce signed notification'}).click();
    await expect(data).toHaveAttribute('aria-invalid', 'true');
    const error = panel.locator('[id$="-data-error"]');
    await expect(error).toContainText('The data is not valid JSON');
    expect(await data.getAttribute('aria-describedby')).toBe(await error.getAttribute('id'));

    const scenario = panel.getByRole('combobox', {name: /Scenario/});
    for (const {summary, eventType} of payment?.scenarios ?? []) {
      await scenario.selectOption({label: `${summary} (${eventType})`});
      await produce(panel);
      const raw = parseRaw((await panel.getByLabel('Raw HTTP request').textContent()) ?? '');
      expect(JSON.parse(raw.body)).toMatchObject({eventType});
      expect(verifies(raw), `${eventType}: the shown headers and body verify with provider-test-public.pem`).toBe(true);
      expect(verifies({...raw, body: raw.body.replace(eventType, 'ORDER.TAMPERED')}), 'and a changed body does not').toBe(false);
    }
    await expect(panel.getByLabel('curl command to deliver')).toContainText('/_sandbox/notifications/simulate');

    await page.route('http://127.0.0.1:4010/**', (route) => route.abort());
    await panel.getByRole('button', {name: 'Deliver through the local sandbox'}).click();
    await expect(panel.getByRole('alert')).toHaveText(
      /^Nothing answered at http:\/\/127\.0\.0\.1:4010: start the local sandbox with node veloxa-sandbox\.mjs --port 4010 \(download it from \/downloads\/veloxa-sandbox\.mjs/,
    );
  });

  test('delivers through the local sandbox to an endpoint of the reader: the POST verifies and the log shows it acknowledged', async ({
    clean: {page},
  }) => {
    const received: {target: string; headers: http.IncomingHttpHeaders; body: string}[] = [];
    const endpoint = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({target: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8')});
        response.writeHead(200, {'Content-Type': 'application/json'}).end('{"code":"SUCCESS"}');
      });
    });
    await new Promise<void>((resolve) => endpoint.listen(0, '127.0.0.1', resolve));
    const server = await startLocalSandbox();
    try {
      const notifyUrl = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hooks/veloxa?shop=7`;
      const refund = notificationPages.find((candidate) => candidate.operationId === 'refundResultNotification');
      const panel = await openSimulator(page, refund?.url ?? '');
      await panel.getByLabel('Notify URL (your endpoint)').fill(notifyUrl);
      await produce(panel);
      await expect(panel.getByLabel('Raw HTTP request')).toContainText('POST /hooks/veloxa?shop=7 HTTP/1.1');
      await expect(panel.getByLabel('curl command to deliver')).toContainText(notifyUrl);
      await panel.getByRole('button', {name: 'Deliver through the local sandbox'}).click();
      const log = panel.getByRole('list', {name: 'Delivery log'});
      await expect(log).toContainText(`POST ${notifyUrl}: HTTP 200, acknowledged`);
      expect(received).toHaveLength(1);
      const [delivery] = received;
      expect(delivery?.target).toBe('/hooks/veloxa?shop=7');
      expect(JSON.parse(delivery?.body ?? '{}')).toMatchObject({eventType: refund?.scenarios[0]?.eventType});
      expect(delivery && verifies(delivery), 'the POST the endpoint got verifies with provider-test-public.pem').toBe(true);
    } finally {
      await server.close();
      await new Promise<void>((resolve) => endpoint.close(() => resolve()));
    }
  });

  for (const mode of ['light', 'dark'] as const) {
    test(`open, with a notification on screen: axe clean in ${mode} mode and no sideways scrolling at 360 px`, async ({clean: {page}}) => {
      await page.setViewportSize({width: 360, height: 800});
      const bank = notificationPages.find((candidate) => candidate.operationId === 'transferToBankNotification');
      const panel = await openSimulator(page, `${bank?.url ?? ''}?docusaurus-theme=${mode}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      await produce(panel);
      expect(
        await axeViolations(page, {
          tags: ['wcag2a', 'wcag2aa', 'wcag21aa'],
          exclude: [
            'nav',
            'footer',
            '.theme-doc-toc-desktop',
            '.theme-doc-markdown > :not([data-api-reference])',
            '[data-api-reference] > :not([data-panel="notification-simulator"])',
          ],
        }),
      ).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
    });
  }
});
