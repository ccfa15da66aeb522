/**
 * The published Postman collection, run by Newman against the local sandbox, as a merchant's CI would
 * run it (tests/support/newman.ts; the same run against two instances behind nginx on PostgreSQL is in
 * tests/samples/samples.test.ts, which starts that deployment for the samples). The local sandbox
 * runs in this process on a free port; its notifications go to a recording transport, not the network.
 *
 * A full run must send every request, sign every API request (the sandbox sees a valid signature: every
 * answer is signed and 2xx), and pass every test, including each step's HTTP status and `code`. A run
 * without privateKeyPem must fail, send no API request, and name privateKeyPem.
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createNodeEngine} from '../../src/sandbox/hosts/server/loadEngine';
import {startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';
import {assertFullRun, collectionUnderTest, merchantPrivateKeyPem, runNewman, seenInLog, type SeenRequest} from '../support/newman';

const {collection, source} = collectionUnderTest();
const apiItems = collection.item.flatMap((folder) => folder.item).filter((item) => item.request.url.path[0] === 'v1');

let server: SandboxServer;
let seen: SeenRequest[] = [];
const deliveries: string[] = [];

before(async () => {
  const engine = await createNodeEngine({
    // Notifications go nowhere: recorded and acknowledged, so Redeliver event has a delivery to repeat.
    transport: {
      deliver: (delivery) => {
        deliveries.push(delivery.url);
        return Promise.resolve({status: 200, body: '{"code":"SUCCESS"}'});
      },
    },
  });
  server = await startSandboxServer({
    engine,
    port: 0,
    log: (line) => seen.push(...seenInLog([line])),
  });
});

after(async () => {
  await server.close();
});

describe(`the Postman collection in Newman (${source})`, () => {
  test('a run with the sandbox merchant key sends and signs every request and passes every test, in seconds', async () => {
    seen = [];
    const started = Date.now();
    const {summary} = await runNewman(collection, {baseUrl: server.url, privateKeyPem: merchantPrivateKeyPem});
    const seconds = (Date.now() - started) / 1000;
    assertFullRun(collection, summary, seen);
    assert.ok(deliveries.length > 0, 'the journey produced notifications (and Redeliver event repeated one)');
    // 14 to 43 s measured on a shared, loaded 2-core machine (35 requests, 120 ms apart): the bound only catches a hang.
    assert.ok(seconds < 90, `the run took ${seconds} s`);
  });

  test('a run without privateKeyPem fails, sends no API request, and says to set privateKeyPem', async () => {
    seen = [];
    const {summary} = await runNewman(collection, {baseUrl: server.url});
    assert.equal(seen.filter((request) => request.target.startsWith('/v1/')).length, 0, 'no API request reached the sandbox');
    assert.ok(summary.run.failures.length >= apiItems.length, `${summary.run.failures.length} failures: the run fails (newman exits 1)`);
    const messages = summary.run.failures.map((failure) => failure.error.message);
    assert.ok(
      messages.some((message) => message.includes('"privateKeyPem"') && message.includes('The request was not sent.')),
      `a failure names privateKeyPem: ${messages.slice(0, 3).join(' | ')}`,
    );
  });
});
