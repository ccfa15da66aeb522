/**
 * The published Postman collection, run by Newman against the local sandbox, as a merchant's CI would
 * run it (`newman run veloxa-pay.postman_collection.json -e <environment with baseUrl and privateKeyPem>`),
 * with Newman's library API instead of its command line.
 *
 * The collection is the file `npm run build:test` published (build-test/veloxa-pay.postman_collection.json)
 * when it exists, else the one the site build would generate from the contract. The local sandbox
 * runs in this process on a free port; its notifications go to a recording transport, not the network.
 *
 * A full run must send every request, sign every API request (the sandbox sees a valid signature: every
 * answer is signed and 2xx), and pass every test, including each step's HTTP status and `code`. A run
 * without privateKeyPem must fail, send no API request, and name privateKeyPem.
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import newman, {type NewmanRunOptions, type NewmanRunSummary} from 'newman';
import {buildPostmanCollection, type PostmanCollection} from '../../src/contract/node/postman';
import {loadContract} from '../../src/contract/node/loadContract';
import {createNodeEngine, repoRoot} from '../../src/sandbox/hosts/server/loadEngine';
import {startSandboxServer, type SandboxServer} from '../../src/sandbox/hosts/server/server';

const publishedFile = path.join(repoRoot, 'build-test', 'veloxa-pay.postman_collection.json');
const merchantPrivateKeyPem = readFileSync(path.join(repoRoot, 'api', 'test-vectors', 'merchant-test-private.pem'), 'utf8');

function collectionUnderTest(): {collection: PostmanCollection; source: string} {
  if (existsSync(publishedFile))
    return {collection: JSON.parse(readFileSync(publishedFile, 'utf8')) as PostmanCollection, source: publishedFile};
  return {
    collection: buildPostmanCollection(loadContract(path.join(repoRoot, 'api', 'openapi.yaml')).document),
    source: 'generated from api/openapi.yaml',
  };
}

/** The sandbox server's log: one JSON line per request it answered ({requestId, merchant, method, path, status, durationMs}). */
interface SeenRequest {
  readonly method: string;
  readonly target: string;
  readonly status: number;
}

function runNewman(
  collection: PostmanCollection,
  environment: Record<string, string>,
): Promise<{summary: NewmanRunSummary; consoleLines: string[]}> {
  const consoleLines: string[] = [];
  return new Promise((resolve, reject) => {
    newman
      .run(
        {
          collection: collection as unknown as NewmanRunOptions['collection'],
          environment: {
            values: Object.entries(environment).map(([key, value]) => ({
              key,
              value,
              type: key === 'privateKeyPem' ? 'secret' : 'default',
              enabled: true,
            })),
          },
          reporters: [],
          // As docs/local-sandbox advises: under the sandbox's writes per second (x-rate-limits), however fast the machine.
          delayRequest: 120,
        },
        (error, summary) => (error ? reject(error) : resolve({summary, consoleLines})),
      )
      .on('console', (_error: Error | null, event: {messages: unknown[]}) => consoleLines.push(event.messages.map(String).join(' ')));
  });
}

const {collection, source} = collectionUnderTest();
const items = collection.item.flatMap((folder) => folder.item);
const apiItems = items.filter((item) => item.request.url.path[0] === 'v1');
const sandboxItems = items.filter((item) => item.request.url.path[0] === '_sandbox');

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
    log: (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as {method?: string; path?: string; status?: number};
      seen.push({method: entry.method ?? '', target: entry.path ?? '', status: entry.status ?? 0});
    },
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
    const failures = summary.run.failures.map(
      (failure) => `${failure.source?.name ?? '?'}: ${failure.error.test} - ${failure.error.message}`,
    );
    assert.deepEqual(failures, [], 'no failed test');
    const stats = summary.run.stats;
    assert.equal(stats.requests.total, items.length, 'every request of the collection was sent');
    assert.equal(stats.requests.failed, 0);
    assert.ok(apiItems.length >= 32 && sandboxItems.length >= 1, `${apiItems.length} API requests, ${sandboxItems.length} sandbox steps`);

    // What the sandbox saw: every API request, each answered 2xx (an unsigned or badly signed one is 400/401).
    const apiSeen = seen.filter((request) => request.target.startsWith('/v1/'));
    assert.equal(apiSeen.length, apiItems.length, 'the sandbox answered every API request');
    assert.deepEqual(
      apiSeen.filter((request) => request.status >= 300),
      [],
      'no API request was refused',
    );

    // Every API request carried a signature, and every step checked its status, code and the response signature.
    for (const execution of summary.run.executions) {
      const target = execution.request.url.getPath();
      const names = execution.assertions.map((assertion) => assertion.assertion);
      if (target.startsWith('/_sandbox/')) {
        assert.ok(
          names.some((name) => name.endsWith(': HTTP 200')),
          `${execution.item.name}: checks its status`,
        );
        continue;
      }
      assert.match(
        execution.request.headers.get('X-Signature') ?? '',
        /^algorithm=RSA-SHA256, keyVersion=1, signature=/,
        `${execution.item.name}: signed`,
      );
      assert.ok(
        names.includes('Veloxa Pay: the response signature verifies with providerPublicKeyPem'),
        `${execution.item.name}: checks the response signature`,
      );
      assert.ok(
        names.includes('Veloxa Pay: the response timestamp is within 300 seconds of this computer clock'),
        `${execution.item.name}: checks the timestamp`,
      );
      assert.ok(
        names.some((name) => / and code [A-Z_]+$/.test(name)),
        `${execution.item.name}: checks status and code`,
      );
    }
    assert.equal(stats.assertions.failed, 0);
    assert.ok((stats.assertions.total ?? 0) >= apiItems.length * 3, `${stats.assertions.total} assertions`);
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
