/**
 * The Postman collection's pre-request script, run as Postman runs it (a `pm` object built from
 * the collection's own request and variables): the canonical string it prepares must be the one
 * the API verifies, checked against the published signing test vector and, for every request of
 * the collection, against src/lib/signing.ts.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {brand} from '../../src/brand';
import {canonicalString, importPrivateKey, signCanonical, type CanonicalInput} from '../../src/lib/signing';
import {sampleInputFor} from '../../src/lib/samples';
import {loadContract} from '../../plugins/content/openapi-contract/loadContract';
import {buildPostmanCollection, type PostmanCollection, type PostmanItem} from '../../plugins/content/openapi-contract/postman';
import {repoRoot} from '../support/routeContract';

interface SigningVector {
  privateKeyFile: string;
  request: CanonicalInput;
  canonicalString: string;
  signature: string;
}
const vectorDir = path.join(repoRoot, 'api', 'test-vectors');
const vector = JSON.parse(readFileSync(path.join(vectorDir, 'signing.json'), 'utf8')) as SigningVector;
const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const collection: PostmanCollection = buildPostmanCollection(contract.document);
const items = collection.item.flatMap((folder) => folder.item);

/** What the script leaves in the collection variables, given the request, the moment and the GUID Postman would make. */
function runPreRequestScript(item: PostmanItem, {now, guid, body}: {now: string; guid: string; body?: string}): Map<string, string> {
  const variables = new Map(collection.variable.map(({key, value}) => [key, value]));
  const replaceIn = (text: string) => text.replace(/\{\{(\$?\w+)\}\}/g, (whole, name: string) => (name === '$guid' ? guid : (variables.get(name) ?? whole)));
  const {method, url} = item.request;
  const query = url.query ?? [];
  const raw = body ?? item.request.body?.raw;
  // The parts of Postman's sandbox API the script uses, as postman-collection defines them.
  const pm = {
    request: {
      method,
      url: {path: url.path, query: {count: () => query.length}, getQueryString: () => query.map(({key, value}) => `${key}=${value}`).join('&')},
      body: raw === undefined ? undefined : {raw},
    },
    variables: {replaceIn},
    collectionVariables: {get: (key: string) => variables.get(key), set: (key: string, value: string) => variables.set(key, value)},
  };
  const fixedNow = Date.parse(now);
  class PostmanDate extends Date {
    constructor(...args: [] | [number]) {
      super(args.length === 0 ? fixedNow : args[0]);
    }
  }
  const script = collection.event.find((event) => event.listen === 'prerequest')?.script.exec.join('\n');
  assert.ok(script, 'the collection has a pre-request script');
  new Function('pm', 'Date', script)(pm, PostmanDate);
  return variables;
}

describe('Postman pre-request script', () => {
  test('prepares the test vector\'s canonical string, which signs to the vector\'s signature', async () => {
    const createOrder = contract.operations.get('createOrder');
    assert.ok(createOrder);
    const item = items.find((candidate) => candidate.name === createOrder.operation.summary);
    assert.ok(item, 'the collection has a Create order request');
    assert.equal(vector.request.clientId, collection.variable.find(({key}) => key === 'clientId')?.value, 'the vector uses the collection\'s client ID');
    const variables = runPreRequestScript(item, {now: vector.request.timestamp, guid: vector.request.nonce, body: vector.request.body});
    assert.equal(variables.get('canonicalString'), vector.canonicalString);
    assert.equal(variables.get('timestamp'), vector.request.timestamp);
    assert.equal(variables.get('nonce'), vector.request.nonce);
    const key = await importPrivateKey(readFileSync(path.join(vectorDir, vector.privateKeyFile), 'utf8'));
    assert.equal(await signCanonical(variables.get('canonicalString') ?? '', key), vector.signature);
  });

  test('prepares, for every request of the collection, the canonical string the API verifies', () => {
    const basePath = new URL(contract.document.servers?.[0]?.url ?? '').pathname;
    const requests = [...contract.operations.values()].filter((location) => location.kind === 'operation');
    assert.equal(items.length, requests.length, 'one request per operation');
    for (const location of requests) {
      const input = sampleInputFor(contract.document, location);
      assert.equal(input.kind, 'request');
      const item = items.find((candidate) => candidate.name === location.operation.summary);
      assert.ok(item, `${location.operationId}: no request in the collection`);
      const now = '2025-06-01T08:30:00Z';
      const nonce = '5f2b8c1e-4a7d-4e9b-9c3f-1d2e3f4a5b6c';
      const variables = runPreRequestScript(item, {now, guid: nonce});
      const expected = canonicalString({
        method: item.request.method,
        pathWithQuery: `${basePath}${input.kind === 'request' ? input.pathWithQuery : ''}`,
        clientId: brand.sandboxClientId,
        timestamp: now,
        nonce,
        body: item.request.body?.raw ?? '',
      });
      assert.equal(variables.get('canonicalString'), expected, location.operationId);
    }
  });
});
