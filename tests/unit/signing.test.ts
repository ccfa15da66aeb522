import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createVerify} from 'node:crypto';
import {spawnSync} from 'node:child_process';
import {mkdtempSync, readFileSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
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
import {buildVectorFile, canonicalOf, vectorDir, vectorFile, type Vector, type VectorFile} from '../../tooling/signingVectors';

const committed = JSON.parse(readFileSync(vectorFile, 'utf8')) as VectorFile;
const pem = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');
const opensslWork = mkdtempSync(path.join(tmpdir(), 'signing-vectors-'));

/** Verifies with the openssl command line, an implementation independent of Node and of WebCrypto. */
function opensslVerifies(vector: Vector, canonical: string): boolean {
  const data = path.join(opensslWork, `${vector.name}.txt`);
  const signature = path.join(opensslWork, `${vector.name}.sig`);
  writeFileSync(data, canonical, 'utf8');
  writeFileSync(signature, Buffer.from(vector.signature, 'base64'));
  const publicKeyFile = path.join(vectorDir, committed.keys[vector.signer].publicKeyFile);
  const result = spawnSync('openssl', ['dgst', '-sha256', '-verify', publicKeyFile, '-signature', signature, data], {encoding: 'utf8'});
  assert.equal(result.error, undefined, 'openssl must be installed');
  return result.status === 0 && result.stdout.includes('Verified OK');
}

describe('the published signing test vectors', () => {
  test('the committed file is exactly what tooling/signingVectors.ts computes (run npm run vectors after a change)', async () => {
    assert.deepEqual(committed, JSON.parse(JSON.stringify(await buildVectorFile())));
  });

  test('cover what a verifier needs: at least six, of every kind', () => {
    const names = committed.vectors.map((vector) => vector.name);
    assert.ok(names.length >= 6, names.join(', '));
    for (const kind of ['request', 'response', 'notification'] as const) {
      assert.ok(
        committed.vectors.some((vector) => vector.kind === kind),
        `no ${kind} vector`,
      );
    }
    const requests = committed.vectors.filter((vector) => vector.kind === 'request');
    assert.ok(
      requests.some(
        (vector) => vector.request.method === 'GET' && vector.request.pathWithQuery.includes('?') && vector.request.body === '',
      ),
      'a GET with a query and no body',
    );
    assert.ok(
      requests.some((vector) => [...vector.request.body].some((char) => char.charCodeAt(0) > 0x7f)),
      'a body outside ASCII',
    );
    const responses = committed.vectors.filter((vector) => vector.kind === 'response');
    assert.ok(
      responses.some((vector) => vector.kind === 'response' && vector.response.status === 200),
      'a success response',
    );
    assert.ok(
      responses.some((vector) => vector.kind === 'response' && vector.response.status >= 400),
      'an error response',
    );
  });

  for (const vector of committed.vectors) {
    describe(vector.name, () => {
      test('canonical string rebuilt from the inputs', () => {
        assert.equal(canonicalOf(vector), vector.canonicalString);
        assert.equal(
          vector.signatureHeader,
          formatSignatureHeader({algorithm: 'RSA-SHA256', keyVersion: vector.keyVersion, signature: vector.signature}),
        );
      });

      test('WebCrypto signs it to the same signature and verifies it', async () => {
        const keys = committed.keys[vector.signer];
        assert.equal(await signCanonical(vector.canonicalString, await importPrivateKey(pem(keys.privateKeyFile))), vector.signature);
        assert.equal(await verifyCanonical(vector.canonicalString, vector.signature, await importPublicKey(pem(keys.publicKeyFile))), true);
      });

      test('node:crypto verifies it over the UTF-8 bytes', () => {
        const verifier = createVerify('RSA-SHA256');
        verifier.update(Buffer.from(vector.canonicalString, 'utf8'));
        assert.equal(verifier.verify(pem(committed.keys[vector.signer].publicKeyFile), vector.signature, 'base64'), true);
      });

      test('openssl verifies it, and rejects it after one changed character', () => {
        assert.equal(opensslVerifies(vector, vector.canonicalString), true);
        assert.equal(
          opensslVerifies(
            vector,
            vector.canonicalString.replace(/.$/s, (last) => (last === 'x' ? 'y' : 'x')),
          ),
          false,
        );
      });

      test('the other key does not verify it', async () => {
        const other = committed.keys[vector.signer === 'merchant' ? 'provider' : 'merchant'];
        assert.equal(
          await verifyCanonical(vector.canonicalString, vector.signature, await importPublicKey(pem(other.publicKeyFile))),
          false,
        );
      });
    });
  }

  test('a non-ASCII body is signed as UTF-8, not as Latin-1 or UTF-16', () => {
    const vector = committed.vectors.find((candidate) => candidate.name === 'request-post-non-ascii');
    assert.ok(vector);
    const latin1 = createVerify('RSA-SHA256').update(Buffer.from(vector.canonicalString, 'latin1'));
    assert.equal(latin1.verify(pem(committed.keys.merchant.publicKeyFile), vector.signature, 'base64'), false);
  });

  test('a response signature is bound to the request nonce and the HTTP status', async () => {
    const vector = committed.vectors.find((candidate) => candidate.kind === 'response');
    assert.ok(vector?.kind === 'response');
    const key = await importPublicKey(pem(committed.keys.provider.publicKeyFile));
    const changes = [
      {...vector, request: {...vector.request, nonce: '11111111-2222-4333-8444-555555555555'}},
      {...vector, response: {...vector.response, status: 201}},
      {...vector, request: {...vector.request, pathWithQuery: '/v1/orders/ORD-20250601-0001'}},
    ];
    for (const changed of changes) {
      assert.equal(await verifyCanonical(canonicalOf(changed), vector.signature, key), false, JSON.stringify(changed.request));
    }
  });

  test('a changed body, path or timestamp breaks a request signature', async () => {
    const vector = committed.vectors[0];
    assert.ok(vector);
    const key = await importPublicKey(pem(committed.keys.merchant.publicKeyFile));
    for (const change of [
      {body: vector.request.body.replace('1250', '1251')},
      {pathWithQuery: '/orders'},
      {timestamp: '2025-06-01T08:30:01Z'},
    ]) {
      const tampered = canonicalString({...vector.request, ...change});
      assert.equal(await verifyCanonical(tampered, vector.signature, key), false, JSON.stringify(change));
    }
  });
});

describe('canonicalString input checks', () => {
  const valid = committed.vectors[0]?.request ?? {method: '', pathWithQuery: '', clientId: '', timestamp: '', nonce: '', body: ''};
  const bad: Array<[Partial<CanonicalInput>, RegExp]> = [
    [{method: 'post'}, /method must be an upper-case HTTP method/],
    [{pathWithQuery: 'https://sandbox-api.example.com/v1/orders'}, /pathWithQuery must start with "\/"/],
    [{clientId: ''}, /clientId must be a non-empty/],
    [{timestamp: '2025-06-01 08:30:00'}, /timestamp must be YYYY-MM-DDTHH:MM:SSZ/],
    [{timestamp: '2025-06-01T10:30:00+02:00'}, /timestamp must be YYYY-MM-DDTHH:MM:SSZ/],
    [{timestamp: '2025-06-01T08:30:00.123Z'}, /timestamp must be YYYY-MM-DDTHH:MM:SSZ/],
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
    assert.equal(isTimestampFresh('2025-06-01T08:30:00+00:00', now), false, 'only the Z form is valid');
  });
});
