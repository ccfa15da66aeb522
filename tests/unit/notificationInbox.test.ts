/**
 * The notification inbox (src/sandbox/client/inbox.ts), written once for the browser host and the MCP
 * session: it keeps a notification before acknowledging it, numbers arrivals, keeps the newest `limit`,
 * verifies with the provider key, and replaces or empties its list only after the storage did.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createInbox, inboxEntriesOf, memoryInboxStorage, type InboxEntry, type InboxStorage} from '../../src/sandbox/client/inbox';
import {importPublicKey} from '../../src/lib/signing';
import {fixedClock, isoSeconds} from '../../src/sandbox/engine/clock';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

/** Storage that records what the inbox asked of it, and fails `add` while `failing` is set. */
function recordingStorage(kept: InboxEntry[] = []) {
  const calls: string[] = [];
  let failing = false;
  const storage: InboxStorage = {
    load: async () => kept,
    add: async (entry, dropped) => {
      if (failing) throw new Error('disk full');
      calls.push(`add ${entry.seq} drop ${dropped.map((old) => old.seq).join(',')}`);
    },
    replace: async (entries) => void calls.push(`replace ${entries.map((entry) => entry.seq).join(',')}`),
    clear: async () => void calls.push('clear'),
  };
  return {storage, calls, fail: (value: boolean) => (failing = value)};
}

const delivery = (n: number) => ({
  url: 'https://shop.example.com/payments/notify',
  headers: {'X-Signature': `s${n}`},
  body: JSON.stringify({notificationId: `ntf_${n}`}),
  timeoutSeconds: 10,
});
const at = () => '2026-11-26T12:00:00Z';

describe('the notification inbox', () => {
  test('receives: keeps the notification, then acknowledges it with 200 SUCCESS; numbers arrivals from 1', async () => {
    const {storage, calls} = recordingStorage();
    const inbox = createInbox({storage, receivedAt: at});
    assert.deepEqual(await inbox.transport.deliver(delivery(1)), {status: 200, body: '{"code":"SUCCESS"}'});
    await inbox.transport.deliver(delivery(2));
    assert.deepEqual(
      inbox.entries.map((entry) => entry.seq),
      [1, 2],
    );
    assert.deepEqual(calls, ['add 1 drop ', 'add 2 drop ']);
    assert.equal(inbox.entries[0]?.receivedAt, '2026-11-26T12:00:00Z');
    assert.equal(inbox.find('ntf_2')?.seq, 2);
    assert.equal(inbox.find('ntf_9'), undefined);
    assert.deepEqual(
      inbox.since(1).map((entry) => entry.seq),
      [2],
    );
  });

  test('a notification the storage could not keep is not acknowledged and not listed: the engine delivers it again', async () => {
    const {storage, fail} = recordingStorage();
    const inbox = createInbox({storage, receivedAt: at});
    fail(true);
    await assert.rejects(inbox.transport.deliver(delivery(1)), /disk full/);
    assert.equal(inbox.entries.length, 0);
    fail(false);
    await inbox.transport.deliver(delivery(1));
    assert.deepEqual(
      inbox.entries.map((entry) => entry.seq),
      [1],
    );
  });

  test('keeps the newest `limit`, telling the storage which entries it dropped; numbers carry on', async () => {
    const {storage, calls} = recordingStorage();
    const inbox = createInbox({storage, limit: 3, receivedAt: at});
    for (let n = 1; n <= 5; n++) await inbox.transport.deliver(delivery(n));
    assert.deepEqual(
      inbox.entries.map((entry) => entry.seq),
      [3, 4, 5],
    );
    assert.deepEqual(calls.slice(3), ['add 4 drop 1', 'add 5 drop 2']);
  });

  test('deliveries at the same moment get one number each, in order', async () => {
    const inbox = createInbox({storage: memoryInboxStorage(), receivedAt: at});
    await Promise.all([1, 2, 3, 4].map((n) => inbox.transport.deliver(delivery(n))));
    assert.deepEqual(
      inbox.entries.map((entry) => entry.seq),
      [1, 2, 3, 4],
    );
  });

  test('loads what the storage kept, oldest first, and numbers on from the newest', async () => {
    const kept = [3, 1, 2].map((seq) => ({seq, ...delivery(seq), receivedAt: at()}));
    const inbox = createInbox({storage: recordingStorage(kept).storage, receivedAt: at});
    await inbox.load();
    assert.deepEqual(
      inbox.entries.map((entry) => entry.seq),
      [1, 2, 3],
    );
    await inbox.transport.deliver(delivery(4));
    assert.equal(inbox.entries.at(-1)?.seq, 4);
  });

  test('replace numbers an import again and keeps the newest; clear empties storage and list; forget only the list', async () => {
    const {storage, calls} = recordingStorage();
    const inbox = createInbox({storage, limit: 2, receivedAt: at});
    const list = inbox.entries;
    await inbox.replace([1, 2, 3].map((n) => ({...delivery(n), receivedAt: at()})));
    assert.deepEqual(
      inbox.entries.map((entry) => [entry.seq, JSON.parse(entry.body).notificationId]),
      [
        [1, 'ntf_2'],
        [2, 'ntf_3'],
      ],
    );
    assert.equal(inbox.entries, list, 'the same list, changed in place');
    await inbox.clear();
    assert.equal(inbox.entries.length, 0);
    await inbox.transport.deliver(delivery(7));
    inbox.forget();
    assert.equal(inbox.entries.length, 0);
    assert.deepEqual(calls, ['replace 1,2', 'clear', 'add 1 drop ']);
  });

  test("an export's inbox is checked entry by entry", () => {
    assert.deepEqual(inboxEntriesOf(undefined), {ok: true, entries: []});
    assert.deepEqual(inboxEntriesOf('x'), {ok: false, message: "The export's inbox is not a list."});
    assert.deepEqual(
      inboxEntriesOf([
        {url: 'u', headers: {a: 'b'}, body: '{}', receivedAt: at()},
        {url: 'u', headers: {a: 1}, body: '{}', receivedAt: at()},
      ]),
      {
        ok: false,
        message: "Notification 2 of the export's inbox needs url, headers (text values), body and receivedAt.",
      },
    );
  });

  test('verifies what the engine delivered with the provider key; a changed body does not verify', async () => {
    const files = sandboxFiles();
    const clock = fixedClock(Date.parse('2026-11-26T12:00:00Z'));
    const providerKey = {
      key: await importPublicKey(files.providerPublicKeyPem),
      keyVersion: files.spec.sandbox.merchant.providerKey.keyVersion,
    };
    const inbox = createInbox({storage: memoryInboxStorage(), receivedAt: () => isoSeconds(clock.now()), providerKey});
    const engine = await createNodeEngine({clock, transport: inbox.transport});
    const simulated = await engine.control.simulateNotification(files.spec.sandbox.merchant.clientId, {
      operationId: 'paymentResultNotification',
      scenario: 'paid',
      notifyUrl: 'https://shop.example.com/payments/notify',
    });
    assert.ok(simulated.ok);
    await engine.runDue();
    await engine.settle();
    const entry = inbox.find(simulated.value.notificationId);
    assert.ok(entry, 'delivered to the inbox');
    assert.equal((await inbox.verify(entry)).outcome, 'verified');
    assert.notEqual((await inbox.verify({...entry, body: `${entry.body} `})).outcome, 'verified');
    await assert.rejects(createInbox({storage: memoryInboxStorage(), receivedAt: at}).verify(entry), /without the provider key/);
  });
});
