/**
 * The MCP server through the SDK's own client (in-memory transport): every tool with good and bad input,
 * and a payment journey through the sandbox tools. Bad input must come back as a tool error (isError) with
 * a sentence that says what is wrong, and the server must keep answering afterwards.
 */
import assert from 'node:assert/strict';
import {mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {after, before, describe, test} from 'node:test';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {sampleLanguages} from '../../src/lib/samples';
import {actionToolName} from '../../src/sandbox/hosts/mcp/actionTools';
import {clockStepLimitSeconds, sandboxActions, shopperFixtures} from '../../src/sandbox/actions';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {controlEndpoints} from '../../src/sandbox/hosts/server/server';
import {call, callJson, connect} from './connect';

let client: Client;
let close: () => Promise<void>;
let logs: string[];

before(async () => {
  ({client, close, logs} = await connect());
});

after(async () => {
  await close();
});

/** A tool call that must fail as a tool error whose text matches `pattern`. */
async function rejects(name: string, args: Record<string, unknown>, pattern: RegExp): Promise<string> {
  const result = await call(client, name, args);
  assert.equal(
    result.isError,
    true,
    `${name} ${JSON.stringify(args).slice(0, 200)} should be a tool error, got: ${result.text.slice(0, 300)}`,
  );
  assert.match(result.text, pattern);
  return result.text;
}

const runId = Date.now().toString(36).toUpperCase();
const orderBody = (merchantOrderNo: string) => ({
  merchantOrderNo,
  amount: {value: 1000, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'MCP journey',
  returnUrl: 'https://shop.example.com/return',
  notifyUrl: 'https://shop.example.com/payments/notify',
});

interface RequestAnswer {
  status: number;
  body: {code: string; message: string; data?: Record<string, unknown>};
  responseSignatureVerified: boolean;
  canonicalRequest: string;
  notificationsReceived: number;
}

interface Notification {
  seq: number;
  eventType: string;
  url: string;
  headers: Record<string, string>;
  body: {eventType: string; notificationId: string; data: Record<string, unknown>};
  verified: boolean;
}

/** The tools that are not sandbox actions: the docs, the contract, signed requests, the inbox and the signature check. */
const otherTools = ['get_operation', 'read_page', 'sandbox_notifications', 'sandbox_request', 'search_docs', 'verify_signature'];
/** Every tool the server must list: those, and one per declared action. */
const expectedTools = [...otherTools, ...sandboxActions.map(actionToolName)].sort();
const fixtures = shopperFixtures(sandboxFiles().spec.sandbox);

interface ActionAnswer<T = Record<string, unknown>> {
  action: string;
  result: T;
  notificationsReceived: number;
  notifications: Notification[];
}

describe('the MCP server lists its tools', () => {
  test('action tool names follow the action names', () => {
    assert.equal(actionToolName({name: 'shopper.pay'}), 'sandbox_shopper_pay');
    assert.equal(actionToolName({name: 'control.simulateNotification'}), 'sandbox_control_simulate_notification');
    assert.equal(actionToolName({name: 'clock.advance'}), 'sandbox_clock_advance');
    assert.equal(new Set(sandboxActions.map(actionToolName)).size, sandboxActions.length, 'no two actions share a tool name');
  });

  test('every declared action is a route of the local server AND a tool whose schema has exactly its members', async () => {
    const {tools} = await client.listTools();
    for (const action of sandboxActions) {
      assert.ok(
        controlEndpoints.some((endpoint) => endpoint.method === action.method && endpoint.path === action.path),
        `${action.name} is a route`,
      );
      const tool = tools.find((candidate) => candidate.name === actionToolName(action));
      assert.ok(tool, `${action.name} is the tool ${actionToolName(action)}`);
      assert.deepEqual(Object.keys(tool.inputSchema.properties ?? {}).sort(), Object.keys(action.input).sort(), action.name);
      assert.ok((tool.description ?? '').includes(action.does), `${action.name}: the description says what it does`);
      const required = Object.entries(action.input)
        .filter(([name, spec]) => !('optional' in spec) && name !== 'clientId' && name !== 'notifyUrl')
        .map(([name]) => name);
      assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), required.sort(), `${action.name}: required members`);
    }
  });

  test('the MCP server page names every tool', () => {
    const page = readFileSync(path.join(__dirname, '..', '..', 'docs', 'mcp-server.mdx'), 'utf8');
    for (const name of expectedTools) assert.ok(page.includes(`\`${name}\``), `docs/mcp-server.mdx names ${name}`);
  });

  test('every tool has a description that says what it does; the sandbox ones say they are the sandbox only', async () => {
    const {tools} = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), expectedTools);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 120, `${tool.name} needs a precise description`);
      assert.equal(tool.inputSchema.type, 'object');
      if (tool.name.startsWith('sandbox_')) assert.match(tool.description ?? '', /Sandbox only/);
    }
  });
});

describe('docs tools', () => {
  test('search_docs ranks the page whose title has the words first, with its URL, twin URL and a snippet', async () => {
    const answer = await callJson<{results: Array<{title: string; path: string; url: string; markdownUrl: string; snippet: string}>}>(
      client,
      'search_docs',
      {query: 'Create ORDER', limit: 5},
    );
    assert.ok(answer.results.length > 0 && answer.results.length <= 5);
    const top = answer.results.slice(0, 3).find((hit) => hit.path === '/docs/createorder');
    assert.ok(top, `createorder should be in the top 3: ${answer.results.map((hit) => hit.path).join(', ')}`);
    assert.equal(top.url, 'https://developers.example.com/docs/createorder');
    assert.equal(top.markdownUrl, 'https://developers.example.com/docs/createorder.md');
    assert.ok(top.snippet.length > 20);
    const none = await callJson<{results: unknown[]}>(client, 'search_docs', {query: 'zzqxv-no-such-word'});
    assert.deepEqual(none.results, []);
  });

  test('search_docs: bad input is a tool error', async () => {
    await rejects('search_docs', {query: 42}, /query must be text/);
    await rejects('search_docs', {query: '   '}, /query is empty/);
    await rejects('search_docs', {query: 'refund', limit: 500}, /limit must be 1 to 25/);
    await rejects('search_docs', {}, /query must be text/);
  });

  test('read_page reads a twin by path, .md URL or full URL, and names close paths for an unknown one', async () => {
    for (const reference of [
      '/docs/createorder',
      '/docs/createorder.md',
      'https://developers.example.com/docs/createorder#request',
      'docs/createorder/',
    ]) {
      const page = await call(client, 'read_page', {path: reference});
      assert.equal(page.isError, false, `${reference}: ${page.text.slice(0, 200)}`);
      assert.match(page.text, /Create order/);
      assert.match(page.texts[1] ?? '', /"markdownUrl":"https:\/\/developers\.example\.com\/docs\/createorder\.md"/);
    }
    await rejects('read_page', {path: '/docs/creatorder'}, /No page has the path \/docs\/creatorder\. Close paths: \/docs\/createorder/);
    await rejects('read_page', {path: 'https://evil.example.net/docs/createorder'}, /is not the portal/);
    await rejects('read_page', {path: ''}, /path is empty/);
  });

  test('without a built site the docs tools say to run npm run build; the other tools still work', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'mcp-no-docs-'));
    const bare = await connect({docsDir: empty});
    try {
      for (const [tool, args] of [
        ['search_docs', {query: 'refund'}],
        ['read_page', {path: '/docs/createorder'}],
      ] as const) {
        const result = await call(bare.client, tool, args);
        assert.equal(result.isError, true);
        assert.match(result.text, /The docs are not built: .*npm run build/);
      }
      const operation = await callJson(bare.client, 'get_operation', {operationId: 'getBalance'});
      assert.equal(operation['path'], '/v1/balances');
    } finally {
      await bare.close();
      rmSync(empty, {recursive: true, force: true});
    }
  });
});

describe('get_operation', () => {
  test('returns the contract slice, with the extensions that apply, and the sample in the chosen language', async () => {
    const answer = await call(client, 'get_operation', {operationId: 'createOrder', language: 'Go'});
    assert.equal(answer.isError, false, answer.text);
    const slice = JSON.parse(answer.text) as Record<string, unknown>;
    assert.equal(slice['method'], 'POST');
    assert.equal(slice['path'], '/v1/orders');
    assert.equal(slice['summary'], 'Create order');
    const body = slice['requestBody'] as {schema: {properties?: Record<string, unknown>; oneOf?: unknown[]; allOf?: unknown[]}};
    assert.ok(!JSON.stringify(body.schema).includes('"$ref":"#/components/schemas/Money"'), 'Money is resolved');
    assert.ok((slice['resultCodes'] as Array<{code: string}>).some((code) => code.code === 'IDEMPOTENCY_CONFLICT'));
    assert.deepEqual(
      (slice['idempotency'] as {keys: Array<{field: string}>}).keys.map((key) => key.field),
      ['merchantOrderNo'],
    );
    assert.equal((slice['rateLimit'] as {class: string}).class, 'writes');
    assert.ok((slice['stateMachines'] as Array<{schemaName: string}>).length > 0, 'the order state machine applies');
    assert.match(answer.texts[1] ?? '', /Code sample \(go, /);
    assert.match(answer.texts[1] ?? '', /package main/);
    const webhook = await callJson(client, 'get_operation', {operationId: 'paymentResultNotification'});
    assert.equal(webhook['kind'], 'webhook');
    assert.ok(webhook['notificationDelivery']);
  });

  test('an unknown operationId lists the valid ones; a bad language lists the six', async () => {
    const text = await rejects(
      'get_operation',
      {operationId: 'createOrdr'},
      /createOrdr is not an operationId of the contract \(did you mean createOrder/,
    );
    assert.match(text, /refundOrder/);
    const language = await rejects('get_operation', {operationId: 'createOrder', language: 'rust'}, /language must be one of/);
    for (const name of sampleLanguages) assert.ok(language.includes(name), name);
    await rejects('get_operation', {operationId: 7}, /operationId must be text/);
  });
});

describe('a payment journey through the sandbox tools', () => {
  const merchantOrderNo = `ORD-MCP-${runId}`;

  test('create, pay as the shopper, retrieve PAID, refund, advance the clock, read ORDER.PAID and REFUND.SUCCEEDED, each verified', async () => {
    const created = await callJson<RequestAnswer>(client, 'sandbox_request', {
      method: 'POST',
      path: '/v1/orders',
      body: orderBody(merchantOrderNo),
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.code, 'SUCCESS');
    assert.equal(created.responseSignatureVerified, true);
    assert.match(
      created.canonicalRequest,
      /^POST\n\/v1\/orders\nsandbox-merchant-0001\n\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\n[A-Za-z0-9-]{16,64}\n\{"merchantOrderNo"/,
    );

    const paid = await callJson<ActionAnswer<{status: string}>>(client, 'sandbox_shopper_pay', {
      merchantOrderNo,
      method: 'CARD',
      cardNumber: fixtures.payingCard,
    });
    assert.equal(paid.action, 'shopper.pay');
    assert.ok(['PAID', 'PROCESSING'].includes(paid.result.status), paid.result.status);
    await callJson(client, 'sandbox_clock_advance', {seconds: 5});

    const retrieved = await callJson<RequestAnswer>(client, 'sandbox_request', {method: 'GET', path: `/v1/orders/${merchantOrderNo}`});
    assert.equal(retrieved.body.data?.['status'], 'PAID');
    assert.equal(retrieved.responseSignatureVerified, true);

    const refund = await callJson<RequestAnswer>(client, 'sandbox_request', {
      method: 'POST',
      path: `/v1/orders/${merchantOrderNo}/refunds`,
      body: {merchantRefundNo: `RFD-MCP-${runId}`, amount: {value: 1000, currency: 'USD'}},
    });
    assert.equal(refund.body.code, 'SUCCESS', JSON.stringify(refund.body));
    assert.equal(refund.body.data?.['status'], 'PROCESSING');

    const advanced = await callJson<ActionAnswer<{now: string; jobsRun: number}>>(client, 'sandbox_clock_advance', {seconds: 60});
    assert.ok(advanced.result.jobsRun >= 1, 'the refund completes as a job');
    assert.match(advanced.result.now, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.ok(
      advanced.notifications.some((entry) => entry.eventType === 'REFUND.SUCCEEDED' && entry.verified),
      'the answer carries the notification the step caused, verified',
    );

    const inbox = await callJson<{notifications: Notification[]}>(client, 'sandbox_notifications', {});
    const types = inbox.notifications.map((entry) => entry.eventType);
    assert.ok(types.includes('ORDER.PAID'), types.join(', '));
    assert.ok(types.includes('REFUND.SUCCEEDED'), types.join(', '));
    for (const entry of inbox.notifications) {
      assert.equal(entry.verified, true, `${entry.eventType} verifies with the provider test key`);
      assert.equal(entry.url, 'https://shop.example.com/payments/notify');
    }
    const last = inbox.notifications.at(-1)?.seq ?? 0;
    const newer = await callJson<{count: number}>(client, 'sandbox_notifications', {since: last});
    assert.equal(newer.count, 0);

    const order = await callJson<RequestAnswer>(client, 'sandbox_request', {method: 'GET', path: `/v1/orders/${merchantOrderNo}`});
    assert.equal(order.body.data?.['status'], 'REFUNDED');
  });
});

describe('sandbox tools: bad input', () => {
  test('sandbox_request refuses paths outside the contract and says why; an API error is an answer, not a tool error', async () => {
    await rejects('sandbox_request', {method: 'GET', path: '/_sandbox/reset'}, /path must start with \/v1\//);
    await rejects('sandbox_request', {method: 'GET', path: 'https://sandbox-api.example.com/v1/orders'}, /path must start with \/v1\//);
    await rejects('sandbox_request', {method: 'GET', path: '/v1/../_sandbox/state'}, /without spaces, "\.\."/);
    await rejects('sandbox_request', {method: 'GET', path: '/v1/orders?pageNo=2'}, /put query parameters in `query`/);
    await rejects(
      'sandbox_request',
      {method: 'GET', path: '/v1/nothing-here'},
      /GET \/v1\/nothing-here is not an operation of the contract\. The operations are: .*POST \/v1\/orders/,
    );
    await rejects('sandbox_request', {method: 'DELETE', path: '/v1/orders'}, /\/v1\/orders takes GET or POST, not DELETE/);
    await rejects('sandbox_request', {method: 'GET', path: '/v1/balances', body: {a: 1}}, /is a GET: it takes no body/);
    await rejects('sandbox_request', {method: 'get', path: '/v1/balances'}, /method must be GET, POST, PUT, PATCH or DELETE/);
    const invalid = await callJson<RequestAnswer>(client, 'sandbox_request', {
      method: 'POST',
      path: '/v1/orders',
      body: {merchantOrderNo: 'x'},
    });
    assert.equal(invalid.status, 400);
    assert.equal(invalid.body.code, 'INVALID_PARAMETER');
    assert.equal(invalid.responseSignatureVerified, true, 'error responses are signed too');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const listed = await callJson<RequestAnswer>(client, 'sandbox_request', {
      method: 'GET',
      path: '/v1/orders',
      query: {createdFrom: day(-1), createdTo: day(1), pageNo: '1'},
    });
    assert.equal(listed.body.code, 'SUCCESS', JSON.stringify(listed.body));
    assert.match(
      listed.canonicalRequest.split('\n')[1] ?? '',
      /^\/v1\/orders\?createdFrom=\d{4}-\d\d-\d\dT\d\d%3A\d\d%3A\d\dZ&createdTo=.*&pageNo=1$/,
      'the signed target is the query as sent, percent-encoded',
    );
  });

  test('the shopper tools: a missing member, an unknown order, a declined attempt, an abandoned cashier', async () => {
    await rejects('sandbox_shopper_pay', {method: 'CARD'}, /merchantOrderNo is required: a non-empty string/);
    await rejects(
      'sandbox_shopper_pay',
      {merchantOrderNo: 'ORD-NOBODY-0001', method: 'CARD', cardNumber: fixtures.payingCard},
      /ORDER_NOT_FOUND/,
    );
    await rejects(
      'sandbox_shopper_pay',
      {merchantOrderNo: 'ORD-NOBODY-0001', method: 'CHEQUE'},
      /method must be one of WALLET, CARD, BANK_TRANSFER, CASH/,
    );
    await rejects('sandbox_shopper_pay_cash', {paymentReference: 'nope'}, /ORDER_NOT_FOUND: No cash order/);
    await rejects('sandbox_shopper_scan', {phone: fixtures.wallet.phone, pin: fixtures.wallet.pin}, /qrContent is required/);
    await rejects(
      'sandbox_shopper_authorize_agreement',
      {merchantAgreementNo: 'AGR-NOBODY-01', wallet: fixtures.wallet.phone},
      /AGREEMENT_NOT_FOUND|not found|No agreement/i,
    );
    const no = `ORD-MCP-DECL-${runId}`;
    await callJson(client, 'sandbox_request', {method: 'POST', path: '/v1/orders', body: orderBody(no)});
    await rejects('sandbox_shopper_pay', {merchantOrderNo: no, method: 'WALLET', pin: '000000'}, /phone is required/);
    const declined = await callJson<ActionAnswer<{status: string}>>(client, 'sandbox_shopper_pay', {
      merchantOrderNo: no,
      method: 'WALLET',
      phone: fixtures.wallet.phone,
      pin: '000000',
    });
    assert.equal(declined.result.status, 'PENDING', 'a wrong PIN leaves the order payable');
    const abandoned = await callJson<ActionAnswer<{status: string}>>(client, 'sandbox_shopper_abandon', {merchantOrderNo: no});
    assert.equal(abandoned.result.status, 'PENDING');
  });

  test('sandbox_clock_advance is bounded by the one clock-step limit and only goes forward', async () => {
    const range = new RegExp(`seconds is required: a number from 0 to ${clockStepLimitSeconds}`);
    await rejects('sandbox_clock_advance', {seconds: -1}, range);
    await rejects('sandbox_clock_advance', {seconds: clockStepLimitSeconds + 1}, range);
    await rejects('sandbox_clock_advance', {seconds: 'ten'}, range);
    await rejects('sandbox_notifications', {since: -1}, /since must be 0 or more/);
  });

  test('a control tool: a fault set through sandbox_control_set_fault answers the next call', async () => {
    const set = await callJson<ActionAnswer>(client, 'sandbox_control_set_fault', {
      resultCode: 'SYSTEM_BUSY',
      operationId: 'getBalance',
      count: 1,
    });
    assert.equal(set.action, 'control.setFault');
    const busy = await callJson<RequestAnswer>(client, 'sandbox_request', {method: 'GET', path: '/v1/balances'});
    assert.equal(busy.body.code, 'SYSTEM_BUSY');
    const again = await callJson<RequestAnswer>(client, 'sandbox_request', {method: 'GET', path: '/v1/balances'});
    assert.equal(again.body.code, 'SUCCESS', 'the fault was for one call');
  });

  test('sandbox_control_simulate_notification lands a signed notification in the inbox; unknown names are errors that list the valid ones', async () => {
    const answer = await callJson<ActionAnswer<{eventType: string; notificationId: string}>>(
      client,
      'sandbox_control_simulate_notification',
      {operationId: 'paymentResultNotification', scenario: 'paid'},
    );
    assert.equal(answer.result.eventType, 'ORDER.PAID');
    const delivery = answer.notifications.find((entry) => entry.body.notificationId === answer.result.notificationId);
    assert.ok(delivery, 'the answer carries the delivered notification');
    assert.equal(delivery.verified, true);
    assert.equal(delivery.url, 'https://shop.example.com/payments/notify');
    const inbox = await callJson<{notifications: Notification[]}>(client, 'sandbox_notifications', {since: delivery.seq - 1});
    assert.equal(inbox.notifications.length, 1);
    await rejects(
      'sandbox_control_simulate_notification',
      {operationId: 'nope', scenario: 'paid'},
      /INVALID_PARAMETER: nope is not a notification of the contract; one of .*paymentResultNotification/,
    );
    await rejects(
      'sandbox_control_simulate_notification',
      {operationId: 'paymentResultNotification', scenario: 'nope'},
      /has no scenario "nope"; its scenarios are .*paid/,
    );
    await rejects(
      'sandbox_control_simulate_notification',
      {operationId: 'paymentResultNotification', scenario: 'paid', notifyUrl: 'ftp://x'},
      /notifyUrl must be an http or https URL/,
    );
    await rejects(
      'sandbox_control_simulate_notification',
      {operationId: 'paymentResultNotification', scenario: 'paid', data: {merchantOrderNo: 5}},
      /does not match the contract/,
    );
  });
});

describe('verify_signature', () => {
  /** A notification of the inbox as the raw HTTP message a handler receives. */
  const rawNotification = (entry: Notification, body = JSON.stringify(entry.body)) =>
    `POST ${new URL(entry.url).pathname} HTTP/1.1\n${Object.entries(entry.headers)
      .map(([name, value]) => `${name}: ${value}`)
      .join('\n')}\n\n${body}`;

  test('verifies a sandbox notification with the provider key, and names the cause when the body was re-serialised', async () => {
    const providerKey = readFileSync(path.join(__dirname, '..', '..', 'api', 'test-vectors', 'provider-test-public.pem'), 'utf8');
    const merchantKey = readFileSync(path.join(__dirname, '..', '..', 'api', 'test-vectors', 'merchant-test-public.pem'), 'utf8');
    const simulated = await callJson<ActionAnswer>(client, 'sandbox_control_simulate_notification', {
      operationId: 'paymentResultNotification',
      scenario: 'paid',
    });
    const inbox = await callJson<{notifications: Array<Notification & {seq: number}>}>(client, 'sandbox_notifications', {
      since: (simulated.notifications[0]?.seq ?? 1) - 1,
    });
    const entry = inbox.notifications[0];
    assert.ok(entry);
    // The raw body as delivered is compact JSON: JSON.stringify of the parsed body gives it back byte for byte.
    const good = await callJson<{verified: boolean; canonical: string}>(client, 'verify_signature', {
      kind: 'notification',
      message: rawNotification(entry),
      key: providerKey,
    });
    assert.equal(good.verified, true);
    assert.match(good.canonical, /^POST\n\/payments\/notify\nsandbox-merchant-0001\n/);
    const pretty = await callJson<{verified: boolean; findings: Array<{cause: string}>}>(client, 'verify_signature', {
      kind: 'notification',
      message: rawNotification(entry, JSON.stringify(entry.body, null, 2)),
      key: providerKey,
    });
    assert.equal(pretty.verified, false);
    assert.equal(pretty.findings[0]?.cause, 'body-reserialised');
    const wrongKey = await callJson<{verified: boolean; findings: Array<{cause: string; message: string}>}>(client, 'verify_signature', {
      kind: 'notification',
      message: rawNotification(entry),
      key: merchantKey,
    });
    assert.equal(wrongKey.verified, false);
    assert.ok(wrongKey.findings.some((finding) => finding.cause === 'wrong-key' && /provider test key/.test(finding.message)));
  });

  test("bad keys and messages are tool errors with the debugger's sentence", async () => {
    await rejects(
      'verify_signature',
      {kind: 'notification', message: 'POST /notify HTTP/1.1\nX-Signature: a\n\n{}', key: 'not a key'},
      /PEM|key/i,
    );
    await rejects(
      'verify_signature',
      {kind: 'request', message: 'hello', key: 'x'},
      /first line of the request should be like "POST \/v1\/orders HTTP\/1\.1"/,
    );
    await rejects(
      'verify_signature',
      {kind: 'response', message: 'HTTP/1.1 200 OK\n\n{}', key: 'x'},
      /give the raw request as `request` too/,
    );
    await rejects(
      'verify_signature',
      {kind: 'request', message: 'POST /v1/orders HTTP/1.1\nX-Nonce: abc\n\n{}', key: 'x'},
      /has no X-Signature header/,
    );
    await rejects('verify_signature', {kind: 'letter', message: 'x', key: 'x'}, /kind must be request, response or notification/);
  });

  test('after all the bad input the server still answers and logged no unexpected failure', async () => {
    const {tools} = await client.listTools();
    assert.equal(tools.length, expectedTools.length);
    assert.deepEqual(logs, []);
  });
});
