/**
 * The hosted sandbox page's key handling (src/lib/hostedMerchant.ts) against a real `--hosted` server in this
 * process: the key pair is made here, only the public key is registered, the private key is kept
 * non-extractable, the merchant it makes signs API calls and test tools that the server accepts, and
 * failures are sentences. Also the build's origin setting (src/lib/hostedOrigin.ts).
 *
 * Run: node --import tsx --test tests/sandbox/hostedMerchant.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import * as tab from '../../src/lib/hostedMerchant';
import {hostedOriginOf} from '../../src/lib/hostedOrigin';
import {readKey} from '../../src/lib/signatureDiagnosis';
import {httpTarget} from '../../src/sandbox/client/overHttp';
import {signRequest, withContentType} from '../../src/sandbox/client/signing';
import {createNodeEngine} from '../../src/sandbox/hosts/server/loadEngine';
import {startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';

describe('a hosted sandbox merchant made in the browser', () => {
  let server: SandboxServer;
  before(async () => {
    server = await startSandboxServer({engine: await createNodeEngine(), port: 0, hosted: true});
  });
  after(() => server.close());

  test('registers only the public key, keeps the private key non-extractable, and signs what the server accepts', async () => {
    const sent: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      sent.push(String(init?.body ?? ''));
      return fetch(input, init);
    };
    let changes = 0;
    const stop = tab.onHostedMerchantChange(() => (changes += 1));
    const {merchant, privateKeyPem} = await tab.createHostedMerchant(server.url, {fetch: recording});
    assert.match(merchant.clientId, /^sandbox-[a-z0-9]+$/);
    assert.equal(tab.hostedMerchant(server.url), merchant, 'kept for this tab, for Try it');
    assert.equal(tab.hostedMerchant('https://api.example.com'), undefined, 'only for the origin it was registered with');
    assert.equal(changes, 1);

    assert.match(privateKeyPem, /^-----BEGIN PRIVATE KEY-----\n/);
    const body = sent.join('\n');
    assert.match(body, /BEGIN PUBLIC KEY/);
    assert.doesNotMatch(body, /PRIVATE KEY/, 'the private key is never sent');
    assert.equal(merchant.signer.privateKey.extractable, false);
    await assert.rejects(crypto.subtle.exportKey('pkcs8', merchant.signer.privateKey));
    assert.ok((await readKey(privateKeyPem)).privateKey, 'the PEM offered for download is a usable private key');
    assert.equal(tab.privateKeyFileName(merchant.clientId), `${merchant.clientId}-private-key.pem`);

    const now = Date.now();
    const signed = await signRequest(merchant.signer, {method: 'GET', target: '/v1/orders/ORD-never-used', body: ''}, now);
    const answer = await fetch(`${server.url}${signed.target}`, {headers: withContentType(signed)});
    assert.equal(answer.status, 404, 'the signature verifies: the order is simply not there');
    const reset = await httpTarget(server.url, {signer: merchant.signer}).act('control.reset', {});
    assert.deepEqual(reset, {ok: true, value: {ok: true}}, 'a signed test tool is accepted');
    const unsigned = await httpTarget(server.url).act('control.reset', {});
    assert.equal(unsigned.ok ? 'accepted' : unsigned.code, 'INVALID_SIGNATURE');

    tab.forgetHostedMerchant();
    assert.equal(tab.hostedMerchant(server.url), undefined);
    assert.equal(changes, 2);
    stop();
  });

  test('an unreachable or refusing sandbox is a sentence, not a crash, and keeps no merchant', async () => {
    const unreachable: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    await assert.rejects(tab.createHostedMerchant(server.url, {fetch: unreachable}), (error: unknown) => {
      assert.ok(error instanceof tab.HostedRegistrationError);
      assert.match(error.message, /did not answer/);
      return true;
    });
    const refusing: typeof fetch = async () =>
      new Response(JSON.stringify({code: 'RATE_LIMITED', message: 'Too many.', requestId: 'req_1'}), {status: 429});
    await assert.rejects(tab.createHostedMerchant(server.url, {fetch: refusing}), /refused the key: RATE_LIMITED: Too many\./);
    assert.equal(tab.hostedMerchant(server.url), undefined);
  });

  test("the console's read: the merchant's own export, signed; an unreachable sandbox is a sentence", async () => {
    const [{merchant}, {merchant: other}] = [await tab.createHostedMerchant(server.url), await tab.createHostedMerchant(server.url)];
    const orderNo = `ORD-export-${Date.now()}`;
    const body = JSON.stringify({
      merchantOrderNo: orderNo,
      amount: {value: 1000, currency: 'USD'},
      scene: 'HOSTED_PAYPAGE',
      subject: 'Export test',
      returnUrl: 'https://shop.example.com/return',
    });
    const signed = await signRequest(other.signer, {method: 'POST', target: '/v1/orders', body}, Date.now());
    assert.equal((await fetch(`${server.url}/v1/orders`, {method: 'POST', headers: withContentType(signed), body})).status, 200);
    const exported = JSON.stringify(await tab.exportHostedMerchant(other));
    assert.ok(exported.includes(orderNo), 'its order is in its export');
    const ownOnly = JSON.stringify(await tab.exportHostedMerchant(merchant));
    assert.ok(ownOnly.includes(merchant.clientId) && !ownOnly.includes(other.clientId), 'another merchant exports its own records only');
    await assert.rejects(tab.exportHostedMerchant({...other, origin: 'http://127.0.0.1:9'}), (error: unknown) => {
      assert.ok(error instanceof tab.HostedReadError);
      assert.match(error.message, /^The hosted sandbox at http:\/\/127\.0\.0\.1:9 did not answer/);
      return true;
    });
    const refusing: typeof fetch = async (input) =>
      String(input).endsWith('/_sandbox/clock')
        ? new Response(JSON.stringify({now: new Date().toISOString()}))
        : new Response(JSON.stringify({code: 'INVALID_SIGNATURE', message: 'No.', requestId: 'req_1'}), {status: 401});
    await assert.rejects(tab.exportHostedMerchant(other, {fetch: refusing}), /refused to export .*: INVALID_SIGNATURE: No\./);
    tab.forgetHostedMerchant();
  });
});

test('the hosted origin the build is given is checked', () => {
  assert.equal(hostedOriginOf(undefined, 'https://sandbox-api.example.com'), 'https://sandbox-api.example.com');
  assert.equal(hostedOriginOf('', 'https://sandbox-api.example.com'), 'https://sandbox-api.example.com');
  assert.equal(hostedOriginOf('http://127.0.0.1:4010', 'x'), 'http://127.0.0.1:4010');
  assert.equal(hostedOriginOf('http://127.0.0.1:4010/', 'x'), 'http://127.0.0.1:4010');
  assert.throws(() => hostedOriginOf('sandbox-api.example.com', 'x'), /must be an origin/);
  assert.throws(() => hostedOriginOf('https://sandbox-api.example.com/v1', 'x'), /no path/);
  assert.throws(() => hostedOriginOf('ftp://sandbox-api.example.com', 'x'), /http\(s\) origin/);
});
