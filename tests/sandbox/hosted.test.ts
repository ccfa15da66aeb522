/**
 * The hosted sandbox's tenants (npm run sandbox -- --hosted): two merchants on one server over real HTTP,
 * each trying to reach the other. Another merchant's order numbers are not found; a signed request replayed
 * as another merchant is refused; test tools unsigned or signed by someone else are refused; reset, export
 * and faults touch the caller alone; registration checks the key; a merchant flooding requests or test tools
 * is limited while the other is not; idle merchants and old events are swept away on the sandbox clock.
 *
 * Run: node --import tsx --test tests/sandbox/hosted.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {randomUUID} from 'node:crypto';
import {Worker} from 'node:worker_threads';
import {importPrivateKey} from '../../src/lib/signing';
import {generateKeyPair} from '../../src/lib/signatureDiagnosis';
import {signRequest, withContentType} from '../../src/sandbox/client/signing';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';
import {
  checkMerchantClocksApart,
  hostedOrder,
  orderNo,
  paidOrder,
  register,
  send,
  signedControl,
  tenant,
  type Tenant,
} from '../support/hostedTenants';

const sharedMerchant = sandboxFiles().spec.sandbox.merchant.clientId;

/** A signed request as the engine takes it. */
const withHeaders = (signed: {method: string; target: string; body: string; headers: Readonly<Record<string, string>>}) => ({
  method: signed.method,
  target: signed.target,
  body: signed.body,
  headers: withContentType(signed),
});

/** One answer the flooder got. */
interface Flooded {
  readonly status: number;
  readonly retryAfter: string | null;
  readonly signed: boolean;
  readonly code: string;
}

/**
 * A flooding merchant in a worker thread: its pre-signed writes sent over `connections` loops as fast as
 * answers come, until they run out or it is told to stop; it reports its progress, then every answer.
 */
const flooderSource = `
const {parentPort, workerData} = require('node:worker_threads');
const {base, writes, connections} = workerData;
let next = 0;
let stopped = false;
const answers = [];
parentPort.on('message', () => (stopped = true));
const loop = async () => {
  for (let index = next++; index < writes.length && !stopped; index = next++) {
    const write = writes[index];
    const response = await fetch(base + write.target, {method: 'POST', headers: write.headers, body: write.body});
    const body = await response.json();
    answers.push({status: response.status, retryAfter: response.headers.get('retry-after'), signed: response.headers.has('x-signature'), code: body.code});
    if (answers.length % 50 === 0) parentPort.postMessage(answers.length);
  }
};
Promise.all(Array.from({length: connections}, loop)).then(() => {
  parentPort.postMessage(answers);
  parentPort.close();
});
`;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

describe('the hosted sandbox keeps merchants apart', () => {
  let server: SandboxServer;
  let base: string;
  let a: Tenant;
  let b: Tenant;

  before(async () => {
    server = await startSandboxServer({engine: await createNodeEngine(), port: 0, hosted: true});
    base = server.url;
    [a, b] = [await tenant(base), await tenant(base)];
  });
  after(() => server.close());

  test('registration checks the key and the client ID, answering in the contract envelope', async () => {
    const bad = await register(base, {publicKeyPem: 'not a key'});
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'INVALID_PARAMETER');
    assert.match(String(bad.json.message), /publicKeyPem/);
    assert.match(String(bad.json.requestId), /^req_/);

    const small = await crypto.subtle.generateKey(
      {name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1])},
      true,
      ['sign', 'verify'],
    );
    const spki = Buffer.from(await crypto.subtle.exportKey('spki', small.publicKey)).toString('base64');
    const weak = await register(base, {publicKeyPem: `-----BEGIN PUBLIC KEY-----\n${spki}\n-----END PUBLIC KEY-----\n`});
    assert.equal(weak.json.code, 'INVALID_PARAMETER');
    assert.match(String(weak.json.message), /2048 to 4096 bits; this one has 1024/);

    const {publicKeyPem} = await generateKeyPair();
    const badId = await register(base, {publicKeyPem, clientId: 'Not Valid!'});
    assert.equal(badId.json.code, 'INVALID_PARAMETER');
    assert.match(String(badId.json.message), /clientId/);
    const taken = await register(base, {publicKeyPem, clientId: a.clientId});
    assert.equal(taken.json.code, 'IDEMPOTENCY_CONFLICT');
    const shared = await register(base, {publicKeyPem, clientId: sharedMerchant});
    assert.equal(shared.json.code, 'IDEMPOTENCY_CONFLICT');
  });

  test("another merchant's order numbers are not found: read, refund and cancel leave them as they were", async () => {
    const no = await paidOrder(a);
    const read = await b.api.call({method: 'GET', target: `/v1/orders/${no}`, body: ''});
    const refund = await b.api.call({
      method: 'POST',
      target: `/v1/orders/${no}/refunds`,
      body: JSON.stringify({merchantRefundNo: `REF-${randomUUID().slice(0, 12)}`, amount: {value: 100, currency: 'USD'}}),
    });
    const cancel = await b.api.call({method: 'POST', target: `/v1/orders/${no}/cancel`, body: ''});
    for (const [name, call] of Object.entries({read, refund, cancel})) {
      assert.equal(call.response.status, 404, `${name}: ${call.response.body}`);
      assert.equal((JSON.parse(call.response.body) as {code: string}).code, 'ORDER_NOT_FOUND', name);
      assert.doesNotMatch(call.response.body, /PAID|amount/, `${name} shows nothing of the order`);
      assert.equal(call.verification.outcome, 'verified', name);
    }
    const mine = await a.api.call({method: 'GET', target: `/v1/orders/${no}`, body: ''});
    const order = JSON.parse(mine.response.body) as {data: {status: string; refundedAmount?: {value: number}}};
    assert.equal(order.data.status, 'PAID');
    assert.ok(!order.data.refundedAmount?.value, 'no refund reached the order');
  });

  test('a signed request replayed as another merchant, or replayed at all, is refused and changes nothing', async () => {
    const no = orderNo();
    const now = Date.parse(String((await send(base, 'GET', '/_sandbox/clock')).json['now']));
    const signed = await signRequest(a.signer, {method: 'POST', target: '/v1/orders', body: hostedOrder(no)}, now);
    const asB = {...withContentType(signed), 'X-Client-Id': b.clientId};
    const replayedAsB = await send(base, 'POST', '/v1/orders', {body: signed.body, headers: asB});
    assert.equal(replayedAsB.status, 401);
    assert.equal(replayedAsB.json.code, 'INVALID_SIGNATURE');
    const first = await send(base, 'POST', '/v1/orders', {body: signed.body, headers: withContentType(signed)});
    assert.equal(first.status, 200);
    const again = await send(base, 'POST', '/v1/orders', {body: signed.body, headers: withContentType(signed)});
    assert.equal(again.json.code, 'NONCE_REUSED');
    const atB = await b.api.call({method: 'GET', target: `/v1/orders/${no}`, body: ''});
    assert.equal(atB.response.status, 404, 'B has no such order');
  });

  test('test tools unsigned, signed by another merchant, or signed for another merchant are refused', async () => {
    const no = orderNo();
    assert.equal((await a.api.call({method: 'POST', target: '/v1/orders', body: hostedOrder(no)})).response.status, 200);
    const pay = JSON.stringify({clientId: a.clientId, merchantOrderNo: no, method: 'CARD', cardNumber: '4000000000000002'});

    const unsigned = await send(base, 'POST', '/_sandbox/shopper/pay', {body: pay, headers: {'Content-Type': 'application/json'}});
    assert.equal(unsigned.status, 401);
    assert.equal(unsigned.json.code, 'INVALID_SIGNATURE');
    assert.match(String(unsigned.json.message), /signed by your merchant/);

    const foreign = await signedControl(base, b.signer, 'POST', '/_sandbox/shopper/pay', pay);
    assert.equal(foreign.status, 403);
    assert.equal(foreign.json.code, 'PERMISSION_DENIED');
    assert.match(String(foreign.json.message), new RegExp(`signed by ${b.clientId} but names ${a.clientId}`));

    // A's key with B's client ID: the signature does not verify for B.
    const stolenId = await signedControl(base, {...a.signer, clientId: b.clientId}, 'POST', '/_sandbox/reset');
    assert.equal(stolenId.json.code, 'INVALID_SIGNATURE');

    for (const [target, method] of [
      [`/_sandbox/ledger?clientId=${a.clientId}`, 'GET'],
      [`/_sandbox/merchants/${a.clientId}`, 'PATCH'],
    ] as const) {
      const answer = await signedControl(base, b.signer, method, target, method === 'GET' ? '' : '{"compressedRetries":true}');
      assert.equal(answer.json.code, 'PERMISSION_DENIED', target);
    }
    const order = await a.api.call({method: 'GET', target: `/v1/orders/${no}`, body: ''});
    assert.equal((JSON.parse(order.response.body) as {data: {status: string}}).data.status, 'PENDING', 'nobody paid it');

    const otherClock = await signedControl(
      base,
      b.signer,
      'POST',
      '/_sandbox/clock/advance',
      JSON.stringify({clientId: a.clientId, seconds: 60}),
    );
    assert.equal(otherClock.json.code, 'PERMISSION_DENIED', "B cannot move A's clock");
    const importing = await signedControl(base, a.signer, 'POST', '/_sandbox/import', '{}');
    assert.equal(importing.json.code, 'PERMISSION_DENIED');
    const sharedReset = await signedControl(
      base,
      {clientId: sharedMerchant, keyVersion: 1, privateKey: await importPrivateKey(sandboxFiles().merchantPrivateKeyPem)},
      'POST',
      '/_sandbox/reset',
    );
    assert.equal(sharedReset.json.code, 'PERMISSION_DENIED', 'the shared merchant has no test tools');
  });

  test("reset, export and faults touch the caller's sandbox alone", async () => {
    const mine = await paidOrder(a);
    const theirs = await paidOrder(b);
    const exported = (await signedControl(base, a.signer, 'GET', '/_sandbox/export')).json as unknown as {records: [string, unknown][]};
    const keys = exported.records.map(([key]) => key);
    assert.ok(keys.some((key) => key.startsWith(`${a.clientId}/order/`)));
    assert.deepEqual(
      keys.filter((key) => key.includes(b.clientId) || key.includes(sharedMerchant)),
      [],
      "A's export holds nothing of B or the shared merchant",
    );
    const bOrders = async () =>
      ((await signedControl(base, b.signer, 'GET', '/_sandbox/export')).json as unknown as {records: [string, unknown][]}).records.filter(
        ([key]) => key.startsWith(`${b.clientId}/order/`),
      );

    const fault = await a.tools.act('control.setFault', {resultCode: 'SYSTEM_BUSY', operationId: 'createOrder', count: 1});
    assert.equal(fault.ok, true, JSON.stringify(fault));
    const busyForB = await b.api.call({method: 'POST', target: '/v1/orders', body: hostedOrder(orderNo())});
    assert.equal(busyForB.response.status, 200, "A's fault does not answer B's calls");
    const busyForA = await a.api.call({method: 'POST', target: '/v1/orders', body: hostedOrder(orderNo())});
    assert.equal((JSON.parse(busyForA.response.body) as {code: string}).code, 'SYSTEM_BUSY');

    const bBefore = await bOrders();
    const reset = await a.tools.act('control.reset', {});
    assert.equal(reset.ok, true, JSON.stringify(reset));
    const gone = await a.api.call({method: 'GET', target: `/v1/orders/${mine}`, body: ''});
    assert.equal(gone.response.status, 404, "A's order is gone after A's reset");
    const kept = await b.api.call({method: 'GET', target: `/v1/orders/${theirs}`, body: ''});
    assert.equal((JSON.parse(kept.response.body) as {data: {status: string}}).data.status, 'PAID', "B's order is untouched");
    const bAfter = await bOrders();
    assert.deepEqual(bAfter, bBefore, "B's orders are exactly as before A's reset");
    const again = await a.api.call({method: 'POST', target: '/v1/orders', body: hostedOrder(orderNo())});
    assert.equal(again.response.status, 200, 'A keeps its key and signs on after its reset');
  });

  test("each merchant has its own clock: A's move expires A's order and settles A's funds, not B's", async () => {
    const [c, d] = [await tenant(base), await tenant(base)];
    await checkMerchantClocksApart(c, base, d, base);
  });

  test('a merchant flooding requests is shed with a signed 429 before verification; the other stays within 4x its quiet latency', async () => {
    const probe = async () => {
      const started = performance.now();
      const answer = await b.api.call({method: 'GET', target: `/v1/orders/${orderNo()}`, body: ''});
      return {ms: performance.now() - started, status: answer.response.status};
    };
    // B reads at 10 a second, half its contract allowance, alone and then beside A's flood of writes.
    const paced = async (count: number, until: () => boolean = () => true) => {
      const results = [];
      for (let index = 0; index < count && until(); index += 1) {
        results.push(await probe());
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return results;
    };
    // A's writes are signed before the flood: on this 2-core machine the flooder's own RSA work would
    // otherwise take the server's cores, which a real flooder's machine does not.
    const now = Date.parse(String((await send(base, 'GET', '/_sandbox/clock')).json['now']));
    const writes = await Promise.all(
      Array.from({length: 400}, () => signRequest(a.signer, {method: 'POST', target: '/v1/orders', body: hostedOrder(orderNo())}, now)),
    );
    const alone = await paced(10);
    // The flooder is a thread of its own, as it would be another machine: only the server's work for it shares B's thread.
    const requests = writes.map((write) => ({target: write.target, body: write.body, headers: withContentType(write)}));
    const floodStarted = performance.now();
    const flooder = new Worker(flooderSource, {eval: true, workerData: {base, writes: requests, connections: 20}});
    await new Promise((resolve) => flooder.once('online', resolve));
    let sent = 0;
    const flooding = new Promise<Flooded[]>((resolve, reject) => {
      flooder.on('message', (message: number | Flooded[]) => (typeof message === 'number' ? (sent = message) : resolve(message)));
      flooder.once('error', reject);
    });
    const beside = await paced(10, () => sent < writes.length * 0.9);
    flooder.postMessage('stop');
    const flooded = await flooding;
    const floodSeconds = (performance.now() - floodStarted) / 1000;
    const limited = flooded.filter((entry) => entry.status === 429);
    const [aloneMs, besideMs] = [median(alone.map((entry) => entry.ms)), median(beside.map((entry) => entry.ms))];
    console.log(
      `flood: A sent ${flooded.length} writes over 20 connections in ${floodSeconds.toFixed(1)} s, ${limited.length} answered 429; B's median ${aloneMs.toFixed(1)} ms alone, ${besideMs.toFixed(1)} ms beside the flood (${beside.length} reads)`,
    );
    assert.ok(beside.length >= 6, `the flood lasted through ${beside.length} of B's reads`);
    const allowance = sandboxFiles().spec.rateLimits.find((entry) => entry.name === 'writes')?.perSecond ?? 0;
    const accepted = flooded.filter((entry) => entry.status === 200).length;
    assert.ok(limited.length > 0, 'the flooder was limited');
    assert.ok(accepted <= allowance * (Math.ceil(floodSeconds) + 1), `${accepted} writes accepted in ${floodSeconds.toFixed(1)} s`);
    assert.ok(
      limited.every((entry) => entry.retryAfter === '1' && entry.signed && entry.code === 'RATE_LIMITED'),
      'every 429 is RATE_LIMITED in the envelope, signed, with Retry-After',
    );
    assert.deepEqual(
      [...alone, ...beside].filter((entry) => entry.status !== 404),
      [],
      'B got only its own answers (ORDER_NOT_FOUND for a number it never used), never a 429',
    );
    // Measured at load averages of 16 to 25 on 2 cores: 1.0 to 2.4x alone, 3.9x once beside another test file;
    // without shedding 14x (28 ms quiet, 406 ms beside the flood).
    assert.ok(
      besideMs < 4 * aloneMs,
      `B's median beside the flood, ${besideMs.toFixed(1)} ms, is within 4x its quiet ${aloneMs.toFixed(1)} ms`,
    );
  });

  test("a burst of one merchant's test tools is shed with a signed 429 before verification; another's test tool is answered at once", async () => {
    // A and B again: registrations are limited per address and minute, and test tools have an allowance of their own.
    const [c, d] = [a, b];
    const now = Date.parse(String((await send(base, 'GET', '/_sandbox/clock')).json['now']));
    const read = {method: 'GET', target: '/_sandbox/notifications', body: ''};
    // Signed before the burst; the last ten name C but are signed with D's key, so only shedding answers them 429.
    const burst = await Promise.all([
      ...Array.from({length: 60}, () => signRequest(c.signer, read, now)),
      ...Array.from({length: 10}, () => signRequest({...d.signer, clientId: c.clientId}, read, now)),
    ]);
    const dCall = withContentType(await signRequest(d.signer, read, now));
    const started = performance.now();
    const answers = Promise.all(
      burst.map(async (signed) => {
        const response = await fetch(`${base}${signed.target}`, {headers: withContentType(signed)});
        const body = (await response.json()) as {code?: string};
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          signed: response.headers.has('x-signature'),
          code: body.code,
        };
      }),
    );
    const dStarted = performance.now();
    const dAnswer = await fetch(`${base}${read.target}`, {headers: dCall});
    const dMs = performance.now() - dStarted;
    const flooded = await answers;
    const seconds = (performance.now() - started) / 1000;
    const limited = flooded.filter((entry) => entry.status === 429);
    const accepted = flooded.slice(0, 60).filter((entry) => entry.status === 200).length;
    const forgedShed = flooded.slice(60).filter((entry) => entry.status === 429).length;
    console.log(
      `test-tool burst: ${accepted} of 60 answered, ${limited.length} shed (${forgedShed} of 10 forged) in ${seconds.toFixed(2)} s; D's test tool ${dMs.toFixed(1)} ms`,
    );
    const {controlRequestsPerSecond} = sandboxFiles().spec.sandbox.hosted;
    assert.ok(limited.length > 0, 'the burst was shed');
    assert.ok(
      accepted <= controlRequestsPerSecond * (Math.ceil(seconds) + 1),
      `${accepted} test tools carried out in ${seconds.toFixed(2)} s`,
    );
    assert.ok(
      limited.every((entry) => entry.retryAfter === '1' && entry.signed && entry.code === 'RATE_LIMITED'),
      'every 429 is RATE_LIMITED in the envelope, signed, with Retry-After',
    );
    // Whether a forged call meets a spent allowance depends on where the second turns during the burst (a busy CI spreads
    // it over several): shedding before the handler, which verifies, is proven without timing in shedding.test.ts. Here a
    // forged call is never carried out: shed (429) or refused by the signature check (401).
    assert.ok(
      flooded.slice(60).every((entry) => entry.status === 429 || entry.status === 401),
      `forged calls naming C: ${flooded
        .slice(60)
        .map((entry) => entry.status)
        .join(', ')}`,
    );
    assert.equal(dAnswer.status, 200, "D's test tool is answered");
    // D's call is neither in C's line nor held: it is answered before C's burst is (216 ms against 960 ms at a load
    // average of about 20; 1.9 s against 4.9 s at about 30, when the burst's signed 429s took the cores).
    assert.ok(dMs < seconds * 1000, `D's test tool took ${dMs.toFixed(1)} ms, C's burst ${seconds.toFixed(2)} s`);
  });
});

describe('hosted retention: idle merchants and old events are swept on the sandbox clock', () => {
  test('a merchant idle past idleMerchantDays is removed, events past their retention go, the shared merchant stays', async () => {
    const {spec} = sandboxFiles();
    const clock = fixedClock(Date.parse('2026-01-01T00:00:00Z'));
    const engine = await createNodeEngine({clock});
    const keys = await generateKeyPair();
    const idle = await engine.control.registerMerchant({publicKeyPem: keys.publicKeyPem});
    const active = await engine.control.registerMerchant({publicKeyPem: keys.publicKeyPem});
    assert.ok(idle.ok && active.ok);
    const signer = {clientId: active.value.clientId, keyVersion: 1, privateKey: await importPrivateKey(keys.privateKeyPem)};
    const apiCall = async (method: string, target: string, body = '') =>
      engine.handle(withHeaders(await signRequest(signer, {method, target, body}, clock.now())));
    const no = orderNo();
    assert.equal((await apiCall('POST', '/v1/orders', hostedOrder(no))).status, 200);
    assert.equal((await engine.shopper.pay(active.value.clientId, no, {method: 'CARD', cardNumber: '4000000000000002'})).ok, true);
    const events = () => engine.exportState().records.filter(([key]) => key.startsWith(`${active.value.clientId}/event/`)).length;
    assert.ok(events() > 0, 'paying raised an event');
    const raised = events();

    // Past both limits for the idle merchant and the events; the active merchant signs a call two days before the end.
    const days = Math.max(spec.sandbox.hosted.idleMerchantDays, spec.delivery.eventRetentionDays) + 1;
    await engine.advance((days - 2) * 86_400);
    assert.equal((await apiCall('GET', `/v1/orders/${no}`)).status, 200);
    await engine.advance(2 * 86_400);
    const swept = await engine.tenants.sweep();
    assert.deepEqual(swept.merchantsRemoved, [idle.value.clientId]);
    assert.ok(engine.merchantIds().includes(active.value.clientId), 'the merchant that signed lately stays');
    assert.ok(engine.merchantIds().includes(spec.sandbox.merchant.clientId), 'the shared merchant is never removed');
    assert.ok(!engine.exportState().records.some(([key]) => key.includes(idle.value.clientId)), 'nothing of the idle merchant is left');
    assert.equal(swept.eventsRemoved, raised);
    assert.equal(events(), 0, 'events older than the retention are gone');
  });
});
