/**
 * Merchants of a hosted sandbox (npm run sandbox -- --hosted) for the tests, over real HTTP: registration with
 * a fresh key pair, signed API calls and signed test tools, and the checks several hosted tests share.
 */
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {importPrivateKey, importPublicKey} from '../../src/lib/signing';
import {generateKeyPair} from '../../src/lib/signatureDiagnosis';
import {merchantClient, type MerchantClient} from '../../src/sandbox/client/merchant';
import {httpTarget} from '../../src/sandbox/client/overHttp';
import {signRequest, withContentType, type MerchantSigner} from '../../src/sandbox/client/signing';
import type {SandboxTarget} from '../../src/sandbox/client/target';
import {repoRoot} from '../../src/sandbox/hosts/server/loadEngine';

const providerKey = importPublicKey(readFileSync(path.join(repoRoot, 'api', 'test-vectors', 'provider-test-public.pem'), 'utf8')).then(
  (key) => ({key, keyVersion: 1}),
);

export const orderNo = (): string => `ORD-${randomUUID().slice(0, 18)}`;
export const hostedOrder = (merchantOrderNo: string): string =>
  JSON.stringify({
    merchantOrderNo,
    amount: {value: 1000, currency: 'USD'},
    scene: 'HOSTED_PAYPAGE',
    subject: 'Hosted test',
    returnUrl: 'https://shop.example.com/return',
  });

export interface Tenant {
  readonly clientId: string;
  readonly signer: MerchantSigner;
  /** Signed API calls, their responses verified. */
  readonly api: MerchantClient;
  /** The declared test tools, signed as this merchant. */
  readonly tools: SandboxTarget;
}

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly json: {code?: string; message?: string; requestId?: string} & Record<string, unknown>;
}

export async function send(base: string, method: string, target: string, init: {body?: string; headers?: Record<string, string>} = {}) {
  const response = await fetch(`${base}${target}`, {
    method,
    headers: init.headers ?? {},
    ...(init.body === undefined ? {} : {body: init.body}),
  });
  const text = await response.text();
  return {status: response.status, headers: response.headers, json: JSON.parse(text) as Answer['json']} satisfies Answer;
}

export async function register(base: string, body: Record<string, unknown>): Promise<Answer> {
  return send(base, 'POST', '/_sandbox/merchants', {body: JSON.stringify(body), headers: {'Content-Type': 'application/json'}});
}

/** A merchant registered at `base` with a fresh key pair, calling through `callBase` (another instance, say). */
export async function tenant(base: string, callBase = base): Promise<Tenant> {
  const {privateKeyPem, publicKeyPem} = await generateKeyPair();
  const registered = await register(base, {publicKeyPem});
  assert.equal(registered.status, 200, JSON.stringify(registered.json));
  const clientId = String(registered.json['clientId']);
  const signer = {clientId, keyVersion: 1, privateKey: await importPrivateKey(privateKeyPem)};
  return {
    clientId,
    signer,
    api: merchantClient({target: httpTarget(callBase), signer, providerKey: await providerKey}),
    tools: httpTarget(callBase, {signer}),
  };
}

/** A test tool call signed by `signer`, whatever the body names. */
export async function signedControl(base: string, signer: MerchantSigner, method: string, target: string, body = ''): Promise<Answer> {
  const now = Date.parse(String((await send(base, 'GET', '/_sandbox/clock')).json['now']));
  const signed = await signRequest(signer, {method, target, body}, now);
  return send(base, method, target, {body: method === 'GET' ? undefined : body, headers: withContentType(signed)} as never);
}

/** An order of `who`, created and paid by card: its funds wait for their settlement day. */
export async function paidOrder(who: Tenant, no = orderNo()): Promise<string> {
  const created = await who.api.call({method: 'POST', target: '/v1/orders', body: hostedOrder(no)});
  assert.equal(created.response.status, 200, created.response.body);
  const paid = await who.tools.act('shopper.pay', {
    clientId: who.clientId,
    merchantOrderNo: no,
    method: 'CARD',
    cardNumber: '4000000000000002',
  });
  assert.equal(paid.ok, true, JSON.stringify(paid));
  return no;
}

/**
 * Each merchant has its own clock: A and B hold an identical open order and a paid one; A moves its clock three
 * days on. A's order expires and A's funds settle; B's order is still open and B's balances are as they were.
 * `aBase` and `bBase` are where each merchant calls (one server, or two instances of one database).
 */
export async function checkMerchantClocksApart(a: Tenant, aBase: string, b: Tenant, bBase: string): Promise<void> {
  const no = orderNo();
  for (const who of [a, b]) {
    const created = await who.api.call({method: 'POST', target: '/v1/orders', body: hostedOrder(no)});
    assert.equal(created.response.status, 200, created.response.body);
  }
  await paidOrder(a);
  await paidOrder(b);
  const status = async (who: Tenant) =>
    (JSON.parse((await who.api.call({method: 'GET', target: `/v1/orders/${no}`, body: ''})).response.body) as {data: {status: string}}).data
      .status;
  const balances = async (who: Tenant, base: string) =>
    JSON.stringify((await signedControl(base, who.signer, 'GET', `/_sandbox/balances?clientId=${who.clientId}`)).json['balances']);
  const [aBefore, bBefore] = [await balances(a, aBase), await balances(b, bBase)];

  const moved = await signedControl(aBase, a.signer, 'POST', '/_sandbox/clock/advance', JSON.stringify({seconds: 3 * 86_400}));
  assert.equal(moved.status, 200, JSON.stringify(moved.json));
  assert.ok(
    Date.parse(String(moved.json['now'])) > Date.now() + 2.9 * 86_400_000,
    `A's clock is three days on: ${String(moved.json['now'])}`,
  );
  assert.ok(Number(moved.json['jobsRun']) > 0, "A's due jobs ran on A's clock");

  assert.equal(await status(a), 'CLOSED', "A's order expired (CLOSED) on A's clock");
  assert.equal(await status(b), 'PENDING', "B's identical order is still open: B's clock did not move");
  assert.notEqual(await balances(a, aBase), aBefore, "A's paid funds settled on A's clock");
  assert.equal(await balances(b, bBase), bBefore, "B's settlement did not move with A's clock");
  const exported = await signedControl(aBase, a.signer, 'GET', '/_sandbox/export');
  assert.ok(Date.parse(String(exported.json['exportedAt'])) > Date.now() + 2.9 * 86_400_000, "A's export is dated on A's clock");
  const clock = Date.parse(String((await send(bBase, 'GET', '/_sandbox/clock')).json['now']));
  assert.ok(Math.abs(clock - Date.now()) < 5000, 'the sandbox clock itself stays real time');
}
