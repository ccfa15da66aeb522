import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createVerify} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {
  canonicalString,
  formatSignatureHeader,
  importPrivateKey,
  importPublicKey,
  isTimestampFresh,
  parseSignatureHeader,
  signCanonical,
  verifyCanonical,
  type CanonicalInput,
} from '../../src/lib/signing';
import {repoRoot} from '../support/routeContract';

const vectorDir = path.join(repoRoot, 'api', 'test-vectors');
interface SigningVector {
  privateKeyFile: string;
  publicKeyFile: string;
  keyVersion: number;
  request: CanonicalInput;
  canonicalString: string;
  signature: string;
  signatureHeader: string;
}
const vector = JSON.parse(readFileSync(path.join(vectorDir, 'signing.json'), 'utf8')) as SigningVector;
const privatePem = readFileSync(path.join(vectorDir, vector.privateKeyFile), 'utf8');
const publicPem = readFileSync(path.join(vectorDir, vector.publicKeyFile), 'utf8');

describe('the committed signing test vector', () => {
  test('canonical string', () => {
    assert.equal(canonicalString(vector.request), vector.canonicalString);
  });

  test('signature (PKCS #1 v1.5 is deterministic, so it must match byte for byte)', async () => {
    const signature = await signCanonical(vector.canonicalString, await importPrivateKey(privatePem));
    assert.equal(signature, vector.signature);
    assert.equal(formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: vector.keyVersion, signature}), vector.signatureHeader);
  });

  test('verifies with the public key, and with an independent implementation (node:crypto)', async () => {
    assert.equal(await verifyCanonical(vector.canonicalString, vector.signature, await importPublicKey(publicPem)), true);
    const verifier = createVerify('RSA-SHA256');
    verifier.update(vector.canonicalString);
    assert.equal(verifier.verify(publicPem, vector.signature, 'base64'), true);
  });

  test('a changed body, path or timestamp breaks the signature', async () => {
    const key = await importPublicKey(publicPem);
    for (const change of [{body: vector.request.body.replace('1250', '1251')}, {pathWithQuery: '/v1/orders?x=1'}, {timestamp: '2025-06-01T08:30:01Z'}]) {
      const tampered = canonicalString({...vector.request, ...change});
      assert.equal(await verifyCanonical(tampered, vector.signature, key), false, JSON.stringify(change));
    }
  });
});

describe('canonicalString input checks', () => {
  const valid = vector.request;
  const bad: Array<[Partial<CanonicalInput>, RegExp]> = [
    [{method: 'post'}, /method must be an upper-case HTTP method/],
    [{pathWithQuery: 'https://sandbox-api.example.com/v1/orders'}, /pathWithQuery must start with "\/"/],
    [{clientId: ''}, /clientId must be a non-empty/],
    [{timestamp: '2025-06-01 08:30:00'}, /timestamp must be RFC 3339 in UTC/],
    [{timestamp: '2025-06-01T10:30:00+02:00'}, /timestamp must be RFC 3339 in UTC/],
    [{nonce: 'short'}, /nonce must be 16 to 64/],
  ];
  for (const [change, message] of bad) {
    test(`rejects ${JSON.stringify(change)}`, () => {
      assert.throws(() => canonicalString({...valid, ...change}), message);
    });
  }
  test('a GET has an empty last line', () => {
    assert.ok(canonicalString({...valid, method: 'GET', pathWithQuery: '/v1/orders?pageNo=1', body: ''}).endsWith('\n'));
  });
});

describe('signature header', () => {
  test('round-trips', () => {
    const header = {algorithm: 'RSA-SHA256', keyVersion: 3, signature: 'YWJj'} as const;
    assert.deepEqual(parseSignatureHeader(formatSignatureHeader(header)), header);
  });
  const bad: Array<[string, RegExp]> = [
    ['algorithm=HMAC-SHA256, keyVersion=1, signature=YWJj', /algorithm must be RSA-SHA256/],
    ['algorithm=RSA-SHA256, keyVersion=zero, signature=YWJj', /keyVersion must be a positive integer/],
    ['algorithm=RSA-SHA256, keyVersion=1, signature=not base64!', /signature must be standard base64/],
    ['garbage', /is not a name=value pair/],
  ];
  for (const [value, message] of bad) {
    test(`rejects ${value}`, () => assert.throws(() => parseSignatureHeader(value), message));
  }
});

describe('timestamp freshness', () => {
  const now = new Date('2025-06-01T08:30:00Z');
  test('inside and outside the five-minute window', () => {
    assert.equal(isTimestampFresh('2025-06-01T08:34:59Z', now), true);
    assert.equal(isTimestampFresh('2025-06-01T08:25:00Z', now), true);
    assert.equal(isTimestampFresh('2025-06-01T08:35:01Z', now), false);
    assert.equal(isTimestampFresh('not a time', now), false);
  });
});
