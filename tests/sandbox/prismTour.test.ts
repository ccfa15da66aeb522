/**
 * An independent check of the sandbox against its contract: Stoplight Prism, run as a validating proxy in
 * front of the local server (`prism proxy api/openapi.yaml <server>/v1 --errors`), sees a scripted tour
 * through every operation of api/openapi.yaml and every result code of x-result-codes. With --errors,
 * Prism answers a response that breaks the contract with its own error (application/problem+json,
 * sl-violations header) and logs a "Violation" line: the tour asserts neither happens, on top of checking
 * each response's signature and schema itself (tests/support/sandboxClient.ts).
 *
 * Three proxies, started side by side:
 * - `strict`, request validation on (Prism's default), in front of a server with rate limits off: every
 *   call of the tour that the contract allows, which is all but one;
 * - `lenient`, with --validate-request=false, in front of a second server with rate limits on: RATE_LIMITED,
 *   and SCENE_PARAMETERS_MISSING, whose request the contract's own schema refuses (the scene's fields are
 *   `required` in CreateOrderRequest's oneOf), so a request-validating Prism answers 422 itself and never
 *   forwards it. Its responses are still validated;
 * - `canary`, in front of a stub that answers with one deliberate violation: proof that this Prism reads
 *   this contract and catches a bad answer, so that "no violation" above means something.
 *
 * Prism strips the server path (/v1) from the requests it receives and forwards to upstream + path, so a
 * call goes to http://127.0.0.1:<prism>/orders and is signed as /v1/orders, the target the server sees.
 * It forwards the body as it re-serialises it (JSON.stringify of the parsed body) and rebuilds the query
 * with URLSearchParams, so the tour sends compact JSON and queries URLSearchParams would write the same.
 * The /_sandbox/ control endpoints are not in the contract: they go to the servers directly.
 *
 * Run: node --import tsx --test tests/sandbox/prismTour.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn, type ChildProcess} from 'node:child_process';
import {randomUUID} from 'node:crypto';
import {readFileSync} from 'node:fs';
import http from 'node:http';
import net, {type AddressInfo} from 'node:net';
import path from 'node:path';
import {canonicalString, formatSignatureHeader, importPrivateKey, signCanonical} from '../../src/lib/signing';
import {isoSeconds, utcDay} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import {createNodeEngine, repoRoot, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';
import {operationPointerFor, responseProblems} from '../support/sandboxClient';

const files = sandboxFiles();
const document = files.contract.document as unknown as {
  'x-result-codes': Array<{code: string; httpStatus: number}>;
  paths: Record<string, Record<string, {operationId?: string}>>;
};
const catalogue = new Map(document['x-result-codes'].map((entry) => [entry.code, entry.httpStatus]));
const contractOperations = Object.values(document.paths).flatMap((item) =>
  Object.values(item).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])),
);
const merchant = files.spec.sandbox.merchant.clientId;
/** Prism's command line, node_modules/.bin/prism, found through its package. */
const prismPackage = require.resolve('@stoplight/prism-cli/package.json');
const prismCli = path.resolve(
  path.dirname(prismPackage),
  (JSON.parse(readFileSync(prismPackage, 'utf8')) as {bin: {prism: string}}).bin.prism,
);

/** A free port on the loopback interface, for Prism, which needs a number. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const {port} = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Colour codes, should Prism print them despite FORCE_COLOR=0. */
const ansiColour = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
const stripAnsi = (text: string) => text.replace(ansiColour, '');

interface Prism {
  readonly port: number;
  /** Everything Prism printed, stdout and stderr, without colours. */
  readonly output: () => string;
  /** Resolves once Prism has printed nothing new for 300 ms: its log lines trail its answers. */
  quiet(): Promise<void>;
  stop(): Promise<void>;
}

/** Starts `prism proxy` in front of `upstream`; resolves once it listens, rejects with its output if it cannot. */
async function startPrism(upstream: string, extra: readonly string[]): Promise<Prism> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      prismCli,
      'proxy',
      path.join(repoRoot, 'api', 'openapi.yaml'),
      upstream,
      '--port',
      String(port),
      '--host',
      '127.0.0.1',
      '--errors',
      ...extra,
    ],
    {cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: {...process.env, FORCE_COLOR: '0'}},
  );
  let output = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += stripAnsi(chunk)));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += stripAnsi(chunk)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Prism starts in a few seconds alone; npm test runs two steps side by side on two cores.
  const deadline = Date.now() + 90_000;
  while (!output.includes('Prism is listening')) {
    if (child.exitCode !== null) throw new Error(`prism proxy exited with ${child.exitCode} before listening:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`prism proxy did not listen within 90 s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    port,
    output: () => output,
    async quiet() {
      for (let seen = -1; seen !== output.length; ) {
        seen = output.length;
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

interface Call {
  readonly label: string;
  readonly operationId: string | undefined;
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: {code?: string; message?: string; requestId?: string; data?: Record<string, unknown>};
  /** Problems with the answer besides its code: Prism's, the signature, the schema. */
  readonly problems: string[];
}

/** One side of the tour: a sandbox server, and a Prism proxy in front of it. */
interface Side {
  readonly engine: SandboxEngine;
  readonly server: SandboxServer;
  readonly prism: Prism;
}

interface CallOptions {
  readonly nonce?: string;
  readonly timestamp?: string;
  readonly clientId?: string;
  /** Sign this body instead of the one sent. */
  readonly signBody?: string;
}

describe('the contract, as Prism sees the sandbox', () => {
  let strict: Side;
  let lenient: Side;
  let canary: {stub: http.Server; prism: Prism};
  let key: CryptoKey;
  const seenCodes = new Map<string, string[]>();
  const seenOperations = new Set<string>();

  /** Everything started, stopped in `after` even when another part failed to start (else the process never exits). */
  const started = {proxies: [] as Prism[], servers: [] as Array<() => Promise<unknown>>};

  before(async () => {
    key = await importPrivateKey(files.merchantPrivateKeyPem);
    const start = async (rateLimits: boolean, extra: readonly string[]): Promise<Side> => {
      const engine = await createNodeEngine({rateLimits});
      const server = await startSandboxServer({engine, port: 0});
      started.servers.push(() => server.close());
      const prism = await startPrism(`${server.url}/v1`, extra);
      started.proxies.push(prism);
      return {engine, server, prism};
    };
    const startCanary = async () => {
      // Every answer: an envelope whose requestId breaks the contract's pattern.
      const stub = http.createServer((_, response) => {
        response.writeHead(404, {'Content-Type': 'application/json', 'X-Request-Id': 'req_canary'});
        response.end('{"code":"ORDER_NOT_FOUND","message":"Order not found","requestId":"req_canary"}');
      });
      await new Promise<void>((resolve) => stub.listen(0, '127.0.0.1', resolve));
      started.servers.push(() => new Promise((resolve) => stub.close(resolve)));
      const prism = await startPrism(`http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1`, []);
      started.proxies.push(prism);
      return {stub, prism};
    };
    [strict, lenient, canary] = await Promise.all([start(false, []), start(true, ['--validate-request=false']), startCanary()]);
  });

  after(async () => {
    // Proxies first (they hold connections to the servers), then the servers.
    await Promise.all(started.proxies.map((prism) => prism.stop()));
    await Promise.all(started.servers.map((close) => close()));
  });

  test('Prism catches a response that breaks the contract (the canary)', async () => {
    const target = '/orders/ORD-canary-0001';
    const timestamp = isoSeconds(Date.now());
    const nonce = randomUUID();
    const signature = await signCanonical(
      canonicalString({method: 'GET', pathWithQuery: `/v1${target}`, clientId: merchant, timestamp, nonce, body: ''}),
      key,
    );
    const response = await fetch(`http://127.0.0.1:${canary.prism.port}${target}`, {
      headers: {
        'X-Client-Id': merchant,
        'X-Timestamp': timestamp,
        'X-Nonce': nonce,
        'X-Signature': formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: 1, signature}),
      },
    });
    const text = await response.text();
    assert.equal(response.status, 500, text);
    assert.match(response.headers.get('content-type') ?? '', /^application\/problem\+json/);
    assert.match(response.headers.get('sl-violations') ?? '', /requestId must match pattern/);
    await canary.prism.quiet();
    assert.match(canary.prism.output(), /Request terminated with error: \S+#VIOLATIONS/);
  });

  /** A signed API call through a side's Prism: `apiPath` is the contract's path, without /v1. */
  async function api(side: Side, label: string, method: string, apiPath: string, body?: unknown, options: CallOptions = {}): Promise<Call> {
    const raw = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
    const target = `/v1${apiPath}`;
    const clientId = options.clientId ?? merchant;
    const timestamp = options.timestamp ?? isoSeconds(side.engine.clock.now());
    const nonce = options.nonce ?? randomUUID();
    const signature = await signCanonical(
      canonicalString({method, pathWithQuery: target, clientId, timestamp, nonce, body: options.signBody ?? raw}),
      key,
    );
    const response = await fetch(`http://127.0.0.1:${side.prism.port}${apiPath}`, {
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
    const text = await response.text();
    let json: Call['json'] = {};
    try {
      json = JSON.parse(text) as Call['json'];
    } catch {
      // Checked below: every answer is JSON.
    }
    const problems: string[] = [];
    const violations = response.headers.get('sl-violations');
    if (violations) problems.push(`Prism: ${violations.slice(0, 600)}`);
    if (!/^application\/json/.test(response.headers.get('content-type') ?? ''))
      problems.push(`Prism answered itself (${response.headers.get('content-type')}): ${text.slice(0, 600)}`);
    const pointer = operationPointerFor(method, target);
    if (!pointer) problems.push(`${method} ${target} is no operation of the contract`);
    const checked = await responseProblems(
      {method, target, clientId, timestamp, nonce},
      {
        status: response.status,
        headers: {
          'X-Signature': response.headers.get('x-signature') ?? '',
          'X-Timestamp': response.headers.get('x-timestamp') ?? '',
          'X-Nonce': response.headers.get('x-nonce') ?? '',
        },
        body: text,
      },
      pointer,
    );
    problems.push(...checked);
    const operationId = pointer
      ? files.spec.operations.find(
          (operation) =>
            `/paths/${operation.path.slice(files.spec.basePath.length).replace(/~/g, '~0').replace(/\//g, '~1')}/${operation.method.toLowerCase()}` ===
            pointer,
        )?.operationId
      : undefined;
    return {label, operationId, status: response.status, headers: response.headers, text, json, problems};
  }

  /** Asserts the code, its HTTP status and a clean answer; records what the tour has seen. */
  function expectCode(call: Call, code: string): Call {
    assert.equal(call.json.code, code, `${call.label}: expected ${code}, got HTTP ${call.status} ${call.text.slice(0, 400)}`);
    assert.equal(call.status, catalogue.get(code), `${call.label}: ${code} with HTTP ${call.status}`);
    assert.deepEqual(call.problems, [], `${call.label}: the answer is clean`);
    seenCodes.set(code, [...(seenCodes.get(code) ?? []), call.label]);
    if (call.operationId) seenOperations.add(call.operationId);
    return call;
  }

  /** A control endpoint of a side's server, straight, not through Prism (they are not in the contract). */
  async function control(side: Side, method: string, target: string, body?: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(`${side.server.url}${target}`, {method, ...(body === undefined ? {} : {body: JSON.stringify(body)})});
    const text = await response.text();
    assert.equal(response.status, 200, `${method} ${target}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  }

  const number = (prefix: string) => `${prefix}-${randomUUID().slice(0, 18)}`;
  const hosted = (merchantOrderNo: string, value = 1000, extra: Record<string, unknown> = {}) => ({
    merchantOrderNo,
    amount: {value, currency: 'USD'},
    scene: 'HOSTED_PAYPAGE',
    subject: 'Prism tour',
    returnUrl: 'https://shop.example.com/return',
    ...extra,
  });
  const range = (side: Side) => {
    const now = side.engine.clock.now();
    // URLSearchParams writes ":" as %3A, as the contract asks: the target Prism forwards is the one signed.
    return `createdFrom=${encodeURIComponent(isoSeconds(now - 86_400_000))}&createdTo=${encodeURIComponent(isoSeconds(now + 60_000))}`;
  };

  test('tours every operation and every result code through Prism without a violation', async (t) => {
    const started = Date.now();
    const s = () => strict;
    const pay = (merchantOrderNo: string) =>
      control(strict, 'POST', '/_sandbox/shopper/pay', {
        clientId: merchant,
        merchantOrderNo,
        method: 'CARD',
        cardNumber: '4000000000000002',
      });

    // ---- Orders: create, look up, list, adjust, pay, refund --------------------------------------------
    const paid = number('ORD');
    expectCode(
      await api(s(), 'Create order', 'POST', '/orders', hosted(paid, 1000, {notifyUrl: 'https://shop.example.com/payments/notify'})),
      'SUCCESS',
    );
    expectCode(await api(s(), 'Create order again, another body', 'POST', '/orders', hosted(paid, 2000)), 'IDEMPOTENCY_CONFLICT');
    expectCode(await api(s(), 'Retrieve order detail', 'GET', `/orders/${paid}`), 'SUCCESS');
    expectCode(await api(s(), 'Retrieve an unknown order', 'GET', `/orders/${number('NONE')}`), 'ORDER_NOT_FOUND');
    expectCode(await api(s(), 'Query order page', 'GET', `/orders?${range(s())}&pageSize=100`), 'SUCCESS');
    expectCode(await api(s(), 'Query order page without a range', 'GET', '/orders?pageSize=10'), 'INVALID_PARAMETER');
    expectCode(await api(s(), 'Get cashier URL', 'POST', `/orders/${paid}/cashier-url`, {locale: 'de-DE'}), 'SUCCESS');
    expectCode(
      await api(s(), 'Adjust order expiry time', 'POST', `/orders/${paid}/expiry-time`, {
        expiresAt: isoSeconds(s().engine.clock.now() + 7200_000),
      }),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Adjust expiry to 30 s from now', 'POST', `/orders/${paid}/expiry-time`, {
        expiresAt: isoSeconds(s().engine.clock.now() + 30_000),
      }),
      'EXPIRY_OUT_OF_RANGE',
    );
    expectCode(await api(s(), 'Retrieve the payer of an unpaid order', 'GET', `/orders/${paid}/payer`), 'ORDER_NOT_PAID');
    await pay(paid);
    expectCode(await api(s(), 'Retrieve order payer', 'GET', `/orders/${paid}/payer`), 'SUCCESS');
    expectCode(await api(s(), 'Cancel a paid order', 'POST', `/orders/${paid}/cancel`, {reason: 'Too late'}), 'ORDER_ALREADY_PAID');
    const refundNo = number('RFD');
    expectCode(
      await api(s(), 'Refund order', 'POST', `/orders/${paid}/refunds`, {
        merchantRefundNo: refundNo,
        amount: {value: 100, currency: 'USD'},
        reason: 'One item returned',
      }),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Refund again, another amount', 'POST', `/orders/${paid}/refunds`, {
        merchantRefundNo: refundNo,
        amount: {value: 200, currency: 'USD'},
        reason: 'One item returned',
      }),
      'IDEMPOTENCY_CONFLICT',
    );
    expectCode(
      await api(s(), 'Refund more than is refundable', 'POST', `/orders/${paid}/refunds`, {
        merchantRefundNo: number('RFD'),
        amount: {value: 5000, currency: 'USD'},
      }),
      'REFUND_AMOUNT_EXCEEDED',
    );
    expectCode(
      await api(s(), 'Refund with amount ending 51', 'POST', `/orders/${paid}/refunds`, {
        merchantRefundNo: number('RFD'),
        amount: {value: 151, currency: 'USD'},
      }),
      'INSUFFICIENT_BALANCE',
    );
    expectCode(await api(s(), 'Query refund', 'GET', `/refunds/${refundNo}`), 'SUCCESS');
    expectCode(await api(s(), 'Query an unknown refund', 'GET', `/refunds/${number('NONE')}`), 'REFUND_NOT_FOUND');
    expectCode(await api(s(), 'Query refund page', 'GET', `/refunds?${range(s())}&merchantOrderNo=${paid}`), 'SUCCESS');

    const unpaid = number('ORD');
    expectCode(await api(s(), 'Create an order to leave unpaid', 'POST', '/orders', hosted(unpaid)), 'SUCCESS');
    expectCode(
      await api(s(), 'Refund an unpaid order', 'POST', `/orders/${unpaid}/refunds`, {
        merchantRefundNo: number('RFD'),
        amount: {value: 100, currency: 'USD'},
      }),
      'ORDER_NOT_PAID',
    );
    expectCode(await api(s(), 'Cancel order', 'POST', `/orders/${unpaid}/cancel`, {reason: 'Customer changed their mind'}), 'SUCCESS');
    expectCode(await api(s(), 'Get a cashier URL for a closed order', 'POST', `/orders/${unpaid}/cashier-url`, {}), 'ORDER_CLOSED');

    const revoked = number('ORD');
    expectCode(await api(s(), 'Create an order to revoke', 'POST', '/orders', hosted(revoked)), 'SUCCESS');
    expectCode(await api(s(), 'Revoke order', 'POST', `/orders/${revoked}/revoke`, {reason: 'Till timed out'}), 'SUCCESS');
    const blocked = number('ORD');
    expectCode(await api(s(), 'Revoke an order number never used', 'POST', `/orders/${blocked}/revoke`, {}), 'ORDER_NOT_FOUND');
    expectCode(await api(s(), 'Create an order with the revoked number', 'POST', '/orders', hosted(blocked)), 'ORDER_CLOSED');

    const processing = number('ORD');
    const qrPay = {
      merchantOrderNo: processing,
      amount: {value: 2591, currency: 'USD'},
      scene: 'QR_PAY',
      subject: 'Store 12 basket',
      payerPaymentCode: '286510000000000001',
      storeId: 'store-12',
      terminalId: 'till-03',
    };
    expectCode(await api(s(), 'Create a QR_PAY order, amount ending 91 (attempt unanswered)', 'POST', '/orders', qrPay), 'SUCCESS');
    expectCode(
      await api(s(), 'Cancel an order whose payment is processing', 'POST', `/orders/${processing}/cancel`, {}),
      'ORDER_PROCESSING',
    );

    expectCode(await api(s(), 'Create order, amount ending 59', 'POST', '/orders', hosted(number('ORD'), 1059)), 'RISK_REJECTED');
    expectCode(
      await api(s(), 'Create order above the sandbox limit', 'POST', '/orders', hosted(number('ORD'), 20_000_000)),
      'AMOUNT_LIMIT_EXCEEDED',
    );
    expectCode(
      await api(s(), 'Create order in CHF', 'POST', '/orders', {...hosted(number('ORD')), amount: {value: 1000, currency: 'CHF'}}),
      'PERMISSION_DENIED',
    );
    expectCode(
      await api(s(), 'Create a DIRECT_PAY order with an unknown agreement token', 'POST', '/orders', {
        merchantOrderNo: number('ORD'),
        amount: {value: 1000, currency: 'USD'},
        scene: 'DIRECT_PAY',
        subject: 'Subscription',
        payerAgreementToken: 'agt_UnknownWalletToken000000',
      }),
      'AGREEMENT_INVALID',
    );

    // ---- A chargeback, and events -----------------------------------------------------------------------
    const disputed = number('ORD');
    expectCode(await api(s(), 'Create an order to dispute', 'POST', '/orders', hosted(disputed)), 'SUCCESS');
    await pay(disputed);
    await control(strict, 'POST', '/_sandbox/chargebacks', {clientId: merchant, merchantOrderNo: disputed});
    expectCode(
      await api(s(), 'Refund an order with an open chargeback', 'POST', `/orders/${disputed}/refunds`, {
        merchantRefundNo: number('RFD'),
        amount: {value: 100, currency: 'USD'},
      }),
      'ORDER_DISPUTED',
    );

    const silent = number('ORD');
    expectCode(await api(s(), 'Create an order without notifyUrl', 'POST', '/orders', hosted(silent)), 'SUCCESS');
    await pay(silent);
    const events = expectCode(await api(s(), 'List events', 'GET', `/events?${range(s())}&eventType=ORDER.PAID&pageSize=100`), 'SUCCESS');
    const eventOf = (merchantOrderNo: string) =>
      ((events.json.data?.['events'] ?? []) as Array<{notificationId: string; notification: {data: {merchantOrderNo?: string}}}>).find(
        (event) => event.notification.data.merchantOrderNo === merchantOrderNo,
      )?.notificationId;
    expectCode(await api(s(), 'Redeliver event', 'POST', `/events/${eventOf(paid)}/redeliver`), 'SUCCESS');
    expectCode(
      await api(s(), 'Redeliver an event no URL applies to', 'POST', `/events/${eventOf(silent)}/redeliver`),
      'NOTIFY_URL_MISSING',
    );
    expectCode(await api(s(), 'Redeliver an unknown event', 'POST', '/events/ntf_UnknownUnknownUnknow/redeliver'), 'EVENT_NOT_FOUND');

    // ---- Wallet transfers -------------------------------------------------------------------------------
    const transferNo = number('TRF');
    expectCode(
      await api(s(), 'Transfer', 'POST', '/transfers', {
        merchantTransferNo: transferNo,
        amount: {value: 1000, currency: 'USD'},
        payee: {payeeType: 'WALLET_ID', walletId: '880000000001'},
        remark: 'Prism tour',
      }),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Transfer to an unknown wallet', 'POST', '/transfers', {
        merchantTransferNo: number('TRF'),
        amount: {value: 1000, currency: 'USD'},
        payee: {payeeType: 'WALLET_ID', walletId: '889999999999'},
      }),
      'PAYEE_ACCOUNT_INVALID',
    );
    expectCode(await api(s(), 'Query transfer', 'GET', `/transfers/${transferNo}`), 'SUCCESS');
    expectCode(await api(s(), 'Query an unknown transfer', 'GET', `/transfers/${number('NONE')}`), 'TRANSFER_NOT_FOUND');
    expectCode(await api(s(), 'List transfers', 'GET', `/transfers?${range(s())}`), 'SUCCESS');

    // ---- Bank transfers ---------------------------------------------------------------------------------
    expectCode(await api(s(), 'List countries and currencies', 'GET', '/bank-corridors?country=DE'), 'SUCCESS');
    expectCode(
      await api(s(), 'Get IBAN holder name', 'POST', '/bank-transfers/iban-holder-name', {iban: 'DE89370400440532013000'}),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Get IBAN holder name, wrong check digits', 'POST', '/bank-transfers/iban-holder-name', {
        iban: 'DE89370400440532013001',
      }),
      'IBAN_INVALID',
    );
    expectCode(
      await api(s(), 'Get IBAN holder name, a Swiss IBAN', 'POST', '/bank-transfers/iban-holder-name', {iban: 'CH9300762011623852957'}),
      'CORRIDOR_NOT_SUPPORTED',
    );
    const quote = expectCode(
      await api(s(), 'Calculate rate', 'POST', '/bank-transfers/quotes', {
        sourceCurrency: 'USD',
        destinationCountry: 'DE',
        destinationCurrency: 'EUR',
        sourceAmount: {value: 100000, currency: 'USD'},
      }),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Calculate rate below the corridor', 'POST', '/bank-transfers/quotes', {
        sourceCurrency: 'USD',
        destinationCountry: 'DE',
        destinationCurrency: 'EUR',
        destinationAmount: {value: 50, currency: 'EUR'},
      }),
      'AMOUNT_LIMIT_EXCEEDED',
    );
    const germany = {name: 'Lena Hartmann', country: 'DE', account: {accountType: 'IBAN', iban: 'DE89370400440532013000'}};
    const quoted = (quoteId: unknown, value: number) => ({
      merchantTransferNo: number('BTR'),
      destinationCurrency: 'EUR',
      quoteId,
      amount: {value, currency: 'USD'},
      beneficiary: germany,
      purpose: 'SUPPLIER_PAYMENT',
    });
    expectCode(
      await api(
        s(),
        'Transfer to bank with another amount than quoted',
        'POST',
        '/bank-transfers',
        quoted(quote.json.data?.['quoteId'], 100_001),
      ),
      'QUOTE_MISMATCH',
    );
    const bankNo = number('BTR');
    const britain = {
      name: 'Oliver Pembridge',
      country: 'GB',
      account: {accountType: 'ACCOUNT_NUMBER', accountNumber: '31926819', routingCode: '601613'},
    };
    expectCode(
      await api(s(), 'Transfer to bank', 'POST', '/bank-transfers', {
        merchantTransferNo: bankNo,
        destinationCurrency: 'GBP',
        amount: {value: 180000, currency: 'GBP'},
        beneficiary: britain,
        purpose: 'SALARY',
        remark: 'June salary',
      }),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Transfer to bank, another name', 'POST', '/bank-transfers', {
        merchantTransferNo: number('BTR'),
        destinationCurrency: 'GBP',
        amount: {value: 180000, currency: 'GBP'},
        beneficiary: {...britain, name: 'Someone Else'},
        purpose: 'SALARY',
      }),
      'PAYEE_NAME_MISMATCH',
    );
    expectCode(await api(s(), 'Query transfer to bank', 'GET', `/bank-transfers/${bankNo}`), 'SUCCESS');
    expectCode(await api(s(), 'List bank transfers', 'GET', `/bank-transfers?${range(s())}`), 'SUCCESS');
    const stale = expectCode(
      await api(s(), 'Calculate rate for a quote to let expire', 'POST', '/bank-transfers/quotes', {
        sourceCurrency: 'USD',
        destinationCountry: 'DE',
        destinationCurrency: 'EUR',
        sourceAmount: {value: 100000, currency: 'USD'},
      }),
      'SUCCESS',
    );
    await control(strict, 'POST', '/_sandbox/clock/advance', {seconds: files.spec.sandbox.exchange.quoteValidSeconds + 1});
    expectCode(
      await api(s(), 'Transfer to bank with an expired quote', 'POST', '/bank-transfers', quoted(stale.json.data?.['quoteId'], 100_000)),
      'QUOTE_EXPIRED',
    );

    // ---- Card payouts -----------------------------------------------------------------------------------
    expectCode(
      await api(s(), 'Verify card payout eligibility', 'POST', '/card-payouts/eligibility', {
        cardNumber: '4000000000000002',
        currency: 'EUR',
      }),
      'SUCCESS',
    );
    const cardNo = number('CPO');
    const card = (cardNumber: string) => ({cardNumber, expiryMonth: 12, expiryYear: 2030, holderName: 'Jonas Becker'});
    expectCode(
      await api(s(), 'Transfer to bank card', 'POST', '/card-payouts', {
        merchantTransferNo: cardNo,
        amount: {value: 15000, currency: 'EUR'},
        card: card('4000000000000002'),
        remark: 'Seller payout',
      }),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Transfer to a credit card', 'POST', '/card-payouts', {
        merchantTransferNo: number('CPO'),
        amount: {value: 15000, currency: 'EUR'},
        card: card('5555555555554444'),
      }),
      'CARD_NOT_ELIGIBLE',
    );
    expectCode(await api(s(), 'Query bank card transfer', 'GET', `/card-payouts/${cardNo}`), 'SUCCESS');
    expectCode(await api(s(), 'List card payouts', 'GET', `/card-payouts?${range(s())}`), 'SUCCESS');

    // ---- Balance, statements, agreements, wallet auth ---------------------------------------------------
    expectCode(await api(s(), 'Get balance', 'GET', '/balances?currency=USD'), 'SUCCESS');
    const now = s().engine.clock.now();
    expectCode(await api(s(), 'Download statement', 'GET', `/statements/${utcDay(now - 2 * 86_400_000)}?currency=USD`), 'SUCCESS');
    expectCode(await api(s(), "Download today's statement", 'GET', `/statements/${utcDay(now)}`), 'STATEMENT_NOT_READY');
    const agreementNo = number('AGR');
    expectCode(
      await api(s(), 'Create agreement', 'POST', '/agreements', {
        merchantAgreementNo: agreementNo,
        description: 'Monthly coffee',
        returnUrl: 'https://shop.example.com/account',
      }),
      'SUCCESS',
    );
    expectCode(await api(s(), 'Query agreement', 'GET', `/agreements/${agreementNo}`), 'SUCCESS');
    expectCode(await api(s(), 'Cancel agreement', 'POST', `/agreements/${agreementNo}/cancel`, {reason: 'Subscription ended'}), 'SUCCESS');
    expectCode(await api(s(), 'Query an unknown agreement', 'GET', `/agreements/${number('NONE')}`), 'AGREEMENT_NOT_FOUND');
    expectCode(
      await api(s(), 'Exchange wallet auth code', 'POST', '/wallet-auth/token', {authCode: 'wac_Sandbox0001AuthCode0'}),
      'SUCCESS',
    );
    expectCode(
      await api(s(), 'Exchange an unknown auth code', 'POST', '/wallet-auth/token', {authCode: 'wac_UnknownUnknownUnknow'}),
      'AUTH_CODE_INVALID',
    );

    // ---- Signing, size and faults -----------------------------------------------------------------------
    expectCode(
      await api(s(), 'A signature over another body', 'POST', '/orders', hosted(number('ORD')), {
        signBody: JSON.stringify(hosted(number('ORD'))),
      }),
      'INVALID_SIGNATURE',
    );
    expectCode(
      await api(s(), 'A timestamp 10 minutes old', 'GET', '/balances', undefined, {
        timestamp: isoSeconds(s().engine.clock.now() - 600_000),
      }),
      'TIMESTAMP_OUT_OF_WINDOW',
    );
    const nonce = randomUUID();
    expectCode(await api(s(), 'Get balance with a fresh nonce', 'GET', '/balances', undefined, {nonce}), 'SUCCESS');
    expectCode(await api(s(), 'Get balance with the same nonce', 'GET', '/balances', undefined, {nonce}), 'NONCE_REUSED');
    expectCode(await api(s(), 'An unknown client ID', 'GET', '/balances', undefined, {clientId: 'nobody-here-0000'}), 'UNKNOWN_CLIENT');
    await control(strict, 'POST', '/_sandbox/faults', {resultCode: 'SYSTEM_BUSY', operationId: 'getBalance', count: 1});
    const busy = expectCode(await api(s(), 'Get balance with SYSTEM_BUSY set', 'GET', '/balances'), 'SYSTEM_BUSY');
    assert.match(busy.headers.get('retry-after') ?? '', /^[1-9]\d*$/, 'SYSTEM_BUSY carries Retry-After');
    await control(strict, 'POST', '/_sandbox/faults', {resultCode: 'INTERNAL_ERROR', operationId: 'getBalance', count: 1});
    expectCode(await api(s(), 'Get balance with INTERNAL_ERROR set', 'GET', '/balances'), 'INTERNAL_ERROR');

    // ---- The lenient proxy: a request the contract refuses, and rate limits -----------------------------
    const l = () => lenient;
    // Over every maxLength of the contract (returnUrl takes 2048), so only the lenient proxy forwards it, over 64 KiB.
    expectCode(
      await api(
        l(),
        'A Create order body over 64 KiB',
        'POST',
        '/orders',
        hosted(number('ORD'), 1000, {returnUrl: `https://shop.example.com/${'a'.repeat(70_000)}`}),
      ),
      'REQUEST_TOO_LARGE',
    );
    expectCode(
      await api(l(), 'Create a QR_PAY order without its scene fields', 'POST', '/orders', {
        merchantOrderNo: number('ORD'),
        amount: {value: 1000, currency: 'USD'},
        scene: 'QR_PAY',
        subject: 'Store 12 basket',
      }),
      'SCENE_PARAMETERS_MISSING',
    );
    // The statements class allows one call a second: of four at once, at least two fall in the same second.
    const burst = await Promise.all(
      Array.from({length: 4}, (_, index) =>
        api(l(), `Download statement, burst ${index + 1}`, 'GET', `/statements/${utcDay(l().engine.clock.now())}`),
      ),
    );
    const limited = burst.filter((call) => call.json.code === 'RATE_LIMITED');
    assert.ok(limited.length > 0, `four statement downloads at once: ${burst.map((call) => call.json.code).join(', ')}`);
    for (const call of limited) {
      expectCode(call, 'RATE_LIMITED');
      assert.match(call.headers.get('retry-after') ?? '', /^[1-9]\d*$/, 'RATE_LIMITED carries Retry-After');
    }

    // ---- A year on --------------------------------------------------------------------------------------
    await control(strict, 'POST', '/_sandbox/clock/advance', {seconds: 366 * 86_400});
    expectCode(
      await api(s(), 'Refund an order paid 366 days ago', 'POST', `/orders/${paid}/refunds`, {
        merchantRefundNo: number('RFD'),
        amount: {value: 100, currency: 'USD'},
      }),
      'REFUND_PERIOD_EXPIRED',
    );
    t.diagnostic(`tour: ${[...seenCodes.values()].flat().length} calls through Prism in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  });

  test('saw every result code of x-result-codes and every operation of the contract', () => {
    assert.deepEqual(
      [...catalogue.keys()].filter((code) => !seenCodes.has(code)),
      [],
      'result codes the tour did not produce',
    );
    assert.deepEqual(
      contractOperations.filter((operationId) => !seenOperations.has(operationId)),
      [],
      'operations the tour did not call',
    );
    assert.equal(contractOperations.length, 32);
    assert.equal(catalogue.size, seenCodes.size);
  });

  test('Prism logged no violation and no error of its own', async () => {
    await Promise.all([strict.prism.quiet(), lenient.prism.quiet()]);
    for (const [name, side] of [
      ['strict', strict],
      ['lenient', lenient],
    ] as const) {
      const lines = side.prism.output().split('\n');
      assert.deepEqual(
        lines.filter((line) => /violation|Request terminated with error|✖/i.test(line)),
        [],
        `prism proxy (${name}) printed violations or errors`,
      );
      assert.ok(
        lines.some((line) => /Received forward response|upstream call to/i.test(line)),
        `prism proxy (${name}) forwarded calls`,
      );
    }
  });
});
