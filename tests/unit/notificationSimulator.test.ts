/**
 * The notification simulator in the engine: every scenario of every notification the contract names comes
 * out as a real event, signed like any other delivery, matching the contract, listed and redeliverable; and
 * what cannot be produced (an unknown scenario, data the contract refuses, nowhere to send it) is refused
 * with a sentence that says why. Also the simulator's build-time data and its pure helpers.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {notificationSimulatorData, validatedPointers} from '../../plugins/content/sandbox-engine';
import {loadContract} from '../../src/contract/node/loadContract';
import {fixedClock} from '../../src/sandbox/engine/clock';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import {createNodeEngine, repoRoot, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {canonicalString, importPublicKey, parseSignatureHeader, verifyCanonical} from '../../src/lib/signing';
import {localSimulateCommands, notificationTarget, rawNotificationRequest} from '../../src/lib/notificationCatalogue';
import {engineClient, providerPublicKeyPem} from '../support/sandboxClient';
import path from 'node:path';

const start = Date.parse('2026-11-25T10:00:00Z');
const notifyUrl = 'https://shop.example.com/hooks/veloxa?source=sim';

async function setUp() {
  const received: {url: string; headers: Readonly<Record<string, string>>; body: string}[] = [];
  const transport: NotificationTransport = {
    deliver: async (delivery) => {
      received.push(delivery);
      return {status: 200, body: '{"code":"SUCCESS"}'};
    },
  };
  const engine = await createNodeEngine({clock: fixedClock(start), transport});
  const clientId = sandboxFiles().spec.sandbox.merchant.clientId;
  return {engine, clientId, received};
}

describe('the notification simulator', () => {
  test('the engine spec lists all eight notifications with their event types, body schema and scenarios, and the browser has their validators', () => {
    const {spec} = sandboxFiles();
    assert.deepEqual(
      spec.webhooks.map((webhook) => webhook.key),
      ['paymentResult', 'refundResult', 'agreement', 'chargeback', 'transferResult', 'bankTransferResult', 'cardPayoutResult', 'vamTopUp'],
    );
    const payment = spec.webhooks[0];
    assert.deepEqual(payment?.eventTypes, ['ORDER.PAID', 'ORDER.PAYMENT_FAILED', 'ORDER.CLOSED']);
    assert.deepEqual(
      payment?.scenarios.map((scenario) => scenario.name),
      ['paid', 'paymentFailed', 'expired'],
    );
    const pointers = validatedPointers(spec);
    for (const webhook of spec.webhooks) {
      assert.ok(pointers.includes(webhook.bodySchemaPointer), `${webhook.key}'s body validator is compiled for the browser`);
      for (const scenario of webhook.scenarios)
        assert.ok(
          webhook.eventTypes.includes(String((scenario.value as {eventType?: string}).eventType)),
          `${webhook.key}/${scenario.name}`,
        );
    }
    // The test merchant has no default URL in the sandbox data, so the panel starts from the contract's example one.
    const data = notificationSimulatorData(loadContract(path.join(repoRoot, 'api', 'openapi.yaml')).document, spec);
    assert.equal(data.notifyUrlIsDefault, spec.sandbox.merchant.defaultNotifyUrl !== null);
    assert.match(data.notifyUrl, /^https:\/\//);
  });

  test('every scenario produces a fresh, signed notification that matches the contract and verifies with the published provider key', async () => {
    const {engine, clientId, received} = await setUp();
    const {spec, validator} = sandboxFiles();
    const key = await importPublicKey(providerPublicKeyPem);
    for (const webhook of spec.webhooks) {
      for (const scenario of webhook.scenarios) {
        const result = await engine.control.simulateNotification(clientId, {
          operationId: webhook.operationId,
          scenario: scenario.name,
          notifyUrl,
        });
        assert.ok(result.ok, JSON.stringify(result));
        await engine.runDue();
        await engine.settle();
        const delivery = received.at(-1);
        assert.ok(delivery);
        const body = JSON.parse(delivery.body) as {notificationId: string; eventType: string; createdAt: string; data: unknown};
        const example = scenario.value as {notificationId: string; eventType: string; data: unknown};
        assert.equal(body.notificationId, result.value.notificationId);
        assert.notEqual(body.notificationId, example.notificationId, 'a fresh notificationId, not the example one');
        assert.equal(body.createdAt, '2026-11-25T10:00:00Z');
        assert.equal(body.eventType, example.eventType);
        assert.deepEqual(body.data, example.data);
        assert.deepEqual(validator.problems(webhook.bodySchemaPointer, body), [], `${webhook.key}/${scenario.name}`);
        assert.equal(delivery.url, notifyUrl);
        const header = parseSignatureHeader(delivery.headers['X-Signature'] ?? '');
        const canonical = canonicalString({
          method: 'POST',
          pathWithQuery: '/hooks/veloxa?source=sim',
          clientId,
          timestamp: delivery.headers['X-Timestamp'] ?? '',
          nonce: delivery.headers['X-Nonce'] ?? '',
          body: delivery.body,
        });
        assert.ok(await verifyCanonical(canonical, header.signature, key), `${webhook.key}/${scenario.name} verifies`);
        // Signed over another path, it does not verify: the check above can fail.
        const tampered = canonicalString({
          method: 'POST',
          pathWithQuery: '/hooks/veloxa',
          clientId,
          timestamp: delivery.headers['X-Timestamp'] ?? '',
          nonce: delivery.headers['X-Nonce'] ?? '',
          body: delivery.body,
        });
        assert.equal(await verifyCanonical(tampered, header.signature, key), false);
      }
    }
  });

  test('a simulated notification is a normal event: List events shows it delivered, and Redeliver event sends it again to the same URL', async () => {
    const {engine, clientId, received} = await setUp();
    const client = engineClient(engine);
    const result = await engine.control.simulateNotification(clientId, {operationId: 'refundResult', scenario: 'failed', notifyUrl});
    assert.ok(result.ok);
    await engine.runDue();
    await engine.settle();
    const listed = await client.call('GET', '/v1/events?createdFrom=2026-11-25T00:00:00Z&createdTo=2026-11-26T00:00:00Z');
    assert.deepEqual(listed.problems, []);
    const events = (listed.json.data as {events: {notificationId: string; eventType: string; delivery: {status: string}}[]}).events;
    const event = events.find((candidate) => candidate.notificationId === result.value.notificationId);
    assert.deepEqual([event?.eventType, event?.delivery.status], ['REFUND.FAILED', 'DELIVERED']);
    const again = await client.call('POST', `/v1/events/${result.value.notificationId}/redeliver`);
    assert.equal(again.json.code, 'SUCCESS', again.body);
    await engine.runDue();
    await engine.settle();
    assert.equal(received.length, 2);
    assert.equal(received[1]?.url, notifyUrl);
    assert.equal((JSON.parse(received[1]?.body ?? '{}') as {notificationId: string}).notificationId, result.value.notificationId);
    assert.deepEqual(
      (await engine.control.deliveries(clientId)).map((entry) => [entry.notificationId, entry.acknowledged]),
      [
        [result.value.notificationId, true],
        [result.value.notificationId, true],
      ],
    );
  });

  test('edited data replaces the example when it matches the contract, and is refused with its problems listed when it does not', async () => {
    const {engine, clientId, received} = await setUp();
    const example = sandboxFiles().spec.webhooks.find((webhook) => webhook.key === 'paymentResult')?.scenarios[0]?.value as {
      data: Record<string, unknown>;
    };
    const edited = {...example.data, merchantOrderNo: 'ORD-MINE-42'};
    const accepted = await engine.control.simulateNotification(clientId, {
      operationId: 'paymentResultNotification',
      scenario: 'paid',
      data: edited,
      notifyUrl,
    });
    assert.ok(accepted.ok);
    await engine.runDue();
    await engine.settle();
    assert.equal((JSON.parse(received[0]?.body ?? '{}') as {data: {merchantOrderNo: string}}).data.merchantOrderNo, 'ORD-MINE-42');

    const refused = await engine.control.simulateNotification(clientId, {
      operationId: 'paymentResult',
      scenario: 'paid',
      data: {...example.data, amount: {value: '12.50', currency: 'USD'}, status: 'SOLD'},
      notifyUrl,
    });
    assert.equal(refused.ok, false);
    assert.ok(!refused.ok);
    assert.equal(refused.code, 'INVALID_PARAMETER');
    assert.match(refused.message, /does not match the contract/);
    assert.match(refused.message, /\/data\/amount\/value/);
    assert.match(refused.message, /\/data\/status/);
    const notObject = await engine.control.simulateNotification(clientId, {
      operationId: 'paymentResult',
      scenario: 'paid',
      data: [1, 2],
      notifyUrl,
    });
    assert.ok(!notObject.ok);
    assert.match(notObject.message, /data must be a JSON object/);
    assert.equal(received.length, 1, 'nothing refused was sent');
    assert.equal(engine.snapshot(clientId)?.events.length, 1, 'nothing refused became an event');
  });

  test('an unknown notification or scenario, a bad URL and no URL at all are refused with a clear sentence', async () => {
    const {engine, clientId} = await setUp();
    const unknownWebhook = await engine.control.simulateNotification(clientId, {operationId: 'orderShipped', scenario: 'paid', notifyUrl});
    assert.ok(!unknownWebhook.ok);
    assert.match(unknownWebhook.message, /orderShipped is not a notification of the contract; one of paymentResultNotification, /);
    const unknownScenario = await engine.control.simulateNotification(clientId, {
      operationId: 'paymentResult',
      scenario: 'refunded',
      notifyUrl,
    });
    assert.ok(!unknownScenario.ok);
    assert.equal(
      unknownScenario.message,
      'paymentResultNotification has no scenario "refunded"; its scenarios are paid, paymentFailed, expired.',
    );
    const badUrl = await engine.control.simulateNotification(clientId, {
      operationId: 'paymentResult',
      scenario: 'paid',
      notifyUrl: 'ftp://shop.example.com/x',
    });
    assert.ok(!badUrl.ok);
    assert.match(badUrl.message, /notifyUrl must be an http or https URL/);
    // The test merchant has no default notification URL in the sandbox data.
    const noUrl = await engine.control.simulateNotification(clientId, {operationId: 'paymentResult', scenario: 'paid'});
    assert.ok(!noUrl.ok);
    assert.equal(noUrl.code, 'NOTIFY_URL_MISSING');
    assert.match(noUrl.message, /has no default notification URL: give notifyUrl/);
    // With a default URL set, it goes there.
    const configured = await engine.control.configure(clientId, {defaultNotifyUrl: 'http://127.0.0.1:8080/notify'});
    assert.ok(configured.ok);
    const toDefault = await engine.control.simulateNotification(clientId, {operationId: 'vamTopUp', scenario: 'topUp'});
    assert.ok(toDefault.ok);
    assert.equal(toDefault.value.notifyUrl, 'http://127.0.0.1:8080/notify');
    const stranger = await engine.control.simulateNotification('nobody-here', {operationId: 'vamTopUp', scenario: 'topUp', notifyUrl});
    assert.ok(!stranger.ok);
    assert.equal(stranger.code, 'UNKNOWN_CLIENT');
  });

  test('the helpers: the signed target is the path and query, the raw request shows what the endpoint receives, the commands quote the JSON for a shell', () => {
    assert.equal(notificationTarget('https://shop.example.com/a/b?x=1&y=2'), '/a/b?x=1&y=2');
    assert.equal(
      rawNotificationRequest('http://127.0.0.1:8080/n?k=v', {'X-Nonce': 'n1'}, '{"a":1}'),
      'POST /n?k=v HTTP/1.1\nHost: 127.0.0.1:8080\nX-Nonce: n1\n\n{"a":1}',
    );
    const commands = localSimulateCommands('http://127.0.0.1:4010', {
      clientId: 'sandbox-merchant-0001',
      operationId: 'paymentResultNotification',
      scenario: 'paid',
      notifyUrl: 'http://127.0.0.1:8080/n',
      data: {subject: "Bob's order"},
    });
    assert.match(commands.simulate, /^curl -sS -X POST http:\/\/127\.0\.0\.1:4010\/_sandbox\/notifications\/simulate/);
    assert.ok(
      commands.simulate.includes(
        `-d '{"clientId":"sandbox-merchant-0001","operationId":"paymentResultNotification","scenario":"paid","notifyUrl":"http://127.0.0.1:8080/n","data":{"subject":"Bob'\\''s order"}}'`,
      ),
    );
    assert.equal(commands.log, "curl -sS 'http://127.0.0.1:4010/_sandbox/notifications?clientId=sandbox-merchant-0001'");
  });
});
