import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, type Locator} from '@playwright/test';
import {test} from '../support/warmPage';
import {parse} from 'yaml';
import {listOperations, type OpenApiDocument} from '../../src/contract/openapiTypes';
import {brand} from '../../src/brand';
import {repoRoot} from '../support/routeContract';
import {testVectorDir, testVectorFiles} from '../../plugins/content/openapi-contract';
import {consoleErrors} from '../support/pageWatch';
import {axeViolations} from '../support/axe';
import {scanApiPages} from '../../src/contract/node/apiPages';
import {loadContract} from '../../src/contract/node/loadContract';
import {switchToDarkMode} from '../support/colourMode';
import {tablesWiderThanTheirBox} from '../support/apiPageLayout';
import {renderSamples, sampleInputFor} from '../../src/lib/samples';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Runs in the page: the modules that more than one loaded chunk carries, as id and source length. Every chunk's
 * modules stay in the bundler's chunk array (webpackChunk<name>), the runtime's own push included.
 */
function loadedTwice(): {id: string; length: number}[] {
  const globalName = Object.keys(window).find((name) => name.startsWith('webpackChunk'));
  const chunks = ((window as unknown as Record<string, unknown>)[globalName ?? ''] ?? []) as [unknown, Record<string, () => void>][];
  const seen = new Map<string, {count: number; length: number}>();
  for (const [, modules] of chunks) {
    for (const [id, factory] of Object.entries(modules)) {
      seen.set(id, {count: (seen.get(id)?.count ?? 0) + 1, length: String(factory).length});
    }
  }
  if (seen.size === 0) throw new Error('no chunk modules found: has the chunk array been renamed?');
  return [...seen].filter(([, module]) => module.count > 1).map(([id, module]) => ({id, length: module.length}));
}

test.describe('API reference pages', () => {
  test('the static HTML of an API page already holds every section, field and code (no JavaScript needed)', async ({request}) => {
    const html = await (await request.get('/docs/createorder')).text();
    // The HTML is minified: attribute quotes are optional.
    const attribute = (name: string, value: string) => new RegExp(`${name}="?${value.replace(/\./g, '\\.')}[" >]`);
    const markers: Array<[string, RegExp]> = [
      ['operation', attribute('data-operation-id', 'createOrder')],
      ['request field', attribute('data-field', 'merchantOrderNo')],
      ['nested field', attribute('data-field', 'amount.value')],
      ['scene variant field', attribute('data-field', 'payerPaymentCode')],
      ['response field', attribute('data-field', 'data.nextAction')],
      ['own response code', attribute('data-result-code', 'IDEMPOTENCY_CONFLICT')],
      ['common response code', attribute('data-result-code', 'INVALID_SIGNATURE')],
      ['code samples', attribute('id', 'api-code-samples')],
      ['state machine', attribute('data-state-machine', 'OrderStatus')],
      ['sandbox host', new RegExp(`https://${escapeRegExp(brand.hosts.sandboxApi)}/v1/orders`)],
      ['production host', new RegExp(`https://${escapeRegExp(brand.hosts.productionApi)}/v1/orders`)],
    ];
    const missing = markers.filter(([, pattern]) => !pattern.test(html)).map(([name]) => name);
    expect(missing).toEqual([]);
    // Variant descriptions carry their own <p>: wrapped in a <p> or <span>, the parser would move them out and leave this empty.
    expect(html).toMatch(/<div class="?variantDescription_\w+"?><p>/);
    expect(html).not.toMatch(/class="?variantDescription_\w+"?><\/(span|div)>/);
  });

  test('the first-load scripts of an API page carry the sample of its first language, not those of the others nor their generators', async ({
    request,
  }) => {
    const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
    // A line the bundle would hold as written: no quote, backslash, backtick or dollar, which a string literal escapes or splits.
    const marker = (code: string, elsewhere: string) =>
      code
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.length >= 25 && !/["'`\\$]/.test(line) && !elsewhere.includes(line))
        .sort((a, b) => b.length - a.length)[0];
    const scriptText = new Map<string, string>();
    const firstLoad = async (url: string) => {
      const html = await (await request.get(url)).text();
      const listed = JSON.parse(
        html.match(/<script type="?application\/json"? id="?page-scripts"?>([^<]+)<\/script>/)?.[1] ?? '[]',
      ) as string[];
      for (const script of listed) if (!scriptText.has(script)) scriptText.set(script, await (await request.get(script)).text());
      return listed.map((script) => scriptText.get(script) ?? '').join('\n');
    };
    const pages = scanApiPages(repoRoot);
    expect(pages.length).toBeGreaterThan(20);
    const carried: string[] = [];
    for (const apiPage of pages) {
      const location = contract.operations.get(apiPage.operationId);
      if (!location) throw new Error(`no operation ${apiPage.operationId}`);
      const [first, ...others] = renderSamples(sampleInputFor(contract.document, location));
      if (!first) throw new Error(`no samples for ${apiPage.operationId}`);
      const scripts = await firstLoad(apiPage.url);
      // The check finds a sample that is there: the first language's code is inline, for hydration.
      const inline = marker(first.code, '');
      if (inline) expect(scripts, `${apiPage.url}: ${first.label} sample`).toContain(inline);
      for (const sample of others) {
        const line = marker(sample.code, first.code);
        if (line && scripts.includes(line)) carried.push(`${apiPage.url}: ${sample.label} ("${line}")`);
      }
    }
    expect(carried).toEqual([]);
  });

  test('notification pages show payload, acknowledgement and retry schedule', async ({warm: {page}}) => {
    await page.goto('/docs/payment/payment-result-notification');
    await expect(page.locator('h2#api-request')).toContainText('Notification');
    await expect(page.locator('h2#api-response')).toContainText('Acknowledgement');
    await expect(page.locator('h2#api-delivery')).toContainText('Delivery and retries');
    const contract = parse(readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8')) as OpenApiDocument;
    const retries = contract['x-notification-delivery']?.retrySchedule ?? [];
    expect(retries.length).toBeGreaterThan(0);
    await expect(page.locator('[data-section="delivery"] li')).toHaveCount(retries.length);
    await expect(page.locator('code[data-field="notificationId"]')).toBeVisible();
  });

  test('the code-sample language choice follows the reader across API pages and reloads', async ({page}) => {
    await page.goto('/docs/createorder');
    // Scripts start after the first paint; a tab clicked before hydration has no handler yet.
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    // Every language but the first arrives as a chunk of its own when shown: held back a moment here, so the
    // sample is seen while it loads, at the height it will have.
    await page.route(/\/assets\/js\/[^/]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const height = (locator: Locator) => locator.evaluate((element) => element.getBoundingClientRect().height);
    // The page's samples; the pane beside them has the same tab group, which follows the choice.
    const python = page.locator('[data-api-main]').getByRole('tab', {name: 'Python'});
    await python.click();
    await expect(python).toHaveAttribute('aria-selected', 'true');
    // Both the tabs and the pane wait for the one module, each at its final height.
    const samples = ['[data-api-main]', '[data-api-pane]'].map((where) => page.locator(`${where} [data-sample="python"]`));
    for (const sample of samples) await expect(sample).toHaveAttribute('aria-busy', 'true');
    const loading = await Promise.all(samples.map(height));
    for (const sample of samples) {
      await expect(sample.locator('code').filter({hasText: 'PKCS1v15'}).first()).toBeVisible();
      await expect(sample).not.toHaveAttribute('aria-busy');
    }
    const loaded = await Promise.all(samples.map(height));
    expect(
      loaded.map((value, index) => Math.abs(value - (loading[index] ?? NaN)) <= 1),
      `heights loading ${loading.join(', ')}, loaded ${loaded.join(', ')}`,
    ).toEqual([true, true]);
    await expect(page.locator('[data-api-pane]').getByRole('tab', {name: 'Python'})).toHaveAttribute('aria-selected', 'true');

    await page.goto('/docs/refund');
    await expect(page.locator('[data-api-main]').getByRole('tab', {name: 'Python'})).toHaveAttribute('aria-selected', 'true');
    // A reload with Python stored: the pane, in view at 1280 px, does not move when Python's chunk arrives.
    await page.addInitScript(() => {
      const shifts: number[] = [];
      (window as Window & {paneShifts?: number[]}).paneShifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as Array<PerformanceEntry & {value: number; sources?: Array<{node?: Node | null}>}>) {
          if (entry.sources?.some((source) => source.node instanceof Element && source.node.closest('[data-api-pane]')))
            shifts.push(entry.value);
        }
      }).observe({type: 'layout-shift', buffered: true});
    });
    await page.reload();
    await expect(page.locator('[data-api-main]').getByRole('tab', {name: 'Python'})).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('[data-api-pane] [data-sample="python"]:not([aria-busy]) code').first()).toContainText('PKCS1v15');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => (window as Window & {paneShifts?: number[]}).paneShifts)).toEqual([]);
  });

  test('reference tables work after hydration and render on client-side navigation', async ({clean: {page}}) => {
    const errors = consoleErrors(page);
    await page.goto('/docs/createorder');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    // Issue 31: the page's scripts carried Admonition and the browser highlighter twice (2.2 KB Brotli), then Button,
    // TableScroller and BreakAfter (about 1.4 KB of source), which plugins/performance/shared-chunks now loads once.
    const twice = await page.evaluate(loadedTwice);
    expect(
      twice.reduce((sum, module) => sum + module.length, 0),
      JSON.stringify(twice),
    ).toBeLessThan(500);
    const sandboxNote = page.locator('article .theme-admonition-info', {hasText: 'Ready to run in the sandbox'});
    await expect(sandboxNote).toBeVisible();
    const fields = page.locator('[data-api-main] code[data-field="amount.value"]').first();
    // Nested fields start closed; their disclosure works without JavaScript.
    await expect(fields).toBeHidden();
    await page.locator('details:not([data-fold]):has(code[data-field="amount.value"]) > summary').first().click();
    await expect(fields).toBeVisible();
    // Client-side navigation: the tables are rendered by React, with no server markup.
    await page.evaluate(() => {
      (window as Window & {samePage?: boolean}).samePage = true;
    });
    await page.locator('footer a[href="/docs/refund"]').click();
    await expect(page).toHaveURL(/\/docs\/refund$/);
    expect(await page.evaluate(() => (window as Window & {samePage?: boolean}).samePage)).toBe(true);
    await expect(page.locator('[data-api-main] code[data-field="merchantRefundNo"]').first()).toBeVisible();
    await expect(sandboxNote).toBeVisible();
    // The next API page's chunk brings its own content, not a second copy of the reference's components (about 26 KB
    // of script before plugins/performance/shared-chunks). A few small modules that other sets of pages share too (the
    // response-code table, the diagram figure, contract text: about 4.4 KB) stay copied: each set's share is under the
    // bundler's minimum chunk size, and a chunk of its own would add a request to every first load that needs it.
    const twiceAfterMoving = await page.evaluate(loadedTwice);
    expect(
      twiceAfterMoving.reduce((sum, module) => sum + module.length, 0),
      JSON.stringify(twiceAfterMoving),
    ).toBeLessThan(6000);
    expect(errors).toEqual([]);
  });

  test('code arrives highlighted in both colour modes without Prism; a tab opened later loads it', async ({clean: {page}}) => {
    const prismRequests: string[] = [];
    page.on('request', (request) => {
      if (/\/assets\/js\/prism[\w.-]*\.js$/.test(request.url())) prismRequests.push(request.url());
    });
    await page.goto('/docs/createorder');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const sample = page.locator('[data-api-main] [role="tabpanel"]:not([hidden]) pre').last();
    const stringToken = sample.locator('.token.string').first();
    await expect(stringToken).toBeVisible();
    const lightColour = await stringToken.evaluate((element) => getComputedStyle(element).color);
    await switchToDarkMode(page);
    expect(await stringToken.evaluate((element) => getComputedStyle(element).color)).not.toBe(lightColour);
    expect(prismRequests, 'hydration needs no Prism').toEqual([]);

    // A language tab first rendered in the browser is highlighted once Prism's chunk arrives.
    await page.locator('[data-api-main]').getByRole('tab', {name: 'Java'}).click();
    await expect(page.locator('[data-api-main] [role="tabpanel"]:not([hidden]) pre .token.keyword').first()).toBeVisible();
    expect(prismRequests.length).toBeGreaterThan(0);
  });

  test('when React renders the page afresh instead of hydrating it, code blocks show their code', async ({clean: {page}}) => {
    // A page whose server markup differs from what the browser renders (here the navbar title) makes React start over
    // with a client render. The code blocks' kept server markup (an empty inner HTML that hydration does not apply)
    // would then empty every block; they are rendered as in the browser instead, plain first, highlighted once Prism is here.
    const errors = consoleErrors(page);
    await page.route('**/docs/createorder', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace(`>${brand.name}</b>`, `>${brand.name} (changed)</b>`);
      expect(html).toContain('(changed)');
      await route.fulfill({status: 200, contentType: 'text/html; charset=utf-8', body: html});
    });
    await page.goto('/docs/createorder');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await expect.poll(() => errors.join('\n'), 'React reported the mismatch and rendered afresh').toMatch(/onRecoverableError/);
    const sample = page.locator('[data-api-main] [role="tabpanel"]:not([hidden]) pre').last();
    await expect(sample).toContainText('openssl');
    await expect(sample.locator('.token.string').first()).toBeVisible();
  });

  test('state machines are drawn for both colour modes', async ({clean: {page}}) => {
    // The states start folded: a link to their heading opens them.
    await page.goto('/docs/createorder#api-states-orderstatus');
    const diagram = page.locator('figure[data-diagram]').filter({has: page.locator('img[alt*="PARTIALLY_REFUNDED"]')});
    const shown = diagram.locator('img:visible');
    await expect(shown).toHaveCount(1);
    const lightSrc = await shown.getAttribute('src');
    await shown.scrollIntoViewIfNeeded();
    await expect.poll(() => shown.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    await switchToDarkMode(page);
    await expect(shown).toHaveCount(1);
    expect(await shown.getAttribute('src')).not.toBe(lightSrc);
    // Lazy images load on entering the viewport; blocks above may have settled to their real height meanwhile.
    await shown.scrollIntoViewIfNeeded();
    await expect.poll(() => shown.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    // The text version carries the same states for readers who cannot see the drawing.
    await diagram.getByText('Diagram as text').click();
    await expect(diagram.locator('code')).toContainText('PARTIALLY_REFUNDED');
  });
});

test.describe('response code catalogue', () => {
  test('lists every code and filters as the reader types', async ({warm: {page}}) => {
    await page.goto('/docs/response-code');
    const rows = page.locator('tbody tr[data-result-code]');
    const total = await rows.count();
    expect(total).toBeGreaterThan(25);
    // It uses the page's full width and fits it at 1280 px: no column is cut off behind a sideways scroll.
    expect(page.viewportSize()?.width).toBe(1280);
    const scroller = page.getByRole('region', {name: 'Response code catalogue'});
    expect(
      await scroller.evaluate((element) => element.scrollWidth - element.clientWidth),
      'sideways overflow at 1280 px',
    ).toBeLessThanOrEqual(0);
    const filter = page.getByLabel('Filter codes');
    await filter.fill('refund');
    await expect(page.locator('tr[data-result-code="REFUND_AMOUNT_EXCEEDED"]')).toBeVisible();
    await expect(page.locator('tr[data-result-code="IBAN_INVALID"]')).toHaveCount(0);
    expect(await rows.count()).toBeLessThan(total);

    await filter.fill('429');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-result-code', 'RATE_LIMITED');

    await filter.fill('no such thing');
    await expect(rows).toHaveCount(0);
    await expect(page.getByText('No code matches')).toBeVisible();
  });

  test('shows the backtick spans of code texts as code, on the catalogue and on an API page', async ({warm: {page}}) => {
    // On the API page the response codes start folded: a link to their heading opens them.
    for (const url of ['/docs/response-code', '/docs/createorder#api-response-codes']) {
      await page.goto(url);
      const row = page.locator('tr[data-result-code="SCENE_PARAMETERS_MISSING"]');
      await expect(row.locator('code', {hasText: 'payerPaymentCode'})).toBeVisible();
      await expect(page.locator('tr[data-result-code]', {hasText: '`'})).toHaveCount(0);
    }
  });

  test('links each code to the pages of the operations that return it', async ({warm: {page}}) => {
    await page.goto('/docs/response-code');
    await page.locator('tr[data-result-code="QUOTE_EXPIRED"]').getByRole('link', {name: 'Transfer to bank'}).click();
    await expect(page).toHaveURL(/\/docs\/transfer-to-bank\/transfer-to-bank$/);
  });
});

test.describe('published contract', () => {
  test('openapi.yaml, openapi.json and the Postman collection are served, and hold what the contract holds', async ({request}) => {
    const contract = parse(readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8')) as OpenApiDocument;
    const operations = listOperations(contract);
    const yaml = await request.get('/openapi.yaml');
    expect(yaml.status()).toBe(200);
    expect(await yaml.text()).toContain('openapi: 3.1.0');
    const json = (await (await request.get('/openapi.json')).json()) as OpenApiDocument;
    expect(json).toEqual(contract);
    // A Postman request for every operation (notifications are received, not sent), named after its summary,
    // in journey order with the local sandbox's control steps between them (tests/unit/postman.test.ts).
    const postman = (await (await request.get('/veloxa-pay.postman_collection.json')).json()) as {
      item: Array<{item: Array<{name: string; request: {url: {path: string[]}}}>}>;
    };
    const requests = postman.item.flatMap((folder) => folder.item);
    const requestNames = requests.map((item) => item.name);
    const sentOperations = operations.filter((location) => location.kind === 'operation');
    for (const location of sentOperations) expect(requestNames).toContain(location.operation.summary ?? location.operationId);
    expect(requests.filter((item) => item.request.url.path[0] === 'v1').length).toBeGreaterThanOrEqual(sentOperations.length);
    for (const item of requests.filter((entry) => entry.request.url.path[0] !== 'v1')) expect(item.name).toMatch(/^Sandbox: /);
    expect(operations.filter((location) => location.kind === 'webhook').length).toBeGreaterThan(0);
  });

  test('the signing test vector and its keys are served as committed, and every link to them resolves', async ({request}) => {
    const vectorDir = path.join(repoRoot, 'api', testVectorDir);
    for (const file of testVectorFiles) {
      const response = await request.get(`/${testVectorDir}/${file}`);
      expect(response.status(), file).toBe(200);
      expect((await response.body()).equals(readFileSync(path.join(vectorDir, file))), `${file} as committed`).toBe(true);
    }
    // The contract names the vector relative to itself; resolved against the published /openapi.yaml.
    const contract = parse(readFileSync(path.join(repoRoot, 'api', 'openapi.yaml'), 'utf8')) as {'x-signature': {testVector: string}};
    const vectorUrl = new URL(contract['x-signature'].testVector, 'http://portal.test/openapi.yaml').pathname;
    expect(vectorUrl).toBe(`/${testVectorDir}/signing.json`);
    // The guide and the test accounts page link the files a reader needs to reproduce the vector.
    const linked = new Set<string>();
    for (const route of ['/docs/integration-guide', '/docs/general/test-accounts']) {
      const html = await (await request.get(route)).text();
      for (const match of html.matchAll(/href="?(\/test-vectors\/[^" >]+)/g)) linked.add(match[1] ?? '');
    }
    expect([...linked].sort()).toEqual(testVectorFiles.map((file) => `/${testVectorDir}/${file}`).sort());
    for (const href of linked) expect((await request.get(href)).status(), href).toBe(200);
  });

  test('the statement columns page renders the column data', async ({warm: {page}}) => {
    await page.goto('/docs/reconciliation/statement-parameters');
    await expect(page.locator('tr[data-column="net_amount"]')).toBeVisible();
  });

  test('the test accounts page renders the enabled currencies and the fee rules from api/sandbox.yaml (issue 29, I-12, I-13)', async ({
    page,
  }) => {
    const sandbox = parse(readFileSync(path.join(repoRoot, 'api', 'sandbox.yaml'), 'utf8')) as {
      currencies: {payments: string[]; payouts: string[]};
      pricing: {paymentFeeBasisPoints: number; payoutFees: {WALLET: Record<string, number>}};
    };
    await page.goto('/docs/general/test-accounts');
    const currencies = page.locator('table', {has: page.locator('caption', {hasText: 'Currencies of every sandbox merchant'})});
    await expect(currencies.locator('tbody th')).toHaveText(sandbox.currencies.payments);
    await expect(currencies.locator('tbody tr', {hasText: 'JPY'})).toContainText('None: whole units');
    const fees = page.locator('table', {has: page.locator('caption', {hasText: "Fee on a payment, in the order's currency"})});
    await expect(fees).toContainText(`${sandbox.pricing.paymentFeeBasisPoints} basis points`);
    const payouts = page.locator('table', {has: page.locator('caption', {hasText: 'Flat fee per payout'})});
    await expect(payouts.locator('thead th')).toHaveText(['Payout', ...sandbox.currencies.payouts]);
  });
});

test.describe('API page layout', () => {
  // Every API page's endpoint block and its button in the first viewport: routes.spec.ts, in the load each page has there.
  test('on a wide screen the example pane stays in view beside the text, and becomes the open Try it panel', async ({clean: {page}}) => {
    await page.setViewportSize({width: 1280, height: 800});
    await page.goto('/docs/createorder');
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    const pane = page.locator('[data-api-pane]');
    await expect(pane.getByRole('tab', {name: 'curl'})).toBeVisible();
    await expect(pane).toContainText('"code": "SUCCESS"');
    await page.locator('#api-response-codes').scrollIntoViewIfNeeded();
    const top = await pane.evaluate((element) => element.getBoundingClientRect().top);
    expect(top, 'the pane stays under the navbar while the page scrolls').toBeGreaterThan(0);
    expect(top).toBeLessThan(120);
    const text = await page.locator('#api-request').boundingBox();
    const paneBox = await pane.boundingBox();
    expect((paneBox?.x ?? 0) > (text?.x ?? 0) + (text?.width ?? 0) - 1, 'the pane sits beside the text').toBe(true);
    // With the pane filled after hydration, every table still fits the explanation column (518 px).
    expect(await tablesWiderThanTheirBox(page), 'tables wider than the explanation column at 1280 px').toEqual([]);
    await page.getByRole('button', {name: 'Try Create order in the sandbox'}).click();
    await expect(pane.getByRole('region', {name: 'Try it'})).toBeVisible();
    const panelTop = await pane.getByRole('region', {name: 'Try it'}).evaluate((element) => element.getBoundingClientRect().top);
    expect(panelTop, 'the open panel starts in view').toBeLessThan(800);
  });

  test('at 360 px field, code and state tables read as stacked cards with no sideways scroll, axe clean in light and dark mode', async ({
    clean: {page},
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({width: 360, height: 800});
    // Code blocks are left out of these scans: their colours are the same at every width, and routes.spec.ts scans them
    // on these pages in both modes (at 1280 px), with the code themes unit-tested too (tests/unit/codeThemeCss.test.ts).
    const exclude = ['nav', 'footer', 'pre'];
    for (const url of ['/docs/createorder', '/docs/response-code']) {
      await page.goto(`${url}?docusaurus-theme=light`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${url}: no sideways scrolling`).toBeLessThanOrEqual(0);
      const row = page.locator('table tbody tr[data-result-code]').first();
      expect(await row.evaluate((element) => getComputedStyle(element).display), `${url}: a code row is a card`).toBe('block');
      // No table box scrolls sideways, so a caption never scrolls out of view with its table.
      const scrolling = await page.evaluate(
        () =>
          [...document.querySelectorAll('[class*="cards_"] table')].filter(
            (table) =>
              (table.closest('[role="region"]') ?? table).scrollWidth > (table.closest('[role="region"]') ?? table).clientWidth + 1,
          ).length,
      );
      expect(scrolling, `${url}: reference tables wider than the screen`).toBe(0);
      if (url === '/docs/createorder') {
        const field = page
          .locator('table tbody tr')
          .filter({has: page.locator('[data-field="merchantOrderNo"]')})
          .first();
        expect(await field.evaluate((element) => getComputedStyle(element).display), `${url}: a field row is a card`).toBe('block');
      }
      expect(await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude}), `${url} (light)`).toEqual([]);
      // Dark mode changes colours only: the colour rules again, on the cards as the dark theme draws them.
      await page.goto(`${url}?docusaurus-theme=dark`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      expect(await axeViolations(page, {rules: ['color-contrast', 'link-in-text-block'], exclude}), `${url} (dark)`).toEqual([]);
    }
  });

  // Light mode is not scanned again here: routes.spec.ts scans the whole of /docs/createorder at 1280 px in light
  // mode with every rule of these tags and more, endpoint block and pane included (in dark mode it runs the colour rules only).
  test('at 1280 px the endpoint block and pane are axe clean in dark mode', async ({clean: {page}}) => {
    test.setTimeout(60_000);
    await page.setViewportSize({width: 1280, height: 800});
    await page.goto('/docs/createorder?docusaurus-theme=dark');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(
      await axeViolations(page, {
        tags: ['wcag2a', 'wcag2aa', 'wcag21aa'],
        exclude: ['nav', 'footer', '.theme-doc-markdown > :not([data-api-reference])', '[data-api-reference] > div:last-child'],
      }),
    ).toEqual([]);
  });
});
