/**
 * The signature debugger page: it diagnoses each cause from a crafted mismatch, reports bad input next
 * to its field, verifies the published examples, and generates key pairs; with no console error or CSP
 * violation. Mismatches are signed here with the published merchant test key, as a faulty signer would.
 */
import {createSign} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {expect, type Page} from '@playwright/test';
import {test} from '../support/warmPage';
import {axeViolations} from '../support/axe';

const keys = path.join(__dirname, '..', '..', 'api', 'test-vectors');
const merchantPrivate = readFileSync(path.join(keys, 'merchant-test-private.pem'), 'utf8');
const merchantPublic = readFileSync(path.join(keys, 'merchant-test-public.pem'), 'utf8');
const providerPrivate = readFileSync(path.join(keys, 'provider-test-private.pem'), 'utf8');

const sign = (bytes: Buffer, key = merchantPrivate) => createSign('RSA-SHA256').update(bytes).sign(key, 'base64');
const header = (signature: string, keyVersion = 1) => `algorithm=RSA-SHA256, keyVersion=${keyVersion}, signature=${signature}`;

interface Message {
  method: string;
  target: string;
  timestamp: string;
  nonce: string;
  body: string;
}

const clientId = 'sandbox-merchant-0001';
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const canonical = (m: Message, changes: Partial<Message> = {}) => {
  const signed = {...m, ...changes};
  return [signed.method, signed.target, clientId, signed.timestamp, signed.nonce, signed.body].join('\n');
};
const raw = (m: Message, signatureHeader: string) =>
  `${m.method} ${m.target} HTTP/1.1\nContent-Type: application/json\nX-Client-Id: ${clientId}\nX-Timestamp: ${m.timestamp}\nX-Nonce: ${m.nonce}\nX-Signature: ${signatureHeader}\n\n${m.body}`;

let counter = 0;
function message(changes: Partial<Message> = {}): Message {
  counter += 1;
  return {
    method: 'POST',
    target: '/v1/orders',
    timestamp: now(),
    nonce: `e2e-debugger-nonce-${String(counter).padStart(4, '0')}-${Date.now()}`,
    body: JSON.stringify({
      merchantOrderNo: `ORD-${counter}`,
      amount: {value: 1250, currency: 'USD'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'Café Zürich',
      returnUrl: 'https://shop.example.com/return',
    }),
    ...changes,
  };
}

async function check(page: Page, request: string, key = merchantPublic) {
  const tool = page.getByRole('region', {name: 'Check a signature'});
  await tool.getByLabel('The request as sent (raw HTTP)').fill(request);
  await tool.getByLabel('The merchant key (PEM): its public key, or its private key').fill(key);
  await tool.getByRole('button', {name: 'Check signature'}).click();
  return tool;
}

test.describe('the signature debugger', () => {
  test('diagnoses each cause from a crafted mismatch, one check after another', async ({clean: {page}}) => {
    const errors: string[] = [];
    page.on('console', (entry) => {
      if (entry.type() === 'error') errors.push(entry.text());
    });
    await page.goto('/docs/signature-debugger');
    const cases: {cause: string; make: () => string}[] = [
      {
        cause: 'body-reserialised',
        make: () => {
          const m = message();
          return raw({...m, body: JSON.stringify(JSON.parse(m.body), null, 2)}, header(sign(Buffer.from(canonical(m)))));
        },
      },
      {
        cause: 'trailing-newline',
        make: () => {
          const m = message();
          return raw(m, header(sign(Buffer.from(`${canonical(m)}\n`))));
        },
      },
      {
        cause: 'crlf',
        make: () => {
          const m = message();
          return raw(m, header(sign(Buffer.from(canonical(m).split('\n').join('\r\n')))));
        },
      },
      {
        cause: 'path-without-v1',
        make: () => {
          const m = message();
          return raw(m, header(sign(Buffer.from(canonical(m, {target: '/orders'})))));
        },
      },
      {
        cause: 'query-reencoded',
        make: () => {
          const m = message({
            method: 'GET',
            target: '/v1/orders?createdFrom=2026-11-01T00%3A00%3A00Z&createdTo=2026-11-02T00%3A00%3A00Z',
            body: '',
          });
          return raw(m, header(sign(Buffer.from(canonical(m, {target: decodeURIComponent(m.target)})))));
        },
      },
      {
        cause: 'not-utf8',
        make: () => {
          const m = message();
          return raw(m, header(sign(Buffer.from(canonical(m), 'latin1'))));
        },
      },
      {
        cause: 'base64url',
        make: () => {
          const m = message();
          return raw(
            m,
            header(
              sign(Buffer.from(canonical(m)))
                .replace(/\+/g, '-')
                .replace(/\//g, '_')
                .replace(/=+$/, ''),
            ),
          );
        },
      },
      {
        cause: 'wrong-key',
        make: () => {
          const m = message();
          return raw(m, header(sign(Buffer.from(canonical(m)), providerPrivate)));
        },
      },
      {
        cause: 'timestamp-format',
        make: () => {
          const m = message({timestamp: now().replace('Z', '+00:00')});
          return raw(m, header(sign(Buffer.from(canonical(m)))));
        },
      },
      {
        cause: 'timestamp-window',
        make: () => {
          const m = message({timestamp: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')});
          return raw(m, header(sign(Buffer.from(canonical(m)))));
        },
      },
    ];
    for (const {cause, make} of cases) {
      const tool = await check(page, make());
      await expect(tool.getByRole('list', {name: 'Findings'}).locator(`li[data-cause="${cause}"]`), cause).toBeVisible();
    }

    // A replay: the same nonce on another message.
    const first = message();
    await check(page, raw(first, header(sign(Buffer.from(canonical(first))))));
    const tool = page.getByRole('region', {name: 'Check a signature'});
    await expect(tool.getByText('The signature verifies', {exact: false})).toBeVisible();
    const replay = {...first, body: first.body.replace('1250', '9999')};
    await check(page, raw(replay, header(sign(Buffer.from(canonical(replay))))));
    await expect(tool.locator('li[data-cause="nonce-reused"]')).toBeVisible();

    // A keyVersion that does not name the key given.
    const versioned = message();
    await tool.getByLabel('Version of this key (optional)').fill('1');
    await check(page, raw(versioned, header(sign(Buffer.from(canonical(versioned))), 2)));
    await expect(tool.locator('li[data-cause="key-version"]')).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('says what is wrong with bad input next to the field, and checks the published examples', async ({clean: {page}}) => {
    await page.goto('/docs/signature-debugger');
    const tool = await check(page, 'this is not HTTP', 'not a key');
    const request = tool.getByLabel('The request as sent (raw HTTP)');
    await expect(request).toHaveAttribute('aria-invalid', 'true');
    await expect(tool.getByText('The first line of the request should be like')).toBeVisible();
    await expect(tool.getByText('This is not a PEM key')).toBeVisible();

    // A PKCS #1 key is read, with the command that converts it.
    const m = message();
    const pkcs1 = (await import('node:crypto')).createPrivateKey(merchantPrivate).export({type: 'pkcs1', format: 'pem'}).toString();
    await check(page, raw(m, header(sign(Buffer.from(canonical(m))))), pkcs1);
    await expect(tool.locator('li[data-cause="key-format"]')).toContainText('openssl pkcs8 -topk8');
    await expect(tool.getByLabel('Expected X-Signature')).toContainText('keyVersion=1, signature=');

    // The published response vector, made fresh (current time, new nonces, signed here with the test key), verifies
    // with nothing to report, in green; checked again, its own nonce is not reported as reused.
    await tool.getByRole('radio', {name: 'A response from the API'}).check();
    await tool.getByRole('button', {name: 'Load a fresh example'}).click();
    await expect(tool.getByLabel('The response as received (raw HTTP)')).toHaveValue(/^HTTP\/1\.1 200/);
    const timestamp = /X-Timestamp: (\S+)/.exec(await tool.getByLabel('The response as received (raw HTTP)').inputValue())?.[1] ?? '';
    expect(Math.abs(Date.now() - Date.parse(timestamp))).toBeLessThan(60_000);
    for (let round = 0; round < 2; round += 1) {
      await tool.getByRole('button', {name: 'Check signature'}).click();
      await expect(tool.getByText('The signature verifies')).toBeVisible();
      await expect(tool.getByRole('list', {name: 'Findings'})).toHaveCount(0);
    }
    const verdict = tool.getByText('The signature verifies').locator('xpath=..');
    const colours = await verdict.evaluate((element) => ({
      text: getComputedStyle(element).color,
      background: getComputedStyle(element).backgroundColor,
    }));
    const [red, green] = colours.background.match(/\d+/g)?.map(Number) ?? [];
    expect(green ?? 0, `the verdict is green, not red: ${colours.background}`).toBeGreaterThan(red ?? 255);
    await expect(tool.getByLabel('Canonical string')).toContainText('200⏎');

    // Each kind's fresh example verifies.
    for (const kind of ['A request to the API', 'A notification'] as const) {
      await tool.getByRole('radio', {name: kind}).check();
      const raw = tool.getByLabel(/raw HTTP/).first();
      // The example is signed asynchronously: wait for it to replace what the field held (the previous kind's
      // example has a nonce too), or a slow machine checks the old message against the new kind.
      const before = await raw.inputValue();
      await tool.getByRole('button', {name: 'Load a fresh example'}).click();
      await expect(raw).not.toHaveValue(before);
      await expect(raw).toHaveValue(/X-Nonce: [0-9a-f-]{36}/);
      await tool.getByRole('button', {name: 'Check signature'}).click();
      await expect(tool.getByText('The signature verifies')).toBeVisible();
      await expect(tool.getByRole('list', {name: 'Findings'})).toHaveCount(0);
    }

    // A re-serialised body is named first, before the stale timestamp and the replayed nonce, coloured by meaning.
    const stale = message({timestamp: new Date(Date.now() - 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z')});
    await tool.getByRole('radio', {name: 'A request to the API'}).check();
    await check(page, raw(stale, header(sign(Buffer.from(canonical(stale))))), merchantPublic);
    const pretty = {...stale, body: JSON.stringify(JSON.parse(stale.body), null, 2)};
    await check(page, raw(pretty, header(sign(Buffer.from(canonical(stale))))), merchantPublic);
    const findings = tool.getByRole('list', {name: 'Findings'}).locator('li');
    await expect(findings.first()).toHaveAttribute('data-cause', 'body-reserialised');
    await expect(findings.first()).toHaveAttribute('data-severity', 'error');
    await expect(findings.first()).toContainText('Most likely cause');
    await expect(tool.locator('li[data-cause="timestamp-window"]')).toHaveAttribute('data-severity', 'warning');
    await expect(tool.locator('li[data-cause="nonce-reused"]')).toHaveAttribute('data-severity', 'warning');
  });

  test('generates a key pair in the browser', async ({clean: {page}}) => {
    await page.goto('/docs/signature-debugger');
    await page.getByRole('button', {name: 'Generate a key pair'}).click();
    await expect(page.getByLabel('Private key (PKCS #8)')).toHaveValue(/^-----BEGIN PRIVATE KEY-----\n/);
    await expect(page.getByLabel('Public key (SPKI)')).toHaveValue(/^-----BEGIN PUBLIC KEY-----\n/);
  });

  for (const mode of ['light', 'dark'] as const) {
    test(`with a report, problems and a key pair on screen: axe clean in ${mode} mode, keyboard reachable, and no sideways scrolling at 360 px`, async ({
      clean: {page},
    }) => {
      await page.setViewportSize({width: 360, height: 800});
      await page.goto(`/docs/signature-debugger?docusaurus-theme=${mode}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      const m = message();
      const tool = await check(page, raw(m, header(sign(Buffer.from(`${canonical(m)}\n`)))));
      await expect(tool.locator('li[data-cause="trailing-newline"]')).toBeVisible();
      await tool.getByLabel('Version of this key (optional)').fill('x');
      await tool.getByRole('button', {name: 'Check signature'}).click();
      await expect(tool.getByText('A key version is a whole number')).toBeVisible();
      await tool.getByLabel('Version of this key (optional)').fill('');
      await tool.getByRole('button', {name: 'Check signature'}).click();
      await page.getByRole('button', {name: 'Generate a key pair'}).click();
      await expect(page.getByLabel('Public key (SPKI)')).toHaveValue(/BEGIN PUBLIC KEY/);
      expect(
        await axeViolations(page, {tags: ['wcag2a', 'wcag2aa', 'wcag21aa'], exclude: ['nav', 'footer', '.theme-doc-toc-desktop']}),
      ).toEqual([]);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
      // Keyboard: from the kind radios, Tab reaches the boxes and the Check button in order.
      await tool.getByRole('radio', {name: 'A request to the API'}).focus();
      const reached: string[] = [];
      for (let step = 0; step < 6; step += 1) {
        await page.keyboard.press('Tab');
        reached.push(
          await page.evaluate(
            () =>
              document.activeElement?.getAttribute('aria-label') ??
              document.activeElement?.textContent?.trim() ??
              document.activeElement?.id ??
              '',
          ),
        );
      }
      expect(reached.join(' | ')).toContain('Check signature');
    });
  }
});
