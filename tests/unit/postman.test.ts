/**
 * The Postman collection's own scripts, run as Postman runs them: the strings from the generated
 * collection, in a Node `vm` context with a fake `pm` (tests/unit/postmanSandbox.ts) whose clock
 * and `{{$guid}}` are fixed by the test. `pm.require` returns the real jsrsasign, the devDependency
 * pinned to the version the scripts ask for (the test checks the two agree).
 *
 * The pre-request script must reproduce every published request vector, header for header; the
 * test script must accept the published response vectors and reject anything else.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {importPublicKey, parseSignatureHeader, verifyCanonical} from '../../src/lib/signing';
import {sampleInputFor} from '../../src/lib/samples';
import type {JsonValue} from '../../src/lib/openapiTypes';
import {loadContract} from '../../plugins/content/openapi-contract/loadContract';
import {
  buildPostmanCollection,
  jsrsasignPackage,
  merchantTestKeyUrl,
  signingHeaders,
  type PostmanItem,
  type PostmanUrl,
} from '../../plugins/content/openapi-contract/postman';
import {vectorDir, vectorFile, type Vector, type VectorFile} from '../../tooling/signingVectors';
import {repoRoot} from '../support/routeContract';
import {PostmanSession, urlToString, type SandboxResponse} from './postmanSandbox';

const vectors = JSON.parse(readFileSync(vectorFile, 'utf8')) as VectorFile;
const keyFile = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');
const merchantPrivateKeyPem = keyFile(vectors.keys.merchant.privateKeyFile);
const merchantPublicKeyPem = keyFile(vectors.keys.merchant.publicKeyFile);
const merchantPublicKey = importPublicKey(keyFile(vectors.keys.merchant.publicKeyFile));
const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const collection = buildPostmanCollection(contract.document);
const items = collection.item.flatMap((folder) => folder.item);
const variable = (key: string) => collection.variable.find((entry) => entry.key === key);
const requestVectors = vectors.vectors.filter((vector) => vector.kind === 'request');
// The collection signs every request it sends, so vectors answering an unsigned request (no X-Client-Id) do not apply.
const responseVectors = vectors.vectors.filter((vector): vector is Extract<Vector, {kind: 'response'}> => vector.kind === 'response' && vector.request.clientId !== '');
const someNonces = ['1b6f0c2e-7d3a-4e58-9a21-c4b5d6e7f809', '9e8d7c6b-5a49-4382-b1c0-d9e8f7a6b5c4', '3c2b1a09-8f7e-4d6c-a5b4-c3d2e1f0a9b8'];

/** The collection's URL for a request target, as the generator writes it. */
function postmanUrl(pathWithQuery: string): PostmanUrl {
  const [pathPart = '', queryPart] = pathWithQuery.split('?');
  const query = queryPart?.split('&').map((pair) => {
    const [key = '', value = ''] = pair.split('=');
    return {key, value};
  });
  return {raw: `{{baseUrl}}${pathWithQuery}`, host: ['{{baseUrl}}'], path: pathPart.split('/').filter(Boolean), ...(query ? {query} : {})};
}

function item(name: string): PostmanItem {
  const found = items.find((candidate) => candidate.name === name);
  assert.ok(found, `the collection has a "${name}" request`);
  return found;
}

function itemOf(operationId: string): PostmanItem {
  const location = contract.operations.get(operationId);
  assert.ok(location, `the contract has ${operationId}`);
  return item(location.operation.summary ?? operationId);
}

function sendItem(session: PostmanSession, request: PostmanItem) {
  return session.send({method: request.request.method, url: request.request.url, body: request.request.body?.raw, headers: request.request.header});
}

/** The signed parts of a canonical string. */
function lines(canonical: string | undefined) {
  assert.ok(canonical !== undefined, 'the script signed a string');
  const [method, target, clientId, timestamp, nonce, ...body] = canonical.split('\n');
  return {method, target, clientId, timestamp, nonce, body: body.join('\n')};
}

async function verifies(canonical: string | undefined, signatureHeader: string | undefined): Promise<boolean> {
  assert.ok(canonical !== undefined && signatureHeader !== undefined);
  return verifyCanonical(canonical, parseSignatureHeader(signatureHeader).signature, await merchantPublicKey);
}

function session(options: {now: string; guids: readonly string[]; privateKeyPem?: string; collectionValues?: Record<string, string>}) {
  return new PostmanSession({
    collection,
    environment: options.privateKeyPem === undefined ? {} : {privateKeyPem: options.privateKeyPem},
    ...(options.collectionValues ? {collectionValues: options.collectionValues} : {}),
    now: options.now,
    guids: options.guids,
  });
}

describe('Postman collection: shape', () => {
  test('has a pre-request script that signs with a pinned jsrsasign from pm.require, and no fetched or evaluated code', () => {
    const prerequest = collection.event.find((event) => event.listen === 'prerequest')?.script.exec.join('\n') ?? '';
    const tests = collection.event.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
    // Postman finds the packages a script needs by reading its pm.require calls: the name stays a literal.
    assert.match(jsrsasignPackage, /^npm:jsrsasign@\d+\.\d+\.\d+$/);
    assert.ok(prerequest.includes(`pm.require('${jsrsasignPackage}')`));
    assert.ok(tests.includes(`pm.require('${jsrsasignPackage}')`));
    for (const script of [prerequest, tests]) assert.doesNotMatch(script, /\beval\s*\(|new Function|sendRequest/);
    assert.ok(prerequest.includes('pm.request.headers.upsert'));
  });

  test('stores no key, no signature and no signing values: privateKeyPem is empty and says where the sandbox key is', () => {
    const privateKeyPem = variable('privateKeyPem');
    assert.equal(privateKeyPem?.value, '');
    assert.ok(privateKeyPem?.description.includes(merchantTestKeyUrl));
    for (const stale of ['signature', 'timestamp', 'nonce', 'canonicalString']) assert.equal(variable(stale), undefined, `no ${stale} variable`);
    assert.doesNotMatch(JSON.stringify(collection), /BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----(\\n)*[A-Za-z0-9+/]{16}/, 'no private key anywhere in the collection');
    for (const request of items) {
      for (const header of request.request.header) assert.ok(!(signingHeaders as readonly string[]).includes(header.key), `${request.name}: the script sets ${header.key}`);
    }
  });

  test('baseUrl is the API origin and every request path starts with v1, in raw and in parts alike', () => {
    const baseUrl = variable('baseUrl')?.value ?? '';
    assert.equal(new URL(baseUrl).origin, baseUrl);
    assert.equal(items.length, [...contract.operations.values()].filter((location) => location.kind === 'operation').length, 'one request per operation');
    for (const request of items) {
      assert.equal(request.request.url.path[0], 'v1', request.name);
      assert.equal(request.request.url.raw, urlToString(request.request.url), `${request.name}: raw and parts agree`);
    }
  });

  test('no request carries a fixed merchant number: bank and card payout queries read the numbers their creates made', () => {
    const numberField = /"merchant[A-Za-z]*No": "(?!\{\{)/;
    for (const request of items) {
      assert.doesNotMatch(request.request.url.raw, /\b(ORD|RFD|TRF|BTR|CPO|AGR)-\d/, `${request.name}: URL`);
      assert.doesNotMatch(request.request.body?.raw ?? '', numberField, `${request.name}: body`);
    }
    assert.equal(itemOf('queryTransferToBank').request.url.path.at(-1), '{{bankTransferNo}}');
    assert.equal(itemOf('queryBankCardTransfer').request.url.path.at(-1), '{{cardPayoutNo}}');
    assert.equal(itemOf('queryTransfer').request.url.path.at(-1), '{{walletTransferNo}}');
    assert.match(itemOf('transferToBank').request.body?.raw ?? '', /"merchantTransferNo": "\{\{newBankTransferNo\}\}"/);
    assert.match(itemOf('transferToBankCard').request.body?.raw ?? '', /"merchantTransferNo": "\{\{newCardPayoutNo\}\}"/);
  });
});

describe('Postman pre-request script', () => {
  test('reproduces every published request vector: POST ASCII, POST non-ASCII, GET with a query, POST without a body', () => {
    assert.ok(requestVectors.some((vector) => vector.request.method === 'POST' && /[^\x20-\x7e]/.test(vector.request.body)), 'a non-ASCII vector');
    assert.ok(requestVectors.some((vector) => vector.request.method === 'GET' && vector.request.pathWithQuery.includes('?')), 'a GET with a query');
    assert.ok(requestVectors.some((vector) => vector.request.method === 'POST' && vector.request.body === ''), 'a POST without a body');
    assert.ok(requestVectors.length >= 4);
    for (const vector of requestVectors) {
      // The collection's own settings: the vectors are made for the shared sandbox merchant.
      assert.equal(variable('clientId')?.value, vector.request.clientId);
      assert.equal(variable('keyVersion')?.value, String(vector.keyVersion));
      const sandbox = session({now: vector.request.timestamp, guids: [vector.request.nonce], privateKeyPem: merchantPrivateKeyPem});
      const send = sandbox
        .send({method: vector.request.method, url: postmanUrl(vector.request.pathWithQuery), ...(vector.request.body === '' ? {} : {body: vector.request.body})})
        .prerequest();
      assert.equal(sandbox.jsrsasign.updatedStrings.at(-1), vector.canonicalString, `${vector.name}: canonical string`);
      assert.deepEqual(
        send.headers.toObject(),
        {'X-Client-Id': vector.request.clientId, 'X-Timestamp': vector.request.timestamp, 'X-Nonce': vector.request.nonce, 'X-Signature': vector.signatureHeader},
        `${vector.name}: headers`,
      );
      assert.equal(send.sentBody ?? '', vector.request.body, `${vector.name}: the body sent is the body signed`);
      assert.equal(send.skipped, false);
    }
  });

  test('puts Adjust order expiry time a day ahead of each Send, and signs the body it sends', () => {
    assert.match(itemOf('adjustOrderExpiryTime').request.body?.raw ?? '', /"expiresAt": "\{\{newExpiresAt\}\}"/);
    for (const now of ['2026-11-25T09:30:00Z', '2031-02-28T23:15:07Z']) {
      const send = sendItem(session({now, guids: someNonces, privateKeyPem: merchantPrivateKeyPem, collectionValues: {merchantOrderNo: 'ORD-20261125-0042'}}), itemOf('adjustOrderExpiryTime')).prerequest();
      const sent = JSON.parse(send.sentBody ?? '') as {expiresAt: string};
      assert.equal(sent.expiresAt, new Date(Date.parse(now) + 24 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
      assert.equal(send.skipped, false);
    }
  });

  test('without a private key it stops the request with a message naming privateKeyPem, and sets no signature', () => {
    for (const privateKeyPem of [undefined, '', '   ']) {
      const sandbox = session({now: '2025-06-01T08:30:00Z', guids: someNonces, ...(privateKeyPem === undefined ? {} : {privateKeyPem})});
      const send = sendItem(sandbox, itemOf('createOrder'));
      assert.throws(() => send.prerequest(), (error: Error) => error.message.includes('"privateKeyPem"') && error.message.includes(merchantTestKeyUrl) && error.message.includes('not sent'));
      assert.equal(send.headers.get('X-Signature'), undefined);
      assert.equal(send.skipped, true, 'pm.execution.skipRequest() was called');
    }
    const garbled = sendItem(session({now: '2025-06-01T08:30:00Z', guids: someNonces, privateKeyPem: 'not a key'}), itemOf('createOrder'));
    assert.throws(() => garbled.prerequest(), /privateKeyPem must hold a PEM block/);
    assert.equal(garbled.headers.get('X-Signature'), undefined);
  });

  test('accepts a key pasted on one line or with escaped line breaks', () => {
    const vector = requestVectors[0];
    assert.ok(vector);
    for (const pasted of [merchantPrivateKeyPem.replace(/\n/g, ' '), merchantPrivateKeyPem.replace(/\n/g, '\\n')]) {
      const sandbox = session({now: vector.request.timestamp, guids: [vector.request.nonce], privateKeyPem: pasted});
      const send = sandbox.send({method: vector.request.method, url: postmanUrl(vector.request.pathWithQuery), body: vector.request.body}).prerequest();
      assert.equal(send.headers.get('X-Signature'), vector.signatureHeader);
    }
  });

  test('signs every request of the collection with a /v1/ target that is the contract path, and a signature that verifies', async () => {
    const basePath = new URL(contract.document.servers?.[0]?.url ?? '').pathname.replace(/\/$/, '');
    const now = '2025-06-01T08:30:00Z';
    const numberVariables = collection.variable.filter(({key}) => /No$/.test(key)).map(({key}) => key);
    assert.ok(numberVariables.length > 0);
    for (const location of contract.operations.values()) {
      if (location.kind !== 'operation') continue;
      const input = sampleInputFor(contract.document, location);
      assert.equal(input.kind, 'request');
      if (input.kind !== 'request') continue;
      const request = itemOf(location.operationId);
      // Give the number variables the contract's example values, so the target is the contract's path exactly.
      const values: Record<string, string> = Object.fromEntries(numberVariables.map((key) => [key, 'TEST-0001']));
      const [samplePath = '', sampleQuery = ''] = `${basePath}${input.pathWithQuery}`.split('?');
      const sampleSegments = samplePath.split('/').filter(Boolean);
      request.request.url.path.forEach((segment, index) => {
        const name = /^\{\{(\w+)\}\}$/.exec(segment)?.[1];
        if (name) values[name] = sampleSegments[index] ?? '';
      });
      const sampleValues = new Map(sampleQuery.split('&').map((pair) => pair.split('=') as [string, string]));
      for (const {key, value} of request.request.url.query ?? []) {
        const name = /^\{\{(\w+)\}\}$/.exec(value)?.[1];
        if (name) values[name] = sampleValues.get(key) ?? '';
      }
      const nonce = someNonces[0] ?? '';
      const sandbox = session({now, guids: [nonce], privateKeyPem: merchantPrivateKeyPem, collectionValues: values});
      const send = sendItem(sandbox, request).prerequest();
      const signed = sandbox.jsrsasign.updatedStrings.at(-1);
      const parts = lines(signed);
      assert.ok(parts.target?.startsWith('/v1/'), `${location.operationId}: target ${parts.target}`);
      assert.equal(parts.target, `${basePath}${input.pathWithQuery}`, `${location.operationId}: the target is the contract's path and query`);
      const body = send.sentBody ?? '';
      assert.ok(!body.includes('{{'), `${location.operationId}: every variable in the body is resolved before signing`);
      if (input.body !== undefined) assert.deepEqual(Object.keys(JSON.parse(body) as object), Object.keys(input.body as Record<string, JsonValue>), location.operationId);
      const expected = [input.method, `${basePath}${input.pathWithQuery}`, variable('clientId')?.value, now, nonce, body].join('\n');
      assert.equal(signed, expected, location.operationId);
      assert.equal(send.headers.get('X-Timestamp'), now);
      assert.equal(send.headers.get('X-Nonce'), nonce);
      assert.ok(await verifies(expected, send.headers.get('X-Signature')), `${location.operationId}: the signature verifies with the merchant public key`);
    }
  });

  test('a second Send signs afresh: new timestamp, new nonce, new merchant number, and a signature that verifies', async () => {
    const sandbox = session({now: '2025-06-01T08:30:00Z', guids: someNonces, privateKeyPem: merchantPrivateKeyPem});
    const createOrder = itemOf('createOrder');
    const first = sendItem(sandbox, createOrder).prerequest();
    const firstCanonical = sandbox.jsrsasign.updatedStrings.at(-1);
    const firstNumber = sandbox.collectionVariables.get('merchantOrderNo');
    sandbox.setNow('2025-06-01T08:30:07Z');
    const second = sendItem(sandbox, createOrder).prerequest();
    const secondCanonical = sandbox.jsrsasign.updatedStrings.at(-1);
    const secondNumber = sandbox.collectionVariables.get('merchantOrderNo');

    assert.notEqual(first.headers.get('X-Nonce'), second.headers.get('X-Nonce'));
    assert.equal(second.headers.get('X-Timestamp'), '2025-06-01T08:30:07Z');
    assert.notEqual(first.headers.get('X-Signature'), second.headers.get('X-Signature'));
    assert.ok(firstNumber && secondNumber && firstNumber !== secondNumber, 'each Send of a create uses a new number');
    assert.match(secondNumber, new RegExp(String(contract.document.components?.schemas?.MerchantOrderNo?.pattern ?? '^[A-Za-z0-9_-]{6,64}$')));
    assert.equal(JSON.parse(second.sentBody ?? '{}').merchantOrderNo, secondNumber);
    assert.equal(lines(secondCanonical).nonce, second.headers.get('X-Nonce'));
    assert.ok(await verifies(firstCanonical, first.headers.get('X-Signature')));
    assert.ok(await verifies(secondCanonical, second.headers.get('X-Signature')));
    assert.ok(!(await verifies(secondCanonical, first.headers.get('X-Signature'))), 'the first signature does not fit the second Send');
  });

  test('a query reads the number its create made, and fails loudly when nothing was created yet', () => {
    const sandbox = session({now: '2025-06-03T09:15:00Z', guids: someNonces, privateKeyPem: merchantPrivateKeyPem});
    const query = itemOf('queryTransferToBank');
    assert.throws(() => sendItem(sandbox, query).prerequest(), (error: Error) => error.message.includes('{{bankTransferNo}}') && error.message.includes(itemOf('transferToBank').name));
    const create = sendItem(sandbox, itemOf('transferToBank')).prerequest();
    const created = (JSON.parse(create.sentBody ?? '{}') as {merchantTransferNo?: string}).merchantTransferNo;
    assert.ok(created);
    assert.equal(sandbox.collectionVariables.get('bankTransferNo'), created);
    assert.equal(sandbox.collectionVariables.get('cardPayoutNo'), '', 'a bank transfer number is not a card payout number');
    sendItem(sandbox, query).prerequest();
    assert.equal(lines(sandbox.jsrsasign.updatedStrings.at(-1)).target, `/v1/bank-transfers/${created}`);
  });

  test('refuses a baseUrl with a path, and a dynamic variable in the URL', () => {
    const withPath = session({now: '2025-06-01T08:30:00Z', guids: someNonces, privateKeyPem: merchantPrivateKeyPem, collectionValues: {baseUrl: `${variable('baseUrl')?.value ?? ''}/v1`}});
    assert.throws(() => sendItem(withPath, itemOf('queryOrderPage')).prerequest(), /baseUrl must be the API origin/);
    const dynamic = session({now: '2025-06-01T08:30:00Z', guids: someNonces, privateKeyPem: merchantPrivateKeyPem});
    assert.throws(() => dynamic.send({method: 'GET', url: '{{baseUrl}}/v1/orders/{{$guid}}'}).prerequest(), /dynamic variable/);
  });
});

describe('Postman test script', () => {
  /** Sends the vector's request through the pre-request script, then runs the test script on `response`. */
  function verifyResponse(
    vector: Extract<Vector, {kind: 'response'}>,
    response: Partial<SandboxResponse> & {headers?: Record<string, string>},
    options: {requestNonce?: string; now?: string; collectionValues?: Record<string, string>} = {},
  ) {
    const sandbox = session({
      now: vector.request.timestamp,
      guids: [options.requestNonce ?? vector.request.nonce],
      privateKeyPem: merchantPrivateKeyPem,
      ...(options.collectionValues ? {collectionValues: options.collectionValues} : {}),
    });
    const send = sandbox
      .send({method: vector.request.method, url: postmanUrl(vector.request.pathWithQuery), ...(vector.request.body === '' ? {} : {body: vector.request.body})})
      .prerequest();
    sandbox.setNow(options.now ?? vector.response.timestamp);
    send.test({
      code: response.code ?? vector.response.status,
      body: response.body ?? vector.response.body,
      headers: response.headers ?? {'X-Timestamp': vector.response.timestamp, 'X-Nonce': vector.response.nonce, 'X-Signature': vector.signatureHeader},
    });
    const [signature, freshness] = send.tests;
    assert.equal(send.tests.length, 2);
    return {signature, freshness, verified: sandbox.jsrsasign.updatedStrings.at(-1)};
  }

  test('accepts the published response vectors (success and error)', () => {
    assert.ok(responseVectors.some((vector) => vector.response.status === 200) && responseVectors.some((vector) => vector.response.status >= 400));
    for (const vector of responseVectors) {
      const {signature, freshness, verified} = verifyResponse(vector, {});
      assert.equal(verified, vector.canonicalString, `${vector.name}: the response canonical string`);
      assert.deepEqual(signature, {name: signature?.name, passed: true}, vector.name);
      assert.deepEqual(freshness, {name: freshness?.name, passed: true}, vector.name);
    }
  });

  test('rejects a tampered body, another request\'s nonce, another status, a missing signature and another key version', () => {
    for (const vector of responseVectors) {
      const tampered = verifyResponse(vector, {body: vector.response.body.replace('"code":"', '"code":"X')});
      assert.equal(tampered.signature?.passed, false);
      assert.match(tampered.signature?.error ?? '', /does not verify/);
      assert.equal(verifyResponse(vector, {}, {requestNonce: someNonces[1]}).signature?.passed, false, 'bound to the request nonce');
      assert.equal(verifyResponse(vector, {code: vector.response.status === 200 ? 201 : 200}).signature?.passed, false, 'bound to the status');
      const unsigned = verifyResponse(vector, {code: 502, body: '<html>Bad gateway</html>', headers: {}});
      assert.match(unsigned.signature?.error ?? '', /no X-Signature header.*outcome is unknown/);
      const otherVersion = verifyResponse(vector, {headers: {'X-Timestamp': vector.response.timestamp, 'X-Nonce': vector.response.nonce, 'X-Signature': vector.signatureHeader.replace('keyVersion=1', 'keyVersion=2')}});
      assert.match(otherVersion.signature?.error ?? '', /provider key version 2.*providerPublicKeyPemV2/);
    }
  });

  test('during a provider key overlap, verifies a response signed with another announced version through providerPublicKeyPemV<n>', () => {
    const vector = responseVectors[0];
    assert.ok(vector);
    const signedAsVersion2 = {'X-Timestamp': vector.response.timestamp, 'X-Nonce': vector.response.nonce, 'X-Signature': vector.signatureHeader.replace('keyVersion=1', 'keyVersion=2')};
    const providerPublicKeyPem = collection.variable.find(({key}) => key === 'providerPublicKeyPem')?.value ?? '';
    assert.match(providerPublicKeyPem, /BEGIN PUBLIC KEY/);
    const configured = verifyResponse(vector, {headers: signedAsVersion2}, {collectionValues: {providerPublicKeyPemV2: providerPublicKeyPem}});
    assert.equal(configured.signature?.passed, true, configured.signature?.error);
    const wrongKey = verifyResponse(vector, {headers: signedAsVersion2}, {collectionValues: {providerPublicKeyPemV2: merchantPublicKeyPem}});
    assert.match(wrongKey.signature?.error ?? '', /does not verify/);
    // Version 1 keeps verifying with providerPublicKeyPem during the overlap.
    assert.equal(verifyResponse(vector, {}, {collectionValues: {providerPublicKeyPemV2: providerPublicKeyPem}}).signature?.passed, true);
  });

  test('fails the freshness check for a response timestamp more than 300 seconds from the clock', () => {
    const vector = responseVectors[0];
    assert.ok(vector);
    const late = new Date(Date.parse(vector.response.timestamp) + 301_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const result = verifyResponse(vector, {}, {now: late});
    assert.equal(result.signature?.passed, true);
    assert.equal(result.freshness?.passed, false);
    const edge = new Date(Date.parse(vector.response.timestamp) + 300_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    assert.equal(verifyResponse(vector, {}, {now: edge}).freshness?.passed, true);
  });
});

describe('the jsrsasign the tests run', () => {
  test('is the version the collection pins', () => {
    const installed = (JSON.parse(readFileSync(path.join(repoRoot, 'node_modules', 'jsrsasign', 'package.json'), 'utf8')) as {version: string}).version;
    assert.equal(`npm:jsrsasign@${installed}`, jsrsasignPackage);
  });
});
