/**
 * The merchant client (src/sandbox/client/): signing reproduces the published signing vectors byte for
 * byte, verification accepts them and refuses them changed, and a merchant client over an in-page engine
 * and over HTTP (a fetch that stands in for the local server) does what every host relies on.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {importPrivateKey, importPublicKey} from '../../src/lib/signing';
import {inPageTarget} from '../../src/sandbox/client/inPage';
import {merchantClient} from '../../src/sandbox/client/merchant';
import {httpTarget, TargetUnreachableError} from '../../src/sandbox/client/overHttp';
import {headerValue, signRequest, verifyNotification, verifyResponse, withContentType} from '../../src/sandbox/client/signing';
import {fixedClock} from '../../src/sandbox/engine/clock';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import type {VectorFile} from '../../tooling/signingVectors';
import {repoRoot} from '../support/routeContract';

const vectorDir = path.join(repoRoot, 'api', 'test-vectors');
const vectors = (JSON.parse(readFileSync(path.join(vectorDir, 'signing.json'), 'utf8')) as VectorFile).vectors;
const pem = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');
const merchantKey = importPrivateKey(pem('merchant-test-private.pem'));
const provider = importPublicKey(pem('provider-test-public.pem')).then((key) => ({key, keyVersion: 1}));

describe('signing against the published vectors', () => {
  test('signRequest reproduces every request vector: canonical string, X-Signature and the signing headers', async () => {
    const requests = vectors.filter((vector) => vector.kind === 'request');
    assert.ok(requests.length >= 3, 'the vector file has request vectors');
    for (const vector of requests) {
      const {method, pathWithQuery, clientId, timestamp, nonce, body} = vector.request;
      const signed = await signRequest(
        {clientId, keyVersion: vector.keyVersion, privateKey: await merchantKey},
        {method, target: pathWithQuery, body},
        Date.parse(timestamp),
        nonce,
      );
      assert.equal(signed.canonical, vector.canonicalString, vector.name);
      assert.equal(signed.signatureHeader, vector.signatureHeader, vector.name);
      assert.deepEqual(
        signed.headers,
        {'X-Client-Id': clientId, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': vector.signatureHeader},
        vector.name,
      );
    }
  });

  test('verifyResponse accepts every response vector, and refuses a changed body, another key version and no signature', async () => {
    const responses = vectors.filter((vector) => vector.kind === 'response');
    assert.ok(responses.length >= 1, 'the vector file has response vectors');
    for (const vector of responses) {
      if (vector.kind !== 'response') continue;
      const request = {
        method: vector.request.method,
        target: vector.request.pathWithQuery,
        clientId: vector.request.clientId,
        nonce: vector.request.nonce,
      };
      const headers = {'X-Timestamp': vector.response.timestamp, 'X-Nonce': vector.response.nonce, 'X-Signature': vector.signatureHeader};
      const response = {status: vector.response.status, headers, body: vector.response.body};
      assert.deepEqual(await verifyResponse(request, response, await provider), {outcome: 'verified', keyVersion: 1}, vector.name);
      // Lower-case names, as fetch gives them, verify the same.
      const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
      assert.equal((await verifyResponse(request, {...response, headers: lower}, await provider)).outcome, 'verified', vector.name);
      assert.equal(
        (await verifyResponse(request, {...response, body: `${response.body} `}, await provider)).outcome,
        'mismatch',
        vector.name,
      );
      assert.equal(
        (await verifyResponse({...request, nonce: `${request.nonce}x`}, response, await provider)).outcome,
        'mismatch',
        `${vector.name}: bound to the request's nonce`,
      );
      assert.deepEqual(
        await verifyResponse(request, response, {...(await provider), keyVersion: 2}),
        {outcome: 'otherKeyVersion', keyVersion: 1},
        vector.name,
      );
      const unsigned = await verifyResponse(request, {...response, headers: {'X-Timestamp': vector.response.timestamp}}, await provider);
      assert.equal(unsigned.outcome, 'unreadable', vector.name);
    }
  });

  test('verifyNotification accepts every notification vector at any host of its path, and refuses it changed', async () => {
    const notifications = vectors.filter((vector) => vector.kind === 'notification');
    assert.ok(notifications.length >= 1, 'the vector file has notification vectors');
    for (const vector of notifications) {
      const {pathWithQuery, clientId, timestamp, nonce, body} = vector.request;
      const notification = {
        url: `https://shop.example.com${pathWithQuery}`,
        headers: {'X-Client-Id': clientId, 'X-Timestamp': timestamp, 'X-Nonce': nonce, 'X-Signature': vector.signatureHeader},
        body,
      };
      assert.equal((await verifyNotification(notification, await provider)).outcome, 'verified', vector.name);
      assert.equal(
        (await verifyNotification({...notification, body: body.replace(/\d/, '9')}, await provider)).outcome,
        'mismatch',
        vector.name,
      );
      assert.equal((await verifyNotification({...notification, url: 'not a url'}, await provider)).outcome, 'unreadable', vector.name);
    }
  });

  test('withContentType adds application/json only for a body, and keeps one already given', () => {
    assert.deepEqual(withContentType({headers: {'X-Nonce': 'n'}, body: ''}), {'X-Nonce': 'n'});
    assert.deepEqual(withContentType({headers: {'X-Nonce': 'n'}, body: '{}'}), {'Content-Type': 'application/json', 'X-Nonce': 'n'});
    assert.deepEqual(withContentType({headers: {'content-type': 'text/plain'}, body: 'x'}), {'content-type': 'text/plain'});
    assert.equal(headerValue({'x-signature': 'a'}, 'X-Signature'), 'a');
  });
});

describe('a merchant client over an in-page engine', () => {
  test('create an order, pay it as the shopper, retrieve it PAID: every response verifies, the ORDER.PAID notification too', async () => {
    const files = sandboxFiles();
    const delivered: {url: string; headers: Record<string, string>; body: string}[] = [];
    const transport: NotificationTransport = {
      deliver: async (delivery) => {
        delivered.push({url: delivery.url, headers: {...delivery.headers}, body: delivery.body});
        return {status: 200, body: '{"code":"SUCCESS"}'};
      },
    };
    const engine = await createNodeEngine({clock: fixedClock(Date.parse('2026-11-26T12:00:00Z')), transport});
    const target = inPageTarget(engine);
    const clientId = files.spec.sandbox.merchant.clientId;
    const client = merchantClient({target, signer: {clientId, keyVersion: 1, privateKey: await merchantKey}, providerKey: await provider});
    const merchantOrderNo = 'ORD-CLIENT-TEST-0001';
    const order = {
      merchantOrderNo,
      amount: {value: 1250, currency: 'USD'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'Client test',
      returnUrl: 'https://shop.example.com/return',
      notifyUrl: 'https://shop.example.com/payments/notify',
    };
    const created = await client.call({method: 'POST', target: '/v1/orders', body: JSON.stringify(order)});
    assert.equal(created.response.status, 200, created.response.body);
    assert.deepEqual(created.verification, {outcome: 'verified', keyVersion: 1});
    assert.equal(created.request.timestamp, '2026-11-26T12:00:00Z', 'X-Timestamp on the sandbox clock');

    const paid = await target.act('shopper.pay', {clientId, merchantOrderNo, method: 'CARD', cardNumber: '4000000000000002'});
    assert.equal(paid.ok, true, JSON.stringify(paid));
    const refused = await target.act('shopper.pay', {clientId, merchantOrderNo, method: 'WALLET'});
    assert.deepEqual(refused, {ok: false, code: 'INVALID_PARAMETER', message: 'phone is required: a non-empty string.'});
    await target.act('clock.advance', {seconds: 60});
    const retrieved = await client.call({method: 'GET', target: `/v1/orders/${merchantOrderNo}`, body: ''});
    assert.equal((JSON.parse(retrieved.response.body) as {data: {status: string}}).data.status, 'PAID');
    assert.equal(retrieved.verification.outcome, 'verified');

    const notification = delivered.find((entry) => entry.body.includes('"ORDER.PAID"'));
    assert.ok(notification, 'ORDER.PAID was delivered before the calls answered');
    assert.equal((await verifyNotification(notification, await provider)).outcome, 'verified');
    assert.equal((await verifyNotification(notification, {key: (await provider).key, keyVersion: 2})).outcome, 'otherKeyVersion');
  });
});

describe('a target over HTTP', () => {
  test('sends the request as signed, with Content-Type for a body; an action goes to its route with path members encoded', async () => {
    const seen: {url: string; method: string; headers: Record<string, string>; body: string | undefined}[] = [];
    const fakeFetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({
        url: String(input),
        method: init?.method ?? 'GET',
        headers: {...(init?.headers as Record<string, string>)},
        body: init?.body as string | undefined,
      });
      if (String(input).endsWith('/resolve'))
        return new Response(JSON.stringify({code: 'CHARGEBACK_NOT_FOUND', message: 'No chargeback.'}), {status: 404});
      if (String(input).endsWith('/_sandbox/clock')) return new Response(JSON.stringify({now: '2026-11-26T12:00:00Z'}));
      return new Response(JSON.stringify({code: 'SUCCESS'}), {headers: {'X-Signature': 'sig'}});
    }) as typeof fetch;
    const target = httpTarget('http://127.0.0.1:4010', {fetch: fakeFetch});
    const answer = await target.call({method: 'POST', target: '/v1/orders', headers: {'X-Client-Id': 'c'}, body: '{}'});
    assert.equal(answer.status, 200);
    assert.equal(headerValue(answer.headers, 'X-Signature'), 'sig');
    assert.deepEqual(seen[0], {
      url: 'http://127.0.0.1:4010/v1/orders',
      method: 'POST',
      headers: {'Content-Type': 'application/json', 'X-Client-Id': 'c'},
      body: '{}',
    });

    const refused = await target.act('control.resolveChargeback', {chargebackId: 'cb/1', clientId: 'c', resolution: 'WON'});
    assert.deepEqual(refused, {ok: false, code: 'CHARGEBACK_NOT_FOUND', message: 'No chargeback.'});
    assert.equal(seen[1]?.url, 'http://127.0.0.1:4010/_sandbox/chargebacks/cb%2F1/resolve');
    assert.deepEqual(JSON.parse(seen[1]?.body ?? ''), {clientId: 'c', resolution: 'WON'}, 'the path member is not sent again as JSON');
    assert.equal(await target.clock.now(), Date.parse('2026-11-26T12:00:00Z'));
  });

  test('no server at the origin is a TargetUnreachableError that names it', async () => {
    const target = httpTarget('http://127.0.0.1:9', {fetch: (async () => Promise.reject(new TypeError('fetch failed'))) as typeof fetch});
    await assert.rejects(
      target.call({method: 'GET', target: '/v1/balances', headers: {}, body: ''}),
      (error: unknown) => error instanceof TargetUnreachableError && /127\.0\.0\.1:9/.test(error.message),
    );
  });
});
