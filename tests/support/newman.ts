/**
 * The published Postman collection run by Newman's library API, as a merchant's CI runs it
 * (`newman run veloxa-pay.postman_collection.json -e <environment with baseUrl and privateKeyPem>`), and the
 * checks a full run must pass, whichever sandbox it runs against: the local one (tests/clients/newman.test.ts)
 * or two instances behind nginx on PostgreSQL (tests/samples/samples.test.ts).
 *
 * The collection is the file `npm run build:test` published (build-test/veloxa-pay.postman_collection.json)
 * when it exists, else the one the site build would generate from the contract.
 */
import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import newman, {type NewmanRunOptions, type NewmanRunSummary} from 'newman';
import {buildPostmanCollection, type PostmanCollection} from '../../src/contract/node/postman';
import {loadContract} from '../../src/contract/node/loadContract';
import {repoRoot} from '../../src/sandbox/hosts/server/loadEngine';

const publishedFile = path.join(repoRoot, 'build-test', 'veloxa-pay.postman_collection.json');
export const merchantPrivateKeyPem = readFileSync(path.join(repoRoot, 'api', 'test-vectors', 'merchant-test-private.pem'), 'utf8');

/** The collection the site build publishes, made here from the contract by the same function. */
export const contractCollection = (): PostmanCollection =>
  buildPostmanCollection(loadContract(path.join(repoRoot, 'api', 'openapi.yaml')).document);

export function collectionUnderTest(): {collection: PostmanCollection; source: string} {
  if (existsSync(publishedFile))
    return {collection: JSON.parse(readFileSync(publishedFile, 'utf8')) as PostmanCollection, source: publishedFile};
  return {collection: contractCollection(), source: 'generated from api/openapi.yaml'};
}

/** A request the sandbox answered, from its log: one JSON line per request ({requestId, merchant, method, path, status, durationMs}). */
export interface SeenRequest {
  readonly merchant: string;
  readonly method: string;
  readonly target: string;
  readonly status: number;
}

/** The requests in a sandbox's log lines (other lines left out). */
export function seenInLog(lines: readonly string[]): SeenRequest[] {
  return lines
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      const entry = JSON.parse(line) as {merchant?: string; method?: string; path?: string; status?: number};
      return {merchant: entry.merchant ?? '', method: entry.method ?? '', target: entry.path ?? '', status: entry.status ?? 0};
    });
}

export function runNewman(
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

/**
 * A full run sent every request, signed every API request (the sandbox saw each and answered 2xx: an unsigned
 * or badly signed one is 400/401), and passed every test, including each step's status, code and the response
 * signature and timestamp.
 */
export function assertFullRun(collection: PostmanCollection, summary: NewmanRunSummary, seen: readonly SeenRequest[]): void {
  const items = collection.item.flatMap((folder) => folder.item);
  const apiItems = items.filter((item) => item.request.url.path[0] === 'v1');
  const sandboxItems = items.filter((item) => item.request.url.path[0] === '_sandbox');
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
}
