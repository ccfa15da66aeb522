/**
 * The hosted sandbox's instances: two `npm run sandbox -- --shared` processes on one PostgreSQL database behind
 * nginx (hosting/sandbox/nginx.conf), one cluster for the whole file (tests/support/sharedSandbox.ts). They
 * prove the design written at the top of src/sandbox/hosts/server/sharedStore.ts: two instances never apply
 * conflicting changes to one merchant; a replay through the other instance answers as the contract says; each
 * due job runs once and each notification arrives at least once; every instance lists one delivery log, which
 * outlives an instance; a kill -9 of an instance loses no acknowledged write; a PostgreSQL restart is answered
 * 503 with Retry-After and heals by itself; memory holds at most --cache-merchants merchants.
 * Run: node --import tsx --test tests/sandbox/sharedInstances.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {generateKeyPairSync, randomUUID} from 'node:crypto';
import http from 'node:http';
import type {AddressInfo} from 'node:net';
import pg from 'pg';
import {checkMerchantClocksApart, paidOrder, signedControl, tenant} from '../support/hostedTenants';
import {
  remoteClient,
  startedOrStopped,
  startInstanceProcess,
  startSharedSandbox,
  type SandboxInstance,
  type SharedSandbox,
} from '../support/sharedSandbox';
import {type sandboxClient} from '../support/sandboxClient';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {sharedStore} from '../../src/sandbox/hosts/server/sharedStore';
import type {DeliveryLogEntry} from '../../src/sandbox/engine/engine';

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

/** A notification receiver: acknowledges every delivery (or, `refuseFirst`, all but each notification's first) and keeps its body. */
async function receiver(refuseFirst = false): Promise<{url: string; bodies: string[]; close(): Promise<void>}> {
  const bodies: string[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      const id = (JSON.parse(body) as {notificationId: string}).notificationId;
      if (refuseFirst && bodies.filter((seen) => seen.includes(id)).length === 1) return void response.writeHead(500).end('busy');
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

/** A receiver that holds every answer until `open()`: what arrived can be seen while its sender waits. */
async function gatedReceiver() {
  const bodies: string[] = [];
  let opened = false;
  const waiting: Array<() => void> = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      bodies.push(body);
      const acknowledge = () => void response.writeHead(200, {'Content-Type': 'application/json'}).end('{"code":"SUCCESS"}');
      if (opened) acknowledge();
      else waiting.push(acknowledge);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    bodies,
    /** The first notification that arrived, once one has. */
    async arrived(ms: number): Promise<{notificationId: string}> {
      const deadline = Date.now() + ms;
      while (bodies.length === 0 && Date.now() < deadline) await sleep(20);
      assert.ok(bodies[0], `no notification arrived in ${ms} ms`);
      return JSON.parse(bodies[0]) as {notificationId: string};
    },
    open() {
      opened = true;
      for (const acknowledge of waiting.splice(0)) acknowledge();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
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

/**
 * fetch, sent once more when it fails before any answer: a keep-alive connection left idle past the server's
 * 5 s timeout can be closed just as it is reused (the request never reached the server).
 */
const fetchAgain = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Refused {
  no: string;
  status: number;
  code: string;
  retryAfter: string | undefined;
  problems: readonly string[];
}

/** `count` writers creating orders until stopped: what was acknowledged (and when), and what was refused. */
function writers(client: Client, count: number) {
  const acknowledged: Array<{no: string; at: number}> = [];
  const refused: Refused[] = [];
  let stopped = false;
  const running = Array.from({length: count}, async () => {
    while (!stopped) {
      const no = orderNo();
      const answer = await client.call('POST', '/v1/orders', hostedOrder(no)).catch(() => undefined);
      if (answer?.json.code === 'SUCCESS') acknowledged.push({no, at: Date.now()});
      else if (answer) {
        refused.push({
          no,
          status: answer.status,
          code: answer.json.code,
          retryAfter: answer.headers['retry-after'],
          problems: answer.problems,
        });
        await sleep(50);
      }
    }
  });
  return {
    acknowledged,
    refused,
    async until(done: () => boolean, seconds = 20) {
      const deadline = Date.now() + seconds * 1000;
      while (!done() && Date.now() < deadline) await sleep(20);
      assert.ok(done(), `the load did not get there in ${seconds} s (${acknowledged.length} acknowledged, ${refused.length} refused)`);
    },
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** A merchant's delivery log through an instance (`GET /_sandbox/notifications`). */
async function logOf(instance: SandboxInstance, clientId: string): Promise<DeliveryLogEntry[]> {
  const answer = await fetchAgain(`${instance.url}/_sandbox/notifications?clientId=${clientId}`);
  assert.equal(answer.status, 200);
  return ((await answer.json()) as {deliveries: DeliveryLogEntry[]}).deliveries;
}

let sandbox: SharedSandbox;
/** What the delivery log test saw, for the restart after the kill to list again. */
let loggedBeforeKill: {clientId: string; entries: DeliveryLogEntry[]} | undefined;
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

  test('one delivery log for both instances: attempts, a retry and a redelivery listed once through either; each merchant its own', async () => {
    const inbox = await receiver(true);
    const [a, b] = sandbox.instances as [SandboxInstance, SandboxInstance];
    try {
      const [owner, other] = [await merchantNotifying(inbox.url), await merchantNotifying(inbox.url)];
      const attempts = (entries: readonly DeliveryLogEntry[]) =>
        entries.map((entry) => [entry.clientId, entry.notificationId, entry.acknowledged, entry.httpStatus ?? null]);
      /** Waits until both instances list `expected` for `clientId`; answers the log. */
      const bothList = async (clientId: string, expected: unknown[][]) => {
        const deadline = Date.now() + 10_000;
        let seen: unknown[] = [];
        while (Date.now() < deadline) {
          seen = await Promise.all([a, b].map(async (instance) => attempts(await logOf(instance, clientId))));
          if (seen.every((log) => JSON.stringify(log) === JSON.stringify(expected))) return logOf(a, clientId);
          await sleep(100);
        }
        assert.deepEqual(seen, [expected, expected], `${clientId}'s log through both instances`);
        return [];
      };
      const simulate = async (instance: SandboxInstance, clientId: string) => {
        const answer = await fetchAgain(`${instance.url}/_sandbox/notifications/simulate`, {
          method: 'POST',
          headers: {'Content-Type': 'application/json'},
          body: JSON.stringify({clientId, operationId: 'chargeback', scenario: 'opened'}),
        });
        assert.equal(answer.status, 200);
        return ((await answer.json()) as {notificationId: string}).notificationId;
      };
      // Raised through A; its first attempt (refused) is listed through B too, whichever instance made it.
      const id = await simulate(a, owner);
      await bothList(owner, [[owner, id, false, 500]]);
      // The contract's first retry is 15 s later: on the shared clock, claimed by either instance.
      const advanced = await fetch(`${sandbox.url}/_sandbox/clock/advance`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({seconds: 15}),
      });
      assert.equal(advanced.status, 200);
      clockOffsetMs = Date.parse(((await advanced.json()) as {now: string}).now) - Date.now();
      await bothList(owner, [
        [owner, id, false, 500],
        [owner, id, true, 200],
      ]);
      const redeliver = await fetchAgain(`${b.url}/_sandbox/notifications/${id}/redeliver`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({clientId: owner}),
      });
      assert.equal(redeliver.status, 200);
      const log = await bothList(owner, [
        [owner, id, false, 500],
        [owner, id, true, 200],
        [owner, id, true, 200],
      ]);
      assert.equal(inbox.bodies.filter((body) => body.includes(id)).length, log.length, 'each attempt made is listed once');
      assert.ok(log.every((entry) => entry.url === inbox.url && entry.eventType === 'CHARGEBACK.OPENED'));
      // Another merchant's attempt is in its own log only.
      const otherId = await simulate(b, other);
      await bothList(other, [[other, otherId, false, 500]]);
      assert.deepEqual(attempts(await logOf(a, owner)), attempts(log), "the owner's log has none of the other's");
      loggedBeforeKill = {clientId: owner, entries: log};
    } finally {
      await inbox.close();
    }
  });

  test('the simulate answer gives the first attempt when the instance that did not take the call made it', async () => {
    const inbox = await gatedReceiver();
    const [a, b] = sandbox.instances as [SandboxInstance, SandboxInstance];
    const locks = new pg.Client({connectionString: sandbox.database});
    await locks.connect();
    try {
      const [owner, bystander] = [await merchantNotifying(inbox.url), await merchantNotifying(inbox.url)];
      // The test takes both merchants' locks, as an instance's transaction would, to order what A does.
      const lock = (id: string, take: boolean) =>
        locks.query(`SELECT pg_advisory_${take ? 'lock' : 'unlock'}(hashtextextended($1, 0))`, [id]);
      const waiters = async () =>
        Number((await locks.query(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)).rows[0]?.n);
      await lock(owner, true);
      await lock(bystander, true);
      // A takes the simulate call; its transaction waits for the owner's lock.
      const answered = fetchAgain(`${a.url}/_sandbox/notifications/simulate`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({clientId: owner, operationId: 'chargeback', scenario: 'opened'}),
      }).then(async (answer) => ({status: answer.status, json: (await answer.json()) as {notificationId: string; delivery: unknown}}));
      const deadline = Date.now() + 5000;
      while ((await waiters()) < 1 && Date.now() < deadline) await sleep(20);
      // A call of another merchant's queues behind it in A (one transaction at a time), then waits for its lock:
      // A can claim nothing until the test lets it go.
      const blocked = remoteClient(a.url, offset, bystander).call('POST', '/v1/orders', hostedOrder(orderNo()));
      await sleep(500);
      await lock(owner, false);
      // B writes the owner's next version, so it holds the owner (claim affinity) and claims the attempt.
      assert.equal((await remoteClient(b.url, offset, owner).call('POST', '/v1/orders', hostedOrder(orderNo()))).json.code, 'SUCCESS');
      const sent = await inbox.arrived(10_000);
      // B's attempt waits at the receiver; A now runs, and finds the attempt claimed but not yet recorded.
      await lock(bystander, false);
      assert.equal((await blocked).json.code, 'SUCCESS');
      await sleep(300);
      inbox.open();
      const answer = await answered;
      assert.equal(answer.status, 200);
      assert.equal(sent.notificationId, answer.json.notificationId, 'the attempt B made is the simulated one');
      const log = await logOf(a, owner);
      assert.equal(log.length, 1, 'one attempt, made once');
      assert.deepEqual(answer.json.delivery, log[0], "A's answer is the attempt B made, as the log lists it");
      assert.equal(inbox.bodies.length, 1);
    } finally {
      inbox.open();
      await locks.end();
      await inbox.close();
    }
  });

  test("a job poll that finds nothing due answers at once, without waiting for the instance's turn (the calls queued in it)", async () => {
    const store = sharedStore(await sandbox.postgres.createDatabase('poll'), {preload: []});
    try {
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      // A call in its merchant's transaction holds this instance's turn until released.
      const call = store.withMerchant(
        'poll-merchant',
        async () => undefined,
        () => held,
      );
      const poll = store.claimDueJob(
        Date.now(),
        new Map(),
        async () => undefined,
        async () => undefined,
      );
      const first = await Promise.race([poll.then((claimed) => claimed ?? 'nothing due'), sleep(5000).then(() => 'still waiting')]);
      release();
      await call;
      assert.equal(first, 'nothing due');
    } finally {
      await store.close();
    }
  });

  test("a call's transaction is three round trips: BEGIN with the lock and reads, the batch, the version bump with COMMIT", async () => {
    const url = await sandbox.postgres.createDatabase('roundtrips');
    const store = sharedStore(url, {preload: []});
    // The driver sends a query only when the previous one has answered: each query() is one round trip.
    const query = pg.Client.prototype.query;
    let trips = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof query>) {
      trips += 1;
      return (query as (...rest: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    try {
      const call = async (value: string) => {
        let seen: string | null = 'not locked';
        const done = await store.withMerchant(
          'trips-merchant',
          async (merchant) => void (seen = merchant.version),
          () => store.commit([{key: 'trips-merchant/notes/one', value}]),
        );
        return {seen, version: done.version};
      };
      // The first call also opens the store (migrations, the instances' shared lock).
      const first = await call('first');
      trips = 0;
      const second = await call('second');
      assert.equal(trips, 3, `round trips of one call: ${trips}`);
      // The reads after the lock see the last commit, and the bump gives a new version.
      assert.equal(second.seen, first.version);
      assert.ok(second.version !== null && second.version !== first.version);
    } finally {
      pg.Client.prototype.query = query;
      await store.close();
    }
    const reader = new pg.Client({connectionString: url});
    await reader.connect();
    try {
      const stored = await reader.query<{value: string}>(
        "SELECT value::text AS value FROM sandbox_record WHERE key = 'trips-merchant/notes/one'",
      );
      assert.equal(stored.rows[0]?.value, '"second"');
    } finally {
      await reader.end();
    }
  });

  test('memory holds at most --cache-merchants merchants; a dropped one is loaded again when called', async () => {
    const instance = sandbox.instances[1];
    assert.ok(instance);
    const registered: string[] = [];
    // Keys first, so the calls follow each other closely.
    const keys = Array.from({length: 4}, () => generateKeyPairSync('rsa', {modulusLength: 2048}).publicKey);
    for (const publicKey of keys) {
      const answer: Response = await fetchAgain(`${instance.url}/_sandbox/merchants`, {
        method: 'POST',
        headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({publicKeyPem: publicKey.export({type: 'spki', format: 'pem'})}),
      });
      assert.equal(answer.status, 200);
      registered.push(((await answer.json()) as {clientId: string}).clientId);
    }
    for (const clientId of registered) {
      const balances: Response = await fetchAgain(`${instance.url}/_sandbox/balances?clientId=${clientId}`);
      assert.equal(balances.status, 200, clientId);
      const health = (await (await fetchAgain(`${instance.url}/_sandbox/health`)).json()) as {cachedMerchants: number};
      assert.ok(health.cachedMerchants <= 2, `${health.cachedMerchants} merchants in memory`);
    }
    const first = await fetchAgain(`${instance.url}/_sandbox/balances?clientId=${registered[0] ?? ''}`);
    assert.equal(first.status, 200);
  });

  test('kill -9 of an instance under load: no acknowledged write lost, the other instance serves at once', async (t) => {
    const client = remoteClient(sandbox.url, offset);
    const victim = sandbox.instances[0];
    const survivor = sandbox.instances[1];
    assert.ok(victim && survivor);
    const load = writers(client, 4);
    let killedAt = 0;
    try {
      await load.until(() => load.acknowledged.length >= 20);
      killedAt = Date.now();
      await victim.stop('SIGKILL');
      await load.until(() => load.acknowledged.some((ack) => ack.at > killedAt + 100) && load.acknowledged.length >= 40);
    } finally {
      await load.stop();
    }
    const failoverMs = (load.acknowledged.find((ack) => ack.at > killedAt)?.at ?? Infinity) - killedAt;
    t.diagnostic(
      `acknowledged ${load.acknowledged.length}, refused ${load.refused.length}; first write acknowledged ${failoverMs} ms after the kill`,
    );
    assert.ok(failoverMs < 5000, `no write was acknowledged in ${failoverMs} ms after the kill`);
    // Refusals are answers the client saw as such (nginx's 503 for a call the killed instance held): nothing acknowledged.
    for (const refused of load.refused) assert.equal(refused.code, 'SYSTEM_BUSY', JSON.stringify(refused));
    const direct = remoteClient(survivor.url, offset);
    const found = await Promise.all(load.acknowledged.map((ack) => orderCode(direct, ack.no)));
    assert.deepEqual(
      load.acknowledged.flatMap((ack, index) => (found[index] === 'SUCCESS' ? [] : [`${ack.no}: ${String(found[index])}`])),
      [],
      'acknowledged orders lost',
    );
    // Back behind nginx for the tests after this one.
    await sandbox.startInstance(victim.port);
  });

  test('the delivery log survives an instance restart: the instance restarted after the kill lists it as before', async () => {
    assert.ok(loggedBeforeKill, 'the delivery log test above records a log first (run the whole file)');
    const restarted = sandbox.instances.at(-1);
    assert.ok(restarted && restarted !== sandbox.instances[1]);
    assert.deepEqual(await logOf(restarted, loggedBeforeKill.clientId), loggedBeforeKill.entries);
  });

  test('PostgreSQL restarted under load: 503 SYSTEM_BUSY with Retry-After meanwhile, nothing half-written, back by itself', async (t) => {
    const client = remoteClient(sandbox.url, offset);
    const load = writers(client, 3);
    let upAt = 0;
    try {
      await load.until(() => load.acknowledged.length >= 10);
      await sandbox.postgres.restart(1500);
      upAt = Date.now();
      await load.until(() => load.acknowledged.some((ack) => ack.at > upAt));
    } finally {
      await load.stop();
    }
    const recoveryMs = (load.acknowledged.find((ack) => ack.at > upAt)?.at ?? Infinity) - upAt;
    t.diagnostic(
      `acknowledged ${load.acknowledged.length}, answered 503 ${load.refused.length}; first write ${recoveryMs} ms after PostgreSQL was back`,
    );
    assert.ok(load.refused.length > 0, 'no call was made while PostgreSQL was down');
    for (const refused of load.refused) {
      assert.equal(refused.status, 503, JSON.stringify(refused));
      assert.equal(refused.code, 'SYSTEM_BUSY', JSON.stringify(refused));
      assert.equal(refused.retryAfter, '1', JSON.stringify(refused));
      assert.deepEqual(refused.problems, [], 'an instance signs its 503 as it signs every answer');
    }
    assert.ok(recoveryMs < 10_000, `no write acknowledged in ${recoveryMs} ms after PostgreSQL came back`);
    const acknowledged = await Promise.all(load.acknowledged.map((ack) => orderCode(client, ack.no)));
    assert.deepEqual(new Set(acknowledged), new Set(['SUCCESS']), 'every acknowledged order is there');
    // A refused create left nothing behind: the same number is free, and creates it now.
    for (const refused of load.refused.slice(0, 5)) {
      assert.equal((await client.call('POST', '/v1/orders', hostedOrder(refused.no))).json.code, 'SUCCESS', refused.no);
    }
  });
});

describe('the hosted sandbox on two instances (--hosted --shared): tenants live in the database', () => {
  let tenants: string;
  let one: SandboxInstance;
  let two: SandboxInstance;
  const sql = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({connectionString: tenants});
    await client.connect();
    try {
      return await client.query(text, values);
    } finally {
      await client.end();
    }
  };

  before(async () => {
    tenants = await sandbox.postgres.createDatabase('tenants');
    // Port 0: each instance binds a free port itself (startInstanceProcess).
    [one, two] = (await startedOrStopped([0, 0].map((port) => startInstanceProcess(tenants, port, ['--hosted'])))) as [
      SandboxInstance,
      SandboxInstance,
    ];
  });
  after(async () => {
    await Promise.all([one, two].map((instance) => instance?.stop('SIGKILL')));
  });

  test('registered through one instance, served signed by the other; foreign-signed control calls refused through either', async () => {
    const a = await tenant(one.url, two.url);
    const b = await tenant(two.url, one.url);
    const no = await paidOrder(a);
    const exported = (await signedControl(one.url, a.signer, 'GET', '/_sandbox/export')).json as unknown as {records: [string, unknown][]};
    assert.ok(
      exported.records.some(([key]) => key === `${a.clientId}/order/${no}`),
      'the first instance serves what A did through the second',
    );
    const pay = JSON.stringify({clientId: a.clientId, merchantOrderNo: orderNo(), method: 'CARD', cardNumber: '4000000000000002'});
    for (const instance of [one, two]) {
      const foreign = await signedControl(instance.url, b.signer, 'POST', '/_sandbox/shopper/pay', pay);
      assert.equal(foreign.status, 403, instance.url);
      assert.equal(foreign.json.code, 'PERMISSION_DENIED', instance.url);
      const stolenId = await signedControl(instance.url, {...b.signer, clientId: a.clientId}, 'POST', '/_sandbox/reset');
      assert.equal(stolenId.json.code, 'INVALID_SIGNATURE', `B's key does not sign for A through ${instance.url}`);
    }
    const still = await signedControl(two.url, a.signer, 'GET', '/_sandbox/export');
    assert.ok((still.json as unknown as {records: [string, unknown][]}).records.some(([key]) => key === `${a.clientId}/order/${no}`));
  });

  test("one signed delivery log for both instances, each merchant's own: A's attempt is listed to A through either, never to B", async () => {
    const inbox = await receiver();
    try {
      const a = await tenant(one.url, two.url);
      const b = await tenant(two.url, one.url);
      const body = JSON.stringify({clientId: a.clientId, operationId: 'chargeback', scenario: 'opened', notifyUrl: inbox.url});
      const simulated = await signedControl(one.url, a.signer, 'POST', '/_sandbox/notifications/simulate', body);
      assert.equal(simulated.status, 200, JSON.stringify(simulated.json));
      const id = String(simulated.json['notificationId']);
      // The answer carries the first attempt (signed test tools answered before any attempt once said null).
      const first = simulated.json['delivery'] as DeliveryLogEntry | null;
      assert.deepEqual([first?.notificationId, first?.acknowledged], [id, true], JSON.stringify(simulated.json));
      const listed = async (instance: SandboxInstance, signer: typeof a.signer) =>
        ((await signedControl(instance.url, signer, 'GET', '/_sandbox/notifications')).json['deliveries'] as DeliveryLogEntry[]).map(
          (entry) => [entry.clientId, entry.notificationId, entry.acknowledged],
        );
      const expected = [[a.clientId, id, true]];
      const deadline = Date.now() + 10_000;
      while (JSON.stringify(await listed(two, a.signer)) !== JSON.stringify(expected) && Date.now() < deadline) await sleep(200);
      assert.deepEqual([await listed(one, a.signer), await listed(two, a.signer)], [expected, expected]);
      assert.deepEqual([await listed(one, b.signer), await listed(two, b.signer)], [[], []], "none of A's attempts is B's to see");
    } finally {
      await inbox.close();
    }
  });

  test("each merchant's clock is its own across instances: A's move expires A's order, not B's, nor B's settlement", async () => {
    const a = await tenant(one.url);
    const b = await tenant(two.url);
    await checkMerchantClocksApart(a, one.url, b, two.url);
  });

  test('an idle merchant is removed once, by one instance, with its delivery log, and then is unknown to both; old attempts go', async () => {
    const idle = await tenant(one.url, two.url);
    const active = await tenant(two.url);
    // Delivery attempts: the idle merchant's, one of the active merchant's past the events' retention, and one of today.
    const today = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const attempts = [idle.clientId, active.clientId, active.clientId].map((clientId, index) => [
      clientId,
      `ntf_${index}`,
      index === 1 ? '2020-01-01T00:00:00Z' : today,
    ]);
    for (const [clientId, id, at] of attempts)
      await sql(
        `INSERT INTO sandbox_delivery (client_id, notification_id, event_type, url, at, acknowledged) VALUES ($1, $2, 'ORDER.PAID', 'https://shop.example.com/n', $3, true)`,
        [clientId, id, at],
      );
    await sql('UPDATE sandbox_merchant SET last_used_at = 0 WHERE client_id = $1', [idle.clientId]);
    await sql("UPDATE sandbox_sweep SET due_at = 0 WHERE name = 'hosted'");
    const deadline = Date.now() + 10_000;
    while ((await sql('SELECT 1 FROM sandbox_merchant WHERE client_id = $1', [idle.clientId])).rowCount && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const removals = [one, two].map((instance) => instance.output().match(/removed 1 idle merchants/g)?.length ?? 0);
    assert.deepEqual(removals.sort(), [0, 1], 'one instance removed it, once');
    assert.equal((await sql('SELECT count(*)::int AS n FROM sandbox_record WHERE client_id = $1', [idle.clientId])).rows[0]?.n, 0);
    const left = await sql('SELECT client_id, notification_id FROM sandbox_delivery WHERE client_id = ANY($1) ORDER BY 1', [
      [idle.clientId, active.clientId],
    ]);
    assert.deepEqual(
      left.rows,
      [{client_id: active.clientId, notification_id: 'ntf_2'}],
      "only the active merchant's recent attempt is left",
    );
    for (const instance of [one, two]) {
      const gone = await signedControl(instance.url, idle.signer, 'GET', '/_sandbox/export');
      assert.equal(gone.json.code, 'UNKNOWN_CLIENT', instance.url);
    }
    assert.equal(
      (await active.api.call({method: 'POST', target: '/v1/orders', body: JSON.stringify(hostedOrder(orderNo()))})).response.status,
      200,
    );
  });

  // Last here: it kills the first instance.
  test("claim affinity: a merchant's job runs on the instance holding it while that is up, on the other one grace after a kill", async () => {
    const inbox = await receiver(true);
    try {
      const a = await tenant(one.url);
      /** A notification of A's through `one`, whose first attempt the receiver refuses: its retry waits as a job. */
      const refusedOnce = async () => {
        const body = JSON.stringify({clientId: a.clientId, operationId: 'chargeback', scenario: 'opened', notifyUrl: inbox.url});
        const simulated = await signedControl(one.url, a.signer, 'POST', '/_sandbox/notifications/simulate', body);
        assert.equal(simulated.status, 200, JSON.stringify(simulated.json));
        const id = String(simulated.json['notificationId']);
        // The refusal is recorded (with the retry) just after the answer.
        const deadline = Date.now() + 5000;
        const recorded = () => sql('SELECT 1 FROM sandbox_delivery WHERE client_id = $1 AND notification_id = $2', [a.clientId, id]);
        while (!(await recorded()).rowCount && Date.now() < deadline) await sleep(20);
        return id;
      };
      const attempts = (id: string) => inbox.bodies.filter((body) => body.includes(id)).length;
      /** Makes A's waiting retry due now, as the contract's 15 s would (A's clock is real time: it was never moved). */
      const dueNow = async () => {
        const moved = await sql(
          `UPDATE sandbox_record SET value = jsonb_set(value::jsonb, '{at}', to_jsonb(extract(epoch FROM clock_timestamp()) * 1000))::json
           WHERE key LIKE '~/job/%' AND client_id = $1 AND value->>'kind' = 'event.deliver'`,
          [a.clientId],
        );
        assert.equal(moved.rowCount, 1, 'one retry waits');
        // A's version stays: the instance holding A keeps holding it (its copy's job, due later, is sent by id).
        return Date.now();
      };
      const retried = async (id: string, seconds: number) => {
        const deadline = Date.now() + seconds * 1000;
        while (attempts(id) < 2 && Date.now() < deadline) await sleep(50);
        assert.equal(attempts(id), 2, `${id}: the retry was sent`);
        return Date.now();
      };
      const foreignRuns = (instance: SandboxInstance) => instance.output().split(`of ${a.clientId}, not held here`).length - 1;

      const first = await refusedOnce();
      await dueNow();
      await retried(first, 5);
      assert.deepEqual([foreignRuns(one), foreignRuns(two)], [0, 0], 'the instance holding A ran its job');

      const second = await refusedOnce();
      await one.stop('SIGKILL');
      const due = await dueNow();
      const waited = (await retried(second, 10)) - due;
      // The other instance waits out the grace (2 s) for an instance holding A, then claims at its next poll (200 ms);
      // the upper bound leaves room for a busy CI machine, the lower one is what proves the grace.
      assert.ok(waited >= 1500 && waited < 10_000, `sent ${waited} ms after due`);
      assert.equal(foreignRuns(two), 1, two.output().slice(-500));
    } finally {
      await inbox.close();
    }
  });
});
