/**
 * One conformance suite for the places the local sandbox keeps its state: the journal file (--data) and a
 * PostgreSQL database (--database). Each must keep what it acknowledged across a restart and a kill in the
 * middle of writes, empty on reset, take an import whole or not at all, refuse a second sandbox while one
 * runs, and refuse (and leave as it was) a place that holds something else. The journal's own cases (a
 * torn line, compaction, a damaged line) stay in server.test.ts.
 *
 * PostgreSQL comes from Debian's package (tests/support/postgres.ts starts a throwaway server).
 * Run: node --import tsx --test tests/sandbox/stores.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {spawn} from 'node:child_process';
import {randomUUID} from 'node:crypto';
import {mkdtempSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {httpTarget} from '../../src/sandbox/client/overHttp';
import {fileStore, JournalFileError} from '../../src/sandbox/hosts/server/fileStore';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import type {DeliveryLogEntry} from '../../src/sandbox/engine/engine';
import {postgresStore, SandboxDatabaseError} from '../../src/sandbox/hosts/server/postgresStore';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import type {SandboxStore} from '../../src/sandbox/engine/store';
import {sandboxClient} from '../support/sandboxClient';
import {startPostgres, type TestPostgres} from '../support/postgres';
import {sandboxBundle} from '../support/sandboxBundle';

type ClosableStore = SandboxStore & {close(): Promise<void>};

/** A kind of store: how to make a fresh place for it, open a store there, and name it on the command line. */
interface StoreKind {
  readonly name: string;
  fresh(label: string): Promise<string>;
  open(place: string): ClosableStore;
  flags(place: string): string[];
  /** Puts something that is not a sandbox's into a fresh place; returns how to see it is untouched. */
  foreign(place: string): Promise<() => Promise<unknown>>;
  readonly refusal: new (...args: never[]) => Error;
  /** Whether the delivery log outlives the process: PostgreSQL keeps it, the journal does not (it holds records only). */
  readonly keepsDeliveryLog: boolean;
}

const orderNo = () => `ORD-${randomUUID().slice(0, 18)}`;
const hostedOrder = (merchantOrderNo: string) => ({
  merchantOrderNo,
  amount: {value: 1000, currency: 'USD'},
  scene: 'HOSTED_PAYPAGE',
  subject: 'Store test',
  returnUrl: 'https://shop.example.com/return',
});

/** Runs `work` on an engine over a store at `place`, then closes both, as a restart would. */
async function withEngine<T>(
  kind: StoreKind,
  place: string,
  work: (client: ReturnType<typeof sandboxClient>, engine: Awaited<ReturnType<typeof createNodeEngine>>) => Promise<T>,
  transport?: NotificationTransport,
): Promise<T> {
  const store = kind.open(place);
  try {
    // Without rate limits: a test reads back many orders at once.
    const engine = await createNodeEngine({store, rateLimits: false, ...(transport ? {transport} : {})});
    const client = sandboxClient({handle: (request) => engine.handle(request), now: () => engine.clock.now()});
    return await work(client, engine);
  } finally {
    await store.close();
  }
}

const orderCode = async (client: ReturnType<typeof sandboxClient>, no: string) => (await client.call('GET', `/v1/orders/${no}`)).json.code;

let postgres: TestPostgres;
let directory: string;
before(async () => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'sandbox-stores-'));
  postgres = await startPostgres();
});
after(async () => {
  await postgres?.stop();
  rmSync(directory, {recursive: true, force: true});
});

const kinds: StoreKind[] = [
  {
    name: 'the journal file',
    fresh: async (label) => path.join(directory, `${label}.journal`),
    open: (file) => fileStore(file),
    flags: (file) => ['--data', file],
    foreign: async (file) => {
      writeFileSync(file, 'my notes\n');
      return async () => readFileSync(file, 'utf8');
    },
    refusal: JournalFileError,
    keepsDeliveryLog: false,
  },
  {
    name: 'a PostgreSQL database',
    fresh: (label) => postgres.createDatabase(`${label.replace(/-/g, '_')}_${randomUUID().slice(0, 8)}`),
    open: (url) => postgresStore(url),
    flags: (url) => ['--database', url],
    foreign: async (url) => {
      const client = new pg.Client({connectionString: url});
      await client.connect();
      await client.query("CREATE TABLE invoices (id integer PRIMARY KEY, note text); INSERT INTO invoices VALUES (1, 'mine')");
      await client.end();
      return async () => {
        const reader = new pg.Client({connectionString: url});
        await reader.connect();
        const tables = await reader.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1");
        const rows = await reader.query('SELECT * FROM invoices');
        await reader.end();
        return {tables: tables.rows, rows: rows.rows};
      };
    },
    refusal: SandboxDatabaseError,
    keepsDeliveryLog: true,
  },
];

/**
 * Runs the sandbox's command line (the bundled download, tests/support/sandboxBundle.ts) expecting it to stop by
 * itself (a refusal); its exit code and what it printed.
 */
async function runCli(flags: readonly string[]): Promise<{code: number | null; output: string}> {
  const child = spawn(process.execPath, [await sandboxBundle(), ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolve) => child.once('exit', (code) => (clearTimeout(timer), resolve({code, output}))));
}

/** Starts the sandbox's command line with the store's flags; resolves with its URL once it prints its first line. */
async function startCli(flags: readonly string[]): Promise<{url: string; kill(): Promise<void>}> {
  const child = spawn(process.execPath, [await sandboxBundle(), '--port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the sandbox did not start in 30 s:\n${output}`)), 30_000);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /sandbox at (http:\/\/\S+) /.exec(output)?.[1];
      if (!url) return;
      clearTimeout(timer);
      resolve({
        url,
        kill: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGKILL');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${String(code)} before it started:\n${output}`)));
  });
}

for (const kind of kinds) {
  describe(`the sandbox kept in ${kind.name}`, () => {
    test('keeps what it acknowledged across a restart', async () => {
      const place = await kind.fresh('restart');
      const no = orderNo();
      await withEngine(kind, place, async (client) =>
        assert.equal((await client.call('POST', '/v1/orders', hostedOrder(no))).json.code, 'SUCCESS'),
      );
      assert.equal(await withEngine(kind, place, (client) => orderCode(client, no)), 'SUCCESS');
    });

    test('a reset empties it, and stays empty after a restart', async () => {
      const place = await kind.fresh('reset');
      const no = orderNo();
      await withEngine(kind, place, async (client, engine) => {
        assert.equal((await client.call('POST', '/v1/orders', hostedOrder(no))).json.code, 'SUCCESS');
        await engine.control.reset();
        assert.equal(await orderCode(client, no), 'ORDER_NOT_FOUND');
      });
      assert.equal(await withEngine(kind, place, (client) => orderCode(client, no)), 'ORDER_NOT_FOUND');
    });

    test('an import replaces the whole state, durably; a refused one changes nothing', async () => {
      const exportedNo = orderNo();
      const exported = await withEngine(kind, await kind.fresh('export'), async (client, engine) => {
        assert.equal((await client.call('POST', '/v1/orders', hostedOrder(exportedNo))).json.code, 'SUCCESS');
        return engine.exportState();
      });
      const place = await kind.fresh('import');
      const own = orderNo();
      await withEngine(kind, place, async (client, engine) => {
        assert.equal((await client.call('POST', '/v1/orders', hostedOrder(own))).json.code, 'SUCCESS');
        const refused = await engine.importState({...exported, records: [['~/nothing/1', 1]]});
        assert.equal(refused.ok, false);
        assert.equal(await orderCode(client, own), 'SUCCESS', 'a refused import changes nothing');
        assert.equal((await engine.importState(exported)).ok, true);
      });
      assert.deepEqual(
        await withEngine(kind, place, async (client) => [await orderCode(client, exportedNo), await orderCode(client, own)]),
        ['SUCCESS', 'ORDER_NOT_FOUND'],
      );
    });

    test(`the delivery log lists each attempt with its status, a redelivery once, each merchant its own; ${kind.keepsDeliveryLog ? 'it survives a restart' : 'a restart starts it empty'}; a reset empties it`, async () => {
      const place = await kind.fresh('deliveries');
      // The receiver refuses each notification's first attempt, then acknowledges.
      const seen = new Map<string, number>();
      const transport: NotificationTransport = {
        deliver: async ({body}) => {
          const id = (JSON.parse(body) as {notificationId: string}).notificationId;
          seen.set(id, (seen.get(id) ?? 0) + 1);
          return seen.get(id) === 1 ? {status: 500, body: 'busy'} : {status: 200, body: '{"code":"SUCCESS"}'};
        },
      };
      const notifyUrl = 'https://shop.example.com/hooks/veloxa';
      const attemptsOf = (entries: readonly DeliveryLogEntry[]) =>
        entries.map((entry) => [entry.notificationId, entry.acknowledged, entry.httpStatus ?? null, entry.url]);
      const {owner, other, ownerId, otherId} = await withEngine(
        kind,
        place,
        async (_client, engine) => {
          const raise = async (clientId: string) => {
            const simulated = await engine.control.simulateNotification(clientId, {
              operationId: 'chargeback',
              scenario: 'opened',
              notifyUrl,
            });
            assert.ok(simulated.ok, JSON.stringify(simulated));
            await engine.runDue();
            await engine.settle();
            return simulated.value.notificationId;
          };
          const ownerId = engine.merchantIds()[0] ?? '';
          const registered = await engine.control.registerMerchant({publicKeyPem: sandboxFiles().merchantPublicKeyPem});
          assert.ok(registered.ok);
          const otherId = registered.value.clientId;
          const owned = await raise(ownerId);
          // The first retry is due 15 s later; then a redelivery asked for by hand.
          await engine.advance(15);
          assert.equal((await engine.control.redeliver(ownerId, owned)).ok, true);
          await engine.runDue();
          await engine.settle();
          const others = await raise(otherId);
          const owner = await engine.control.deliveries(ownerId);
          assert.deepEqual(attemptsOf(owner), [
            [owned, false, 500, notifyUrl],
            [owned, true, 200, notifyUrl],
            [owned, true, 200, notifyUrl],
          ]);
          const other = await engine.control.deliveries(otherId);
          assert.deepEqual(attemptsOf(other), [[others, false, 500, notifyUrl]]);
          assert.deepEqual(attemptsOf(await engine.control.deliveries()), [...attemptsOf(owner), ...attemptsOf(other)]);
          return {owner, other, ownerId, otherId};
        },
        transport,
      );
      await withEngine(kind, place, async (_client, engine) => {
        assert.deepEqual(await engine.control.deliveries(ownerId), kind.keepsDeliveryLog ? owner : []);
        assert.deepEqual(await engine.control.deliveries(otherId), kind.keepsDeliveryLog ? other : []);
        await engine.control.reset();
        assert.deepEqual(await engine.control.deliveries(), []);
      });
      assert.deepEqual(await withEngine(kind, place, (_client, engine) => engine.control.deliveries()), []);
    });

    test('refuses a second sandbox while one runs, in one line with exit code 2; starts once the first has stopped', async () => {
      const place = await kind.fresh('held');
      // Held by a store in this process: the command-line sandbox is the second one.
      const first = kind.open(place);
      await first.load();
      try {
        const second = await runCli([...kind.flags(place), '--port', '0']);
        assert.equal(second.code, 2, second.output);
        assert.match(second.output, /^sandbox: (data file|database) .* in use by another sandbox/);
        assert.equal(second.output.trim().split('\n').length, 1, second.output);
      } finally {
        await first.close();
      }
      const again = kind.open(place);
      await again.load();
      await again.close();
    });

    test('refuses a place that holds something else, and leaves it as it was', async () => {
      const place = await kind.fresh('foreign');
      const look = await kind.foreign(place);
      const before = await look();
      const store = kind.open(place);
      await assert.rejects(store.load(), (error: Error) => error instanceof kind.refusal && error.message.length < 300);
      await store.close();
      assert.deepEqual(await look(), before);
    });

    test('a kill in the middle of writes loses nothing it acknowledged (the sandbox process, SIGKILL)', async () => {
      const place = await kind.fresh('kill');
      const sandbox = await startCli([...kind.flags(place), '--no-rate-limits']);
      const target = httpTarget(sandbox.url);
      // The command-line sandbox runs on the real clock.
      const remote = sandboxClient({
        handle: (request) =>
          target.call({
            ...request,
            headers: Object.fromEntries(
              Object.entries(request.headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
            ),
          }),
        now: () => Date.now(),
      });
      const acknowledged: string[] = [];
      let refusal: string | undefined;
      let killed = false;
      const writers = Array.from({length: 4}, async () => {
        while (!killed) {
          const no = orderNo();
          const answer = await remote.call('POST', '/v1/orders', hostedOrder(no)).catch(() => undefined);
          if (answer === undefined) return;
          if (answer.json.code !== 'SUCCESS') return void (refusal ??= `${answer.json.code}: ${answer.json.message}`);
          acknowledged.push(no);
        }
      });
      const deadline = Date.now() + 20_000;
      while (acknowledged.length < 20 && refusal === undefined && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(refusal, undefined, `the sandbox refused an order before the kill: ${String(refusal)}`);
      assert.ok(acknowledged.length >= 20, `only ${acknowledged.length} orders acknowledged in 20 s`);
      await sandbox.kill();
      killed = true;
      await Promise.all(writers);
      const found = await whileStillInUse(() =>
        withEngine(kind, place, (client) => Promise.all(acknowledged.map((no) => orderCode(client, no)))),
      );
      assert.deepEqual(
        acknowledged.flatMap((no, index) => (found[index] === 'SUCCESS' ? [] : [`${no}: ${String(found[index])}`])),
        [],
        `of ${acknowledged.length} acknowledged orders, these were lost`,
      );
    });
  });
}

/**
 * Runs `open` again while it is refused as still in use, for up to 10 s: a killed sandbox's PostgreSQL session (and
 * its lock) ends only once the server notices the closed socket, which a machine busy with other suites can delay
 * by a second or more (seen in CI). Any other error, or a refusal that lasts, fails the test.
 */
async function whileStillInUse<T>(open: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!/is in use/.test(String(error)) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
