/**
 * The sandbox's local server over real HTTP: signed API calls and their signed answers, notifications
 * POSTed to a receiver on this machine and retried on the sandbox clock, the body limit, bad input, the
 * journal file across restarts (and a torn last line), and the command line's one-line errors.
 *
 * Run: node --import tsx --test tests/sandbox/server.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {createHash, randomUUID} from 'node:crypto';
import {appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {gunzipSync} from 'node:zlib';
import {
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  importPublicKey,
  parseSignatureHeader,
  responseCanonicalString,
  signCanonical,
  verifyCanonical,
} from '../../src/lib/signing';
import {fileStore, JournalFileError, type FileStore} from '../../src/sandbox/hosts/server/fileStore';
import {createNodeEngine, repoRoot} from '../../src/sandbox/hosts/server/loadEngine';
import {createHttpTransport, requestBodyLimitBytes, startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';

const vectors = path.join(repoRoot, 'api', 'test-vectors');
const merchantPrivateKey = importPrivateKey(readFileSync(path.join(vectors, 'merchant-test-private.pem'), 'utf8'));
const merchantPublicKeyPem = readFileSync(path.join(vectors, 'merchant-test-public.pem'), 'utf8');
const providerPublicKey = importPublicKey(readFileSync(path.join(vectors, 'provider-test-public.pem'), 'utf8'));
const testMerchant = 'sandbox-merchant-0001';

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: Record<string, unknown> & {code?: string; message?: string; requestId?: string; data?: Record<string, unknown>};
}

interface SignedAnswer extends Answer {
  /** What the request was signed with, for checking the response signature. */
  readonly signed: {method: string; pathWithQuery: string; clientId: string; timestamp: string; nonce: string};
}

async function answerOf(response: Response): Promise<Answer> {
  const text = await response.text();
  let json: Answer['json'] = {};
  try {
    json = JSON.parse(text) as Answer['json'];
  } catch {
    // Not JSON (a statement file): the test reads `text` or the bytes itself.
  }
  return {status: response.status, headers: response.headers, text, json};
}

/** A control call: JSON in and out, unsigned. */
async function control(base: string, method: string, target: string, body?: unknown): Promise<Answer> {
  return answerOf(
    await fetch(`${base}${target}`, {
      method,
      ...(body === undefined ? {} : {body: typeof body === 'string' ? body : JSON.stringify(body)}),
    }),
  );
}

/** A signed API call, timestamped with the sandbox clock (which runs ahead once a test advances it). */
async function call(base: string, clientId: string, method: string, target: string, body?: unknown): Promise<SignedAnswer> {
  const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const timestamp = String((await control(base, 'GET', '/_sandbox/clock')).json['now']);
  const nonce = randomUUID();
  const signature = await signCanonical(
    canonicalString({method, pathWithQuery: target, clientId, timestamp, nonce, body: raw}),
    await merchantPrivateKey,
  );
  const response = await fetch(`${base}${target}`, {
    method,
    headers: {
      'Content-Type': 'application/json',
      'X-Client-Id': clientId,
      'X-Timestamp': timestamp,
      'X-Nonce': nonce,
      'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature}),
    },
    ...(raw === '' ? {} : {body: raw}),
  });
  return {...(await answerOf(response)), signed: {method, pathWithQuery: target, clientId, timestamp, nonce}};
}

/** Checks a response the way the guide tells merchants to: the 8-line response string, the provider test key. */
async function responseVerifies(answer: SignedAnswer): Promise<boolean> {
  const header = parseSignatureHeader(answer.headers.get('X-Signature') ?? '');
  const canonical = responseCanonicalString({
    request: answer.signed,
    status: answer.status,
    timestamp: answer.headers.get('X-Timestamp') ?? '',
    nonce: answer.headers.get('X-Nonce') ?? '',
    body: answer.text,
  });
  return verifyCanonical(canonical, header.signature, await providerPublicKey);
}

const hostedOrder = (merchantOrderNo: string) => ({
  merchantOrderNo,
  amount: {value: 1000, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'Server test',
  returnUrl: 'https://shop.example.com/return',
});
const orderNo = () => `ORD-${randomUUID().slice(0, 18)}`;

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Received {
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A merchant's notification endpoint on this machine, answering every POST with `status`. */
async function receiver(status: number) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(status, {'Content-Type': 'application/json'});
      response.end(status === 200 ? '{"code":"SUCCESS"}' : '{"code":"BROKEN"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function startSandbox(store?: FileStore): Promise<SandboxServer> {
  const engine = await createNodeEngine({...(store ? {store} : {}), transport: createHttpTransport()});
  return startSandboxServer({engine, port: 0});
}

describe('the sandbox server', () => {
  let server: SandboxServer;
  let base: string;
  before(async () => {
    server = await startSandbox();
    base = server.url;
  });
  after(() => server.close());

  /** A merchant of the test's own, with the published test key, whose default URL is `notifyUrl`. */
  async function merchantNotifying(notifyUrl: string): Promise<string> {
    const registered = await control(base, 'POST', '/_sandbox/merchants', {publicKeyPem: merchantPublicKeyPem});
    assert.equal(registered.status, 200, registered.text);
    const clientId = String(registered.json['clientId']);
    // Create order's notifyUrl must be https; the default URL may be http, as a local receiver is.
    const configured = await control(base, 'PATCH', `/_sandbox/merchants/${clientId}`, {defaultNotifyUrl: notifyUrl});
    assert.equal(configured.status, 200, configured.text);
    return clientId;
  }

  async function paidOrder(clientId: string): Promise<string> {
    const no = orderNo();
    const created = await call(base, clientId, 'POST', '/v1/orders', hostedOrder(no));
    assert.equal(created.json.code, 'SUCCESS', created.text);
    const paid = await control(base, 'POST', '/_sandbox/shopper/pay', {
      clientId,
      merchantOrderNo: no,
      method: 'CARD',
      cardNumber: '4000000000000002',
    });
    assert.equal(paid.json['status'], 'PAID', paid.text);
    return no;
  }

  test('answers signed API calls with responses signed over the 8-line response string, errors included', async () => {
    const no = orderNo();
    const created = await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(no));
    assert.equal(created.status, 200, created.text);
    assert.ok(await responseVerifies(created), 'the Create order response verifies with provider-test-public.pem');
    const missing = await call(base, testMerchant, 'GET', `/v1/orders/${orderNo()}`);
    assert.equal(missing.json.code, 'ORDER_NOT_FOUND');
    assert.ok(await responseVerifies(missing), 'an error response is signed too');
    const health = await control(base, 'GET', '/_sandbox/health');
    assert.equal(health.json['ok'], true);
    assert.match(String(health.json['contractVersion']), /^\d+\.\d+\.\d+$/);
  });

  test('CORS for the portal and pages on this machine only: preflight answered, signing headers exposed', async () => {
    const preflight = (origin: string) =>
      fetch(`${base}/v1/orders`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'content-type, x-client-id, x-timestamp, x-nonce, x-signature',
        },
      });
    for (const origin of ['http://127.0.0.1:3100', 'http://localhost:3000', 'https://developers.example.com']) {
      const answer = await preflight(origin);
      assert.equal(answer.status, 204, origin);
      assert.equal(answer.headers.get('access-control-allow-origin'), origin);
      assert.match(answer.headers.get('access-control-allow-headers') ?? '', /X-Signature/);
    }
    const stranger = await preflight('https://attacker.example.net');
    assert.equal(stranger.headers.get('access-control-allow-origin'), null, 'another site gets no CORS headers');
    assert.equal(stranger.status, 400, 'and its OPTIONS is an unknown method, in the envelope');
    const missing = await fetch(`${base}/v1/orders/${orderNo()}`, {headers: {Origin: 'http://127.0.0.1:3100'}});
    assert.equal(missing.headers.get('access-control-allow-origin'), 'http://127.0.0.1:3100');
    assert.match(missing.headers.get('access-control-expose-headers') ?? '', /X-Signature/);
  });

  test('a paid order is notified to the default URL in real time, signed with the provider test key', async () => {
    const endpoint = await receiver(200);
    try {
      const clientId = await merchantNotifying(endpoint.url);
      await paidOrder(clientId);
      const [delivery] = await until('the ORDER.PAID delivery', async () => (endpoint.received.length > 0 ? endpoint.received : undefined));
      assert.ok(delivery);
      assert.equal(delivery.method, 'POST');
      assert.equal((JSON.parse(delivery.body) as {eventType: string}).eventType, 'ORDER.PAID');
      assert.equal(delivery.headers['x-client-id'], clientId);
      const canonical = canonicalString({
        method: 'POST',
        pathWithQuery: '/notify',
        clientId,
        timestamp: String(delivery.headers['x-timestamp']),
        nonce: String(delivery.headers['x-nonce']),
        body: delivery.body,
      });
      const header = parseSignatureHeader(String(delivery.headers['x-signature']));
      assert.ok(
        await verifyCanonical(canonical, header.signature, await providerPublicKey),
        'the notification verifies over POST, path, client ID, timestamp, nonce and body',
      );
      const log = await until('the acknowledged attempt in the log', async () => {
        const deliveries = (await control(base, 'GET', `/_sandbox/notifications?clientId=${clientId}`)).json['deliveries'] as Array<{
          acknowledged: boolean;
          httpStatus?: number;
        }>;
        return deliveries.some((entry) => entry.acknowledged) ? deliveries : undefined;
      });
      assert.deepEqual(
        log.map((entry) => [entry.acknowledged, entry.httpStatus]),
        [[true, 200]],
      );
    } finally {
      await endpoint.close();
    }
  });

  test('a receiver answering 500 is tried again 15 seconds later on the sandbox clock', async () => {
    const endpoint = await receiver(500);
    try {
      const clientId = await merchantNotifying(endpoint.url);
      await paidOrder(clientId);
      const attempts = async () =>
        (await control(base, 'GET', `/_sandbox/notifications?clientId=${clientId}`)).json['deliveries'] as Array<{
          notificationId: string;
          acknowledged: boolean;
          httpStatus?: number;
        }>;
      const [first] = await until('the first attempt', async () => ((await attempts()).length > 0 ? attempts() : undefined));
      assert.deepEqual([first?.acknowledged, first?.httpStatus], [false, 500]);
      const advanced = await control(base, 'POST', '/_sandbox/clock/advance', {seconds: 15});
      assert.equal(advanced.status, 200, advanced.text);
      assert.ok(Number(advanced.json['jobsRun']) >= 1, advanced.text);
      const log = await attempts();
      assert.deepEqual(
        log.map((entry) => [entry.notificationId, entry.acknowledged, entry.httpStatus]),
        [
          [first?.notificationId, false, 500],
          [first?.notificationId, false, 500],
        ],
      );
      assert.equal(endpoint.received.length, 2);
    } finally {
      await endpoint.close();
    }
  });

  test('POST /_sandbox/notifications/simulate delivers a signed notification of a contract example at once and answers how it went', async () => {
    const endpoint = await receiver(200);
    try {
      const clientId = await merchantNotifying('http://127.0.0.1:9/unused');
      const notifyUrl = `${endpoint.url}?shop=7`;
      const simulated = await control(base, 'POST', '/_sandbox/notifications/simulate', {
        clientId,
        operationId: 'chargeback',
        scenario: 'opened',
        notifyUrl,
      });
      assert.equal(simulated.status, 200, simulated.text);
      const notificationId = String(simulated.json['notificationId']);
      assert.match(notificationId, /^ntf_[A-Za-z0-9]{20}$/);
      assert.deepEqual(simulated.json['delivery'], {
        ...(simulated.json['delivery'] as object),
        notificationId,
        url: notifyUrl,
        acknowledged: true,
        httpStatus: 200,
      });
      const [delivery] = endpoint.received;
      assert.equal(endpoint.received.length, 1, 'delivered before the answer, once');
      assert.ok(delivery);
      assert.equal(delivery.url, '/notify?shop=7');
      const body = JSON.parse(delivery.body) as {notificationId: string; eventType: string};
      assert.deepEqual([body.notificationId, body.eventType], [notificationId, 'CHARGEBACK.OPENED']);
      const canonical = canonicalString({
        method: 'POST',
        pathWithQuery: '/notify?shop=7',
        clientId,
        timestamp: String(delivery.headers['x-timestamp']),
        nonce: String(delivery.headers['x-nonce']),
        body: delivery.body,
      });
      assert.ok(
        await verifyCanonical(canonical, parseSignatureHeader(String(delivery.headers['x-signature'])).signature, await providerPublicKey),
        'signed over the path and query of the URL given',
      );
      const log = (await control(base, 'GET', `/_sandbox/notifications?clientId=${clientId}`)).json['deliveries'] as Array<{
        notificationId: string;
        acknowledged: boolean;
      }>;
      assert.deepEqual(
        log.map((entry) => [entry.notificationId, entry.acknowledged]),
        [[notificationId, true]],
      );
    } finally {
      await endpoint.close();
    }
  });

  test('POST /_sandbox/notifications/simulate answers once its own delivery is done, whatever another receiver is still doing', async () => {
    // One endpoint holds its answer until the test lets it go; the other answers at once.
    let release: () => void = () => undefined;
    let called = false;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = http.createServer((request, response) => {
      called = true;
      request.resume();
      void held.then(() => {
        response.writeHead(200, {'Content-Type': 'application/json'});
        response.end('{"code":"SUCCESS"}');
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const fast = await receiver(200);
    try {
      const clientId = await merchantNotifying('http://127.0.0.1:9/unused');
      const slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/notify`;
      const pending = control(base, 'POST', '/_sandbox/notifications/simulate', {
        clientId,
        operationId: 'chargeback',
        scenario: 'opened',
        notifyUrl: slowUrl,
      });
      await until('the held endpoint is called', async () => (called ? true : undefined));
      const quick = await control(base, 'POST', '/_sandbox/notifications/simulate', {
        clientId,
        operationId: 'chargeback',
        scenario: 'opened',
        notifyUrl: fast.url,
      });
      assert.equal(quick.status, 200, quick.text);
      assert.equal((quick.json['delivery'] as {acknowledged?: boolean} | null)?.acknowledged, true);
      const log = (await control(base, 'GET', `/_sandbox/notifications?clientId=${clientId}`)).json['deliveries'] as Array<{url: string}>;
      assert.deepEqual(
        log.map((entry) => entry.url),
        [fast.url],
        'the held delivery has no result yet: the answer did not wait for it',
      );
      release();
      const first = await pending;
      assert.equal((first.json['delivery'] as {acknowledged?: boolean} | null)?.acknowledged, true);
    } finally {
      release();
      await fast.close();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  });

  test('POST /_sandbox/notifications/simulate refuses bad JSON, an unknown scenario, bad data and an unknown client with a 4xx that says why', async () => {
    const simulate = (body: unknown) => control(base, 'POST', '/_sandbox/notifications/simulate', body);
    const notifyUrl = 'http://127.0.0.1:9/notify';
    const badJson = await simulate('{"clientId": "sandbox-merchant-0001",');
    assert.deepEqual([badJson.status, badJson.json.code, badJson.json.message], [400, 'INVALID_PARAMETER', 'The body is not valid JSON.']);
    const unknownScenario = await simulate({clientId: testMerchant, operationId: 'paymentResult', scenario: 'shipped', notifyUrl});
    assert.deepEqual(
      [unknownScenario.status, unknownScenario.json.message],
      [400, 'paymentResultNotification has no scenario "shipped"; its scenarios are paid, paymentFailed, expired.'],
    );
    const badData = await simulate({
      clientId: testMerchant,
      operationId: 'paymentResult',
      scenario: 'paid',
      notifyUrl,
      data: {merchantOrderNo: 'ORD-1'},
    });
    assert.equal(badData.status, 400);
    assert.match(String(badData.json.message), /does not match the contract: \/data must have required property/);
    const dataNotObject = await simulate({clientId: testMerchant, operationId: 'paymentResult', scenario: 'paid', notifyUrl, data: 'paid'});
    assert.deepEqual([dataNotObject.status, dataNotObject.json.message], [400, 'data must be a JSON object.']);
    const unknownMember = await simulate({clientId: testMerchant, operationId: 'paymentResult', scenario: 'paid', url: notifyUrl});
    assert.equal(unknownMember.status, 400);
    assert.match(String(unknownMember.json.message), /Unknown member "url"/);
    const stranger = await simulate({clientId: 'nobody-here', operationId: 'paymentResult', scenario: 'paid', notifyUrl});
    assert.deepEqual([stranger.status, stranger.json.code], [401, 'UNKNOWN_CLIENT']);
  });

  test(`a body over ${requestBodyLimitBytes} bytes is 413 REQUEST_TOO_LARGE, with or without Content-Length`, async () => {
    const big = 'x'.repeat(70 * 1024);
    const declared = await control(base, 'POST', '/v1/orders', big);
    assert.equal(declared.status, 413);
    assert.equal(declared.json.code, 'REQUEST_TOO_LARGE');
    assert.match(String(declared.json.requestId), /^req_[A-Za-z0-9]{20}$/);
    // Streamed in chunks: refused once the bytes received pass the limit.
    const streamed = await new Promise<{status: number; body: string}>((resolve, reject) => {
      const request = http.request(`${base}/_sandbox/faults`, {method: 'POST'}, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8')}));
      });
      request.on('error', reject);
      for (let sent = 0; sent < big.length; sent += 8192) request.write(big.slice(sent, sent + 8192));
      request.end();
    });
    assert.equal(streamed.status, 413);
    assert.equal((JSON.parse(streamed.body) as {code: string}).code, 'REQUEST_TOO_LARGE');
    const exactly = await control(base, 'POST', '/_sandbox/faults', ' '.repeat(requestBodyLimitBytes));
    assert.equal(exactly.json.code, 'INVALID_PARAMETER', 'a body of exactly the limit is read (and is not JSON)');
    assert.equal((await control(base, 'GET', '/_sandbox/health')).status, 200, 'the server carries on');
  });

  test('garbage is 400 INVALID_PARAMETER naming what is wrong, never a 5xx', async () => {
    const signedGarbage = await call(base, testMerchant, 'POST', '/v1/orders', '{"merchantOrderNo": ');
    assert.deepEqual([signedGarbage.status, signedGarbage.json.code], [400, 'INVALID_PARAMETER']);
    assert.match(String(signedGarbage.json.message), /JSON/);
    const controlGarbage = await control(base, 'POST', '/_sandbox/shopper/pay', '{nope');
    assert.deepEqual(
      [controlGarbage.status, controlGarbage.json.code, controlGarbage.json.message],
      [400, 'INVALID_PARAMETER', 'The body is not valid JSON.'],
    );
    const missingField = await control(base, 'POST', '/_sandbox/shopper/pay', {
      clientId: testMerchant,
      method: 'CARD',
      cardNumber: '4000000000000002',
    });
    assert.equal(missingField.status, 400);
    assert.match(String(missingField.json.message), /merchantOrderNo/);
    const badMethod = await control(base, 'POST', '/_sandbox/shopper/pay', {
      clientId: testMerchant,
      merchantOrderNo: 'X',
      method: 'CHEQUE',
    });
    assert.match(String(badMethod.json.message), /^method must be one of WALLET, CARD, BANK_TRANSFER, CASH/);
    const notUtf8 = await fetch(`${base}/_sandbox/faults`, {method: 'POST', body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])});
    assert.equal(notUtf8.status, 400);
    assert.equal(((await notUtf8.json()) as {message: string}).message, 'The body is not valid UTF-8.');
    const tooFar = await control(base, 'POST', '/_sandbox/clock/advance', {seconds: 1e12});
    assert.equal(tooFar.status, 400, 'a clock step past what dates can show is refused, not a crash');
    const unknownClient = await control(base, 'POST', '/_sandbox/shopper/abandon', {clientId: 'nobody-here', merchantOrderNo: 'X'});
    assert.deepEqual(
      [unknownClient.status, unknownClient.json.code],
      [401, 'UNKNOWN_CLIENT'],
      'an action result keeps its code and that code’s status',
    );
  });

  test('unknown paths and methods are 400 INVALID_PARAMETER, under /v1 and /_sandbox alike', async () => {
    for (const [method, target] of [
      ['GET', '/v1/no-such-thing'],
      ['GET', '/'],
      ['GET', '/_sandbox/no-such-thing'],
      ['DELETE', '/_sandbox/clock'],
      ['GET', '/_sandbox/merchants/%E0%A4%A/keys'],
    ] as const) {
      const answer = await control(base, method, target);
      assert.deepEqual([answer.status, answer.json.code], [400, 'INVALID_PARAMETER'], `${method} ${target}: ${answer.text}`);
    }
  });

  test('a held Create order answer (amount ending 92) holds up nothing else, and close() sends it at once', async () => {
    const own = await startSandbox();
    const no = orderNo();
    const held = call(own.url, testMerchant, 'POST', '/v1/orders', {...hostedOrder(no), amount: {value: 1092, currency: 'USD'}});
    // The order exists before its answer is sent, and other requests are answered meanwhile.
    await until('the held order', async () =>
      (await call(own.url, testMerchant, 'GET', `/v1/orders/${no}`)).json.code === 'SUCCESS' ? true : undefined,
    );
    assert.equal((await control(own.url, 'GET', '/_sandbox/health')).status, 200);
    const closing = Date.now();
    await own.close();
    assert.equal((await held).json.code, 'SUCCESS');
    assert.ok(Date.now() - closing < 5000, 'close() does not wait out the 40-second hold');
  });

  test('a job driver with no next due time (instances sharing a database) is still polled while requests keep coming', async () => {
    let polls = 0;
    const engine = await createNodeEngine();
    const own = await startSandboxServer({
      engine,
      port: 0,
      jobs: {
        runDue: async () => ((polls += 1), 0),
        nextJobAt: () => undefined,
        settle: async () => undefined,
        settleDelivery: async () => undefined,
      },
    });
    try {
      // A request every 20 ms for 1.2 s: each one used to push the 200 ms poll back, so it never ran.
      const started = Date.now();
      polls = 0;
      while (Date.now() - started < 1200) {
        assert.equal((await control(own.url, 'GET', '/_sandbox/health')).status, 200);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(polls >= 4, `polled ${polls} times in 1.2 s of requests`);
      console.log(`polled ${polls} times in 1.2 s of requests`);
    } finally {
      await own.close();
    }
  });

  test('serves the statement file with its SHA-256, and the ledger and balances', async () => {
    const day = String((await control(base, 'GET', '/_sandbox/clock')).json['now']).slice(0, 10);
    const response = await fetch(`${base}/_sandbox/statements/${day}?clientId=${testMerchant}&currency=USD`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('Content-Type'), 'application/gzip');
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(response.headers.get('X-Sha256'), createHash('sha256').update(bytes).digest('hex'));
    assert.match(gunzipSync(bytes).toString('utf8'), /^statement_date,transaction_type,/);
    const balances = await control(base, 'GET', `/_sandbox/balances?clientId=${testMerchant}`);
    assert.ok((balances.json['balances'] as Array<{currency: string}>).some((balance) => balance.currency === 'USD'));
    const ledger = await control(base, 'GET', `/_sandbox/ledger?clientId=${testMerchant}`);
    assert.ok((ledger.json['entries'] as unknown[]).length > 0);
    const badDay = await control(base, 'GET', `/_sandbox/statements/2026-02-30?clientId=${testMerchant}`);
    assert.equal(badDay.status, 400);
  });
});

describe('the journal file', () => {
  let directory: string;
  before(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'sandbox-journal-'));
  });
  after(() => rmSync(directory, {recursive: true, force: true}));

  async function withSandbox<T>(file: string, work: (base: string) => Promise<T>, options: {compactAfterBytes?: number} = {}): Promise<T> {
    const store = fileStore(file, options);
    const server = await startSandbox(store);
    try {
      return await work(server.url);
    } finally {
      await server.close();
      await store.close();
    }
  }

  const orderExists = async (base: string, no: string) =>
    (await call(base, testMerchant, 'GET', `/v1/orders/${no}`)).json.code === 'SUCCESS';

  test('keeps orders across a restart, ignores a torn last line, and appends cleanly after it', async () => {
    const file = path.join(directory, 'restart.journal');
    const first = orderNo();
    await withSandbox(file, async (base) => {
      assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(first))).json.code, 'SUCCESS');
    });
    assert.ok(await withSandbox(file, (base) => orderExists(base, first)), 'the order survives a restart');

    // A kill in the middle of an append: half a batch line, no line feed.
    const torn = orderNo();
    appendFileSync(file, `${'0'.repeat(64)} [["${testMerchant}/order/${torn}",{"order":`);
    const second = orderNo();
    await withSandbox(file, async (base) => {
      assert.ok(await orderExists(base, first), 'the batches before the torn line are loaded');
      assert.equal((await call(base, testMerchant, 'GET', `/v1/orders/${torn}`)).json.code, 'ORDER_NOT_FOUND');
      assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(second))).json.code, 'SUCCESS');
    });
    assert.ok(!readFileSync(file, 'utf8').includes(torn), 'the torn tail was cut off before the next append');
    assert.deepEqual(await withSandbox(file, async (base) => [await orderExists(base, first), await orderExists(base, second)]), [
      true,
      true,
    ]);
  });

  test('a reset empties the journal too', async () => {
    const file = path.join(directory, 'reset.journal');
    const no = orderNo();
    await withSandbox(file, async (base) => {
      assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(no))).json.code, 'SUCCESS');
      assert.equal((await control(base, 'POST', '/_sandbox/reset')).status, 200);
      assert.equal((await call(base, testMerchant, 'GET', `/v1/orders/${no}`)).json.code, 'ORDER_NOT_FOUND');
    });
    assert.equal(
      await withSandbox(file, async (base) => (await call(base, testMerchant, 'GET', `/v1/orders/${no}`)).json.code),
      'ORDER_NOT_FOUND',
    );
  });

  test('compacts a journal past its threshold into the live records, losing nothing', async () => {
    const file = path.join(directory, 'compact.journal');
    const numbers = Array.from({length: 6}, orderNo);
    await withSandbox(
      file,
      async (base) => {
        for (const no of numbers)
          assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(no))).json.code, 'SUCCESS');
      },
      {compactAfterBytes: 4096},
    );
    const lines = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    // Without compaction: a header, the seeding batch and a batch per call (and per signature check's nonce).
    assert.ok(lines.length < numbers.length + 2, `compacted to ${lines.length} lines`);
    const found = await withSandbox(file, async (base) => Promise.all(numbers.map((no) => orderExists(base, no))));
    assert.deepEqual(
      found,
      numbers.map(() => true),
    );
  });

  test('export and import: the state moves to another sandbox, durably, and a bad body is a 400 that changes nothing', async () => {
    const no = orderNo();
    const exported = await withSandbox(path.join(directory, 'export-from.journal'), async (base) => {
      assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(no))).json.code, 'SUCCESS');
      assert.equal(
        (
          await control(base, 'POST', '/_sandbox/shopper/pay', {
            clientId: testMerchant,
            merchantOrderNo: no,
            method: 'CARD',
            cardNumber: '4000000000000002',
          })
        ).status,
        200,
      );
      const answer = await control(base, 'GET', '/_sandbox/export');
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.headers.get('Content-Disposition') ?? '', /^attachment; filename="sandbox-state-\d{4}-\d{2}-\d{2}\.json"$/);
      return answer;
    });
    assert.equal(exported.json['format'], 'veloxa-sandbox-state');

    const file = path.join(directory, 'import-into.journal');
    const other = orderNo();
    await withSandbox(file, async (base) => {
      assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(other))).json.code, 'SUCCESS');
      const bad: Array<[string, RegExp]> = [
        ['{not json', /not valid JSON/],
        ['[]', /not a JSON object/],
        [JSON.stringify({...exported.json, format: 'zip'}), /format is "zip"/],
        [JSON.stringify({...exported.json, records: [['~/nothing/1', 1]]}), /Record 1 .* is not a sandbox record/],
      ];
      for (const [body, message] of bad) {
        const refused = await control(base, 'POST', '/_sandbox/import', body);
        assert.equal(refused.status, 400, refused.text);
        assert.equal(refused.json.code, 'INVALID_PARAMETER');
        assert.match(refused.json.message ?? '', message);
      }
      assert.ok(await orderExists(base, other), 'a refused import changes nothing');
      // Larger than an API request may be: the import endpoint takes whole states.
      const imported = await control(base, 'POST', '/_sandbox/import', `${exported.text}${' '.repeat(requestBodyLimitBytes)}`);
      assert.equal(imported.status, 200, imported.text);
      assert.equal(imported.json['ok'], true);
      assert.ok(await orderExists(base, no));
      assert.equal(await orderExists(base, other), false, 'the import replaced the whole state');
    });
    // The journal holds the imported state alone.
    assert.deepEqual(await withSandbox(file, async (base) => [await orderExists(base, no), await orderExists(base, other)]), [true, false]);
    assert.equal(
      await withSandbox(
        file,
        async (base) => ((await call(base, testMerchant, 'GET', `/v1/orders/${no}`)).json.data as {status: string}).status,
      ),
      'PAID',
    );
  });

  test('refuses a damaged journal, a file that is not one, and a journal another sandbox holds, naming the file', async () => {
    const damaged = path.join(directory, 'damaged.journal');
    await withSandbox(damaged, async (base) => {
      assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(orderNo()))).json.code, 'SUCCESS');
    });
    const lines = readFileSync(damaged, 'utf8').split('\n');
    lines[1] = lines[1]?.replace('"', "'") ?? '';
    writeFileSync(damaged, lines.join('\n'));
    await assert.rejects(
      fileStore(damaged).load(),
      (error: Error) =>
        error instanceof JournalFileError &&
        error.message === `data file ${damaged}: line 2 is damaged (its checksum does not match) and more lines follow it`,
    );

    const foreign = path.join(directory, 'notes.txt');
    writeFileSync(foreign, 'my notes\n');
    await assert.rejects(fileStore(foreign).load(), /^JournalFileError: data file .*notes\.txt: not a sandbox journal/);
    assert.equal(readFileSync(foreign, 'utf8'), 'my notes\n', 'a file that is not a journal is left as it was');

    const held = path.join(directory, 'held.journal');
    writeFileSync(`${held}.lock`, String(process.ppid));
    await assert.rejects(fileStore(held).load(), /is in use by another sandbox/);
  });
});

describe('npm run sandbox', () => {
  const script = path.join(repoRoot, 'scripts', 'sandbox.ts');

  /** Runs the command line until it exits; `onLine` sees each stdout line, and returning true stops the process with SIGTERM. */
  function runCli(
    args: readonly string[],
    onLine?: (line: string) => Promise<boolean>,
  ): Promise<{code: number | null; stdout: string; stderr: string}> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe']});
      let stdout = '';
      let stderr = '';
      let partial = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        stdout += chunk;
        const lines = (partial + chunk).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          onLine?.(line).then(
            (stop) => stop && child.kill('SIGTERM'),
            (error: unknown) => {
              child.kill('SIGKILL');
              reject(error as Error);
            },
          );
        }
      });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.on('error', reject);
      child.on('close', (code) => resolve({code, stdout, stderr}));
    });
  }

  test('prints one line and exits with 2 for a port in use, a bad flag and a damaged data file', async () => {
    const occupant = http.createServer();
    await new Promise<void>((resolve) => occupant.listen(0, '127.0.0.1', resolve));
    const port = (occupant.address() as AddressInfo).port;
    try {
      const inUse = await runCli(['--port', String(port)]);
      assert.deepEqual([inUse.code, inUse.stderr], [2, `sandbox: port ${port} is in use; pass --port to choose another\n`]);
    } finally {
      await new Promise((resolve) => occupant.close(resolve));
    }
    const badFlag = await runCli(['--prot', '4010']);
    assert.deepEqual([badFlag.code, badFlag.stderr], [2, 'sandbox: unknown option --prot; --help lists the options\n']);
    const badPort = await runCli(['--port', 'http']);
    assert.deepEqual([badPort.code, badPort.stderr], [2, 'sandbox: --port must be a whole number from 0 to 65535, got "http"\n']);
    const directory = mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
    try {
      const notJournal = path.join(directory, 'data.txt');
      writeFileSync(notJournal, 'hello\n');
      const badData = await runCli(['--port', '0', '--data', notJournal]);
      assert.equal(badData.code, 2);
      assert.equal(badData.stderr.split('\n').length, 2, badData.stderr);
      assert.ok(badData.stderr.startsWith(`sandbox: data file ${notJournal}: not a sandbox journal`), badData.stderr);
    } finally {
      rmSync(directory, {recursive: true, force: true});
    }
  });

  test('starts with one line naming the URL and the test merchant, keeps --data across a SIGTERM and a restart', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'sandbox-cli-'));
    const data = path.join(directory, 'sandbox.journal');
    const no = orderNo();
    try {
      let firstLine = '';
      const first = await runCli(['--port', '0', '--data', data], async (line) => {
        if (firstLine) return false;
        firstLine = line;
        const base = /(http:\/\/\S+)/.exec(line)?.[1] ?? '';
        assert.equal((await call(base, testMerchant, 'POST', '/v1/orders', hostedOrder(no))).json.code, 'SUCCESS');
        return true;
      });
      assert.equal(first.code, 0, first.stderr);
      assert.match(
        firstLine,
        /^Veloxa Pay sandbox at http:\/\/127\.0\.0\.1:\d+ \(test merchant client ID sandbox-merchant-0001; data in .*sandbox\.journal\)/,
      );
      let found = '';
      const second = await runCli(['--port', '0', '--data', data], async (line) => {
        if (!line.startsWith('Veloxa Pay sandbox at ')) return false;
        const base = /(http:\/\/\S+)/.exec(line)?.[1] ?? '';
        found = String((await call(base, testMerchant, 'GET', `/v1/orders/${no}`)).json.code);
        return true;
      });
      assert.equal(second.code, 0, second.stderr);
      assert.equal(found, 'SUCCESS', 'the order made before SIGTERM is there after the restart');
    } finally {
      rmSync(directory, {recursive: true, force: true});
    }
  });
});
