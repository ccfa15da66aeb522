/**
 * The Postman collection's own scripts, run as Postman runs them: the strings from the generated
 * collection, in a Node `vm` context with a fake `pm` (tests/unit/postmanSandbox.ts) whose clock
 * and `{{$guid}}` are fixed by the test. The fake has no `pm.require`, like Newman: the scripts carry
 * their own RSA-SHA256 (tests/unit/rsaSha256.test.ts checks it against node:crypto), and
 * tests/clients/newman.test.ts runs the collection in Newman itself.
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
import type {JsonValue} from '../../src/contract/openapiTypes';
import {loadContract} from '../../src/contract/node/loadContract';
import {
  buildPostmanCollection,
  merchantTestKeyUrl,
  successOutcome,
  signingHeaders,
  type PostmanItem,
  type PostmanUrl,
} from '../../src/contract/node/postman';
import {vectorDir, vectorFile, type Vector, type VectorFile} from '../../tooling/signingVectors';
import {repoRoot} from '../support/routeContract';
import {chainedFields, journey, sandboxControlsVariable} from '../../src/contract/node/postman/journey';
import {rsaSha256Library} from '../../src/contract/node/postman/rsaSha256';
import {nonContractIdentifiers} from '../../tooling/contentLint/contentLint';
import {PostmanSession, urlToString, type SandboxResponse} from './postmanSandbox';

const vectors = JSON.parse(readFileSync(vectorFile, 'utf8')) as VectorFile;
const keyFile = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');
const merchantPrivateKeyPem = keyFile(vectors.keys.merchant.privateKeyFile);
const merchantPublicKeyPem = keyFile(vectors.keys.merchant.publicKeyFile);
const merchantPublicKey = importPublicKey(keyFile(vectors.keys.merchant.publicKeyFile));
const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const collection = buildPostmanCollection(contract.document);
const items = collection.item.flatMap((folder) => folder.item);
const apiItems = items.filter((entry) => entry.request.url.path[0] === 'v1');
const variable = (key: string) => collection.variable.find((entry) => entry.key === key);
const requestVectors = vectors.vectors.filter((vector) => vector.kind === 'request');
// The collection signs every request it sends, so vectors answering an unsigned request (no X-Client-Id) do not apply.
const responseVectors = vectors.vectors.filter(
  (vector): vector is Extract<Vector, {kind: 'response'}> => vector.kind === 'response' && vector.request.clientId !== '',
);
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
  return session.send({
    method: request.request.method,
    url: request.request.url,
    body: request.request.body?.raw,
    headers: request.request.header,
  });
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
  test('carries its RSA-SHA256 in both scripts: no pm.require, no fetched or evaluated code, and a size that stays small', () => {
    const prerequest = collection.event.find((event) => event.listen === 'prerequest')?.script.exec.join('\n') ?? '';
    const tests = collection.event.find((event) => event.listen === 'test')?.script.exec.join('\n') ?? '';
    const library = rsaSha256Library.split('\n').map((line) => line.trim());
    for (const script of [prerequest, tests]) {
      const lines = script.split('\n').map((line) => line.trim());
      assert.ok(
        library.every((line) => lines.includes(line)),
        'the script holds the library',
      );
      assert.doesNotMatch(script, /\beval\s*\(|new Function|sendRequest|pm\.require|require\s*\(/);
    }
    assert.ok(prerequest.includes('pm.request.headers.upsert'));
    // Newman and the Postman app parse each script on every request: keep them small.
    assert.ok(JSON.stringify(collection).length < 200_000, `the collection is ${JSON.stringify(collection).length} characters`);
  });

  test("the variables the docs name are the collection's", () => {
    for (const key of ['baseUrl', 'privateKeyPem', sandboxControlsVariable]) {
      assert.ok(variable(key), `the collection has ${key}`);
      assert.ok(nonContractIdentifiers.has(key), `the content lint lets the docs name ${key}`);
    }
  });

  test('stores no key, no signature and no signing values: privateKeyPem is empty and says where the sandbox key is', () => {
    const privateKeyPem = variable('privateKeyPem');
    assert.equal(privateKeyPem?.value, '');
    assert.ok(privateKeyPem?.description.includes(merchantTestKeyUrl));
    for (const stale of ['signature', 'timestamp', 'nonce', 'canonicalString'])
      assert.equal(variable(stale), undefined, `no ${stale} variable`);
    assert.doesNotMatch(
      JSON.stringify(collection),
      /BEGIN (RSA |ENCRYPTED )?PRIVATE KEY-----(\\n)*[A-Za-z0-9+/]{16}/,
      'no private key anywhere in the collection',
    );
    for (const request of items) {
      for (const header of request.request.header)
        assert.ok(!(signingHeaders as readonly string[]).includes(header.key), `${request.name}: the script sets ${header.key}`);
    }
  });

  test('baseUrl is the API origin and every request path starts with v1, in raw and in parts alike', () => {
    const baseUrl = variable('baseUrl')?.value ?? '';
    assert.equal(new URL(baseUrl).origin, baseUrl);
    const operations = [...contract.operations.values()].filter((location) => location.kind === 'operation');
    const matches = (request: PostmanItem, method: string, template: string[]) =>
      request.request.method === method.toUpperCase() &&
      request.request.url.path.length === template.length + 1 &&
      template.every((segment, index) => /^\{.+\}$/.test(segment) || request.request.url.path[index + 1] === segment);
    for (const location of operations) {
      const template = location.key.split('/').filter(Boolean);
      assert.ok(
        apiItems.some((request) => matches(request, location.method, template)),
        `${location.operationId} is in the collection`,
      );
    }
    assert.ok(
      apiItems.every((request) =>
        operations.some((location) => matches(request, location.method, location.key.split('/').filter(Boolean))),
      ),
      'every API request is an operation of the contract',
    );
    for (const request of items) {
      assert.ok(['v1', '_sandbox'].includes(request.request.url.path[0] ?? ''), request.name);
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

describe('Postman collection: the journey', () => {
  const stepScript = (request: PostmanItem) => request.event?.find((event) => event.listen === 'prerequest')?.script.exec.join('\n') ?? '';

  test('runs in journey order: every value a request reads is created or stored by an earlier request', () => {
    const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
    const known = new Set(collection.variable.filter(({value}) => value !== '').map(({key}) => key));
    for (const request of items) {
      const text = request.request.url.raw + (request.request.body?.raw ?? '');
      for (const [, name = ''] of text.matchAll(/\{\{([^{}$]+)\}\}/g)) {
        // Made by the pre-request script on each Send.
        if (/^new[A-Z]|^list(From|To)$/.test(name)) continue;
        assert.ok(known.has(name), `"${request.name}" reads {{${name}}}, which no request before it sets`);
      }
      for (const [, created = ''] of text.matchAll(/\{\{new([A-Z]\w*No)\}\}/g)) known.add(lowerFirst(created));
      const captured = /"capture":\{"variable":"(\w+)"/.exec(stepScript(request))?.[1];
      if (captured) known.add(captured);
    }
    assert.deepEqual(
      collection.item.map((folder) => folder.name),
      journey.map((folder) => folder.name),
    );
    const names = items.map((request) => request.name);
    assert.ok(
      names.indexOf('Create order') < names.indexOf('Retrieve order detail') &&
        names.indexOf('Rate calculator') < names.indexOf('Transfer to bank'),
    );
    assert.ok(
      names.indexOf('List events') < names.indexOf('Redeliver event') &&
        names.indexOf('Sandbox: the customer pays the order') < names.indexOf('Refund order'),
    );
  });

  test('quoteId, notificationId and authCode are read from earlier responses, not the contract examples', () => {
    assert.match(itemOf('transferToBank').request.body?.raw ?? '', /"quoteId": "\{\{quoteId\}\}"/);
    assert.equal(itemOf('redeliverEvent').request.url.path.at(-2), '{{notificationId}}');
    assert.match(itemOf('exchangeWalletAuthCode').request.body?.raw ?? '', /"authCode": "\{\{authCode\}\}"/);
  });

  test('every API request tests the HTTP status and code the contract gives its success, and they pass or fail on the response', () => {
    for (const location of contract.operations.values()) {
      if (location.kind !== 'operation') continue;
      const expected = successOutcome(contract.document, location);
      const request = itemOf(location.operationId);
      assert.ok(
        stepScript(request).includes(`"status":${expected.status},"code":"${expected.code}"`),
        `${location.operationId}: tests HTTP ${expected.status} ${expected.code}`,
      );
    }
    const calculateRate = itemOf('calculateRate');
    const outcome = (code: number, body: unknown) => {
      const sandbox = session({now: '2025-06-01T08:30:00Z', guids: someNonces, privateKeyPem: merchantPrivateKeyPem});
      const send = sendItem(sandbox, calculateRate).prerequest(stepScript(calculateRate));
      send.test({code, body: JSON.stringify(body), headers: {}});
      return {tests: send.tests.slice(0, 2), quoteId: sandbox.collectionVariables.get('quoteId')};
    };
    const passed = outcome(200, {code: 'SUCCESS', data: {quoteId: 'quo_fromTheResponse'}});
    assert.deepEqual(
      passed.tests.map((result) => result.passed),
      [true, true],
    );
    assert.equal(passed.quoteId, 'quo_fromTheResponse', 'the quote is stored for Transfer to bank');
    const refused = outcome(409, {code: 'QUOTE_EXPIRED', message: 'Quote expired.'});
    assert.equal(refused.tests[0]?.passed, false);
    assert.match(refused.tests[0]?.error ?? '', /expected HTTP 200, got HTTP 409 QUOTE_EXPIRED: Quote expired\./);
    assert.equal(outcome(200, {code: 'PARTIAL'}).tests[0]?.passed, false, 'the code is checked, not only the status');
  });

  test('sandbox steps are not signed, run against a loopback baseUrl, and are skipped elsewhere without failing', () => {
    const pay = items.find((request) => request.name === 'Sandbox: the customer pays the order');
    assert.ok(pay);
    const run = (values: Record<string, string>) => {
      const sandbox = session({
        now: '2025-06-01T08:30:00Z',
        guids: someNonces,
        privateKeyPem: merchantPrivateKeyPem,
        collectionValues: {merchantOrderNo: 'ORD-20250601-0001', ...values},
      });
      return sendItem(sandbox, pay).prerequest(stepScript(pay));
    };
    const local = run({baseUrl: 'http://127.0.0.1:4010'});
    assert.equal(local.skipped, false);
    assert.equal(local.headers.get('X-Signature'), undefined, 'a control call is not signed');
    const tested = local.test({code: 200, body: '{"status":"PAID"}', headers: {}});
    assert.deepEqual(
      tested.tests.map((result) => [result.name, result.passed]),
      [['Sandbox: the customer pays the order: HTTP 200', true]],
      'no signature test for a control call',
    );
    for (const values of <Array<Record<string, string>>>[
      {},
      {baseUrl: 'https://api.example.com'},
      {baseUrl: 'http://127.0.0.1:4010', [sandboxControlsVariable]: 'off'},
    ]) {
      const skipped = run(values);
      assert.equal(skipped.skipped, true, JSON.stringify(values));
      assert.deepEqual(skipped.tests, [], 'skipping a control call is not a failure');
    }
    assert.equal(run({baseUrl: 'http://sandbox:4010', [sandboxControlsVariable]: 'on'}).skipped, false);
  });
});

describe('Postman pre-request script', () => {
  test('reproduces every published request vector: POST ASCII, POST non-ASCII, GET with a query, POST without a body', () => {
    assert.ok(
      requestVectors.some((vector) => vector.request.method === 'POST' && /[^\x20-\x7e]/.test(vector.request.body)),
      'a non-ASCII vector',
    );
    assert.ok(
      requestVectors.some((vector) => vector.request.method === 'GET' && vector.request.pathWithQuery.includes('?')),
      'a GET with a query',
    );
    assert.ok(
      requestVectors.some((vector) => vector.request.method === 'POST' && vector.request.body === ''),
      'a POST without a body',
    );
    assert.ok(requestVectors.length >= 4);
    for (const vector of requestVectors) {
      // The collection's own settings: the vectors are made for the shared sandbox merchant.
      assert.equal(variable('clientId')?.value, vector.request.clientId);
      assert.equal(variable('keyVersion')?.value, String(vector.keyVersion));
      const sandbox = session({now: vector.request.timestamp, guids: [vector.request.nonce], privateKeyPem: merchantPrivateKeyPem});
      const send = sandbox
        .send({
          method: vector.request.method,
          url: postmanUrl(vector.request.pathWithQuery),
          ...(vector.request.body === '' ? {} : {body: vector.request.body}),
        })
        .prerequest();
      assert.equal(sandbox.canonicalStrings.at(-1), vector.canonicalString, `${vector.name}: canonical string`);
      assert.deepEqual(
        send.headers.toObject(),
        {
          'X-Client-Id': vector.request.clientId,
          'X-Timestamp': vector.request.timestamp,
          'X-Nonce': vector.request.nonce,
          'X-Signature': vector.signatureHeader,
        },
        `${vector.name}: headers`,
      );
      assert.equal(send.sentBody ?? '', vector.request.body, `${vector.name}: the body sent is the body signed`);
      assert.equal(send.skipped, false);
    }
  });

  test('puts Adjust order expiry time a day ahead of each Send, and signs the body it sends', () => {
    assert.match(itemOf('adjustOrderExpiryTime').request.body?.raw ?? '', /"expiresAt": "\{\{newExpiresAt\}\}"/);
    for (const now of ['2026-11-25T09:30:00Z', '2031-02-28T23:15:07Z']) {
      const send = sendItem(
        session({now, guids: someNonces, privateKeyPem: merchantPrivateKeyPem, collectionValues: {merchantOrderNo: 'ORD-20261125-0042'}}),
        itemOf('adjustOrderExpiryTime'),
      ).prerequest();
      const sent = JSON.parse(send.sentBody ?? '') as {expiresAt: string};
      assert.equal(sent.expiresAt, new Date(Date.parse(now) + 24 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
      assert.equal(send.skipped, false);
    }
  });

  test('without a private key it stops the request with a message naming privateKeyPem, and sets no signature', () => {
    for (const privateKeyPem of [undefined, '', '   ']) {
      const sandbox = session({now: '2025-06-01T08:30:00Z', guids: someNonces, ...(privateKeyPem === undefined ? {} : {privateKeyPem})});
      const send = sendItem(sandbox, itemOf('createOrder'));
      assert.throws(
        () => send.prerequest(),
        (error: Error) =>
          error.message.includes('"privateKeyPem"') && error.message.includes(merchantTestKeyUrl) && error.message.includes('not sent'),
      );
      assert.equal(send.headers.get('X-Signature'), undefined);
      assert.equal(send.skipped, true, 'pm.execution.skipRequest() was called');
      // The runtimes drop a skipped request's script error: a failed test carries the message into the run.
      assert.equal(send.tests.length, 1);
      assert.equal(send.tests[0]?.passed, false);
      assert.match(send.tests[0]?.error ?? '', /"privateKeyPem".*not sent/);
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
      const send = sandbox
        .send({method: vector.request.method, url: postmanUrl(vector.request.pathWithQuery), body: vector.request.body})
        .prerequest();
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
      // Values stored from earlier responses: the contract's example.
      for (const field of chainedFields) {
        const example = (input.body as Record<string, JsonValue> | undefined)?.[field];
        if (typeof example === 'string') values[field] = example;
      }
      // A list covers the 24 hours before the Send (to an hour after), whatever the contract's example range.
      const range = (offsetHours: number) =>
        new Date(Date.parse(now) + offsetHours * 3_600_000)
          .toISOString()
          .replace(/\.\d{3}Z$/, 'Z')
          .replace(/:/g, '%3A');
      const pathWithQuery = input.pathWithQuery
        .replace(/((?:created|updated)From)=[^&]*/, `$1=${range(-24)}`)
        .replace(/((?:created|updated)To)=[^&]*/, `$1=${range(1)}`);
      const nonce = someNonces[0] ?? '';
      const sandbox = session({now, guids: [nonce], privateKeyPem: merchantPrivateKeyPem, collectionValues: values});
      const send = sendItem(sandbox, request).prerequest();
      const signed = sandbox.canonicalStrings.at(-1);
      const parts = lines(signed);
      assert.ok(parts.target?.startsWith('/v1/'), `${location.operationId}: target ${parts.target}`);
      assert.equal(parts.target, `${basePath}${pathWithQuery}`, `${location.operationId}: the target is the contract's path and query`);
      const body = send.sentBody ?? '';
      assert.ok(!body.includes('{{'), `${location.operationId}: every variable in the body is resolved before signing`);
      if (input.body !== undefined)
        assert.deepEqual(
          Object.keys(JSON.parse(body) as object),
          Object.keys(input.body as Record<string, JsonValue>),
          location.operationId,
        );
      const expected = [input.method, `${basePath}${pathWithQuery}`, variable('clientId')?.value, now, nonce, body].join('\n');
      assert.equal(signed, expected, location.operationId);
      assert.equal(send.headers.get('X-Timestamp'), now);
      assert.equal(send.headers.get('X-Nonce'), nonce);
      assert.ok(
        await verifies(expected, send.headers.get('X-Signature')),
        `${location.operationId}: the signature verifies with the merchant public key`,
      );
    }
  });

  test('a second Send signs afresh: new timestamp, new nonce, new merchant number, and a signature that verifies', async () => {
    const sandbox = session({now: '2025-06-01T08:30:00Z', guids: someNonces, privateKeyPem: merchantPrivateKeyPem});
    const createOrder = itemOf('createOrder');
    const first = sendItem(sandbox, createOrder).prerequest();
    const firstCanonical = sandbox.canonicalStrings.at(-1);
    const firstNumber = sandbox.collectionVariables.get('merchantOrderNo');
    sandbox.setNow('2025-06-01T08:30:07Z');
    const second = sendItem(sandbox, createOrder).prerequest();
    const secondCanonical = sandbox.canonicalStrings.at(-1);
    const secondNumber = sandbox.collectionVariables.get('merchantOrderNo');

    assert.notEqual(first.headers.get('X-Nonce'), second.headers.get('X-Nonce'));
    assert.equal(second.headers.get('X-Timestamp'), '2025-06-01T08:30:07Z');
    assert.notEqual(first.headers.get('X-Signature'), second.headers.get('X-Signature'));
    assert.ok(firstNumber && secondNumber && firstNumber !== secondNumber, 'each Send of a create uses a new number');
    assert.match(
      secondNumber,
      new RegExp(String(contract.document.components?.schemas?.MerchantOrderNo?.pattern ?? '^[A-Za-z0-9_-]{6,64}$')),
    );
    assert.equal(JSON.parse(second.sentBody ?? '{}').merchantOrderNo, secondNumber);
    assert.equal(lines(secondCanonical).nonce, second.headers.get('X-Nonce'));
    assert.ok(await verifies(firstCanonical, first.headers.get('X-Signature')));
    assert.ok(await verifies(secondCanonical, second.headers.get('X-Signature')));
    assert.ok(!(await verifies(secondCanonical, first.headers.get('X-Signature'))), 'the first signature does not fit the second Send');
  });

  test('a query reads the number its create made, and fails loudly when nothing was created yet', () => {
    const sandbox = session({
      now: '2025-06-03T09:15:00Z',
      guids: someNonces,
      privateKeyPem: merchantPrivateKeyPem,
      collectionValues: {quoteId: 'quo_Xj8TPQxjq4i9DoV8'},
    });
    const query = itemOf('queryTransferToBank');
    assert.throws(
      () => sendItem(sandbox, query).prerequest(),
      (error: Error) => error.message.includes('{{bankTransferNo}}') && error.message.includes(itemOf('transferToBank').name),
    );
    const create = sendItem(sandbox, itemOf('transferToBank')).prerequest();
    const created = (JSON.parse(create.sentBody ?? '{}') as {merchantTransferNo?: string}).merchantTransferNo;
    assert.ok(created);
    assert.equal(sandbox.collectionVariables.get('bankTransferNo'), created);
    assert.equal(sandbox.collectionVariables.get('cardPayoutNo'), '', 'a bank transfer number is not a card payout number');
    sendItem(sandbox, query).prerequest();
    assert.equal(lines(sandbox.canonicalStrings.at(-1)).target, `/v1/bank-transfers/${created}`);
  });

  test('refuses a baseUrl with a path, and a dynamic variable in the URL', () => {
    const withPath = session({
      now: '2025-06-01T08:30:00Z',
      guids: someNonces,
      privateKeyPem: merchantPrivateKeyPem,
      collectionValues: {baseUrl: `${variable('baseUrl')?.value ?? ''}/v1`},
    });
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
      .send({
        method: vector.request.method,
        url: postmanUrl(vector.request.pathWithQuery),
        ...(vector.request.body === '' ? {} : {body: vector.request.body}),
      })
      .prerequest();
    sandbox.setNow(options.now ?? vector.response.timestamp);
    send.test({
      code: response.code ?? vector.response.status,
      body: response.body ?? vector.response.body,
      headers: response.headers ?? {
        'X-Timestamp': vector.response.timestamp,
        'X-Nonce': vector.response.nonce,
        'X-Signature': vector.signatureHeader,
      },
    });
    const [signature, freshness] = send.tests;
    assert.equal(send.tests.length, 2);
    return {signature, freshness, verified: sandbox.canonicalStrings.at(-1)};
  }

  test('accepts the published response vectors (success and error)', () => {
    assert.ok(
      responseVectors.some((vector) => vector.response.status === 200) && responseVectors.some((vector) => vector.response.status >= 400),
    );
    for (const vector of responseVectors) {
      const {signature, freshness, verified} = verifyResponse(vector, {});
      assert.equal(verified, vector.canonicalString, `${vector.name}: the response canonical string`);
      assert.deepEqual(signature, {name: signature?.name, passed: true}, vector.name);
      assert.deepEqual(freshness, {name: freshness?.name, passed: true}, vector.name);
    }
  });

  test("rejects a tampered body, another request's nonce, another status, a missing signature and another key version", () => {
    for (const vector of responseVectors) {
      const tampered = verifyResponse(vector, {body: vector.response.body.replace('"code":"', '"code":"X')});
      assert.equal(tampered.signature?.passed, false);
      assert.match(tampered.signature?.error ?? '', /does not verify/);
      assert.equal(verifyResponse(vector, {}, {requestNonce: someNonces[1]}).signature?.passed, false, 'bound to the request nonce');
      assert.equal(
        verifyResponse(vector, {code: vector.response.status === 200 ? 201 : 200}).signature?.passed,
        false,
        'bound to the status',
      );
      const unsigned = verifyResponse(vector, {code: 502, body: '<html>Bad gateway</html>', headers: {}});
      assert.match(unsigned.signature?.error ?? '', /no X-Signature header.*outcome is unknown/);
      const otherVersion = verifyResponse(vector, {
        headers: {
          'X-Timestamp': vector.response.timestamp,
          'X-Nonce': vector.response.nonce,
          'X-Signature': vector.signatureHeader.replace('keyVersion=1', 'keyVersion=2'),
        },
      });
      assert.match(otherVersion.signature?.error ?? '', /provider key version 2.*providerPublicKeyPemV2/);
    }
  });

  test('during a provider key overlap, verifies a response signed with another announced version through providerPublicKeyPemV<n>', () => {
    const vector = responseVectors[0];
    assert.ok(vector);
    const signedAsVersion2 = {
      'X-Timestamp': vector.response.timestamp,
      'X-Nonce': vector.response.nonce,
      'X-Signature': vector.signatureHeader.replace('keyVersion=1', 'keyVersion=2'),
    };
    const providerPublicKeyPem = collection.variable.find(({key}) => key === 'providerPublicKeyPem')?.value ?? '';
    assert.match(providerPublicKeyPem, /BEGIN PUBLIC KEY/);
    const configured = verifyResponse(
      vector,
      {headers: signedAsVersion2},
      {collectionValues: {providerPublicKeyPemV2: providerPublicKeyPem}},
    );
    assert.equal(configured.signature?.passed, true, configured.signature?.error);
    const wrongKey = verifyResponse(
      vector,
      {headers: signedAsVersion2},
      {collectionValues: {providerPublicKeyPemV2: merchantPublicKeyPem}},
    );
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
