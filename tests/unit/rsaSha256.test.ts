/**
 * The RSA-SHA256 the Postman collection carries (src/contract/node/postman/rsaSha256.ts),
 * run as the collection runs it: its text evaluated in a fresh `vm` context, which has BigInt but
 * no Buffer, no crypto and no TextEncoder. PKCS#1 v1.5 signing is deterministic, so every
 * signature must equal node:crypto's byte for byte.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {createHash, createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, sign as nodeSign} from 'node:crypto';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import {rsaSha256Library} from '../../src/contract/node/postman/rsaSha256';
import {vectorDir, vectorFile, type VectorFile} from '../../tooling/signingVectors';

interface RsaKey {
  readonly size: number;
}
interface VeloxaRsa {
  privateKey(pem: string): RsaKey;
  publicKey(pem: string): RsaKey;
  sign(key: RsaKey, text: string): string;
  verify(key: RsaKey, text: string, signature: string): boolean;
  sha256Hex(text: string): string;
}

function loadLibrary(): VeloxaRsa {
  const context = vm.createContext({});
  vm.runInContext(rsaSha256Library, context, {filename: 'rsaSha256'});
  return context.veloxaRsa as VeloxaRsa;
}

const rsa = loadLibrary();
const vectors = JSON.parse(readFileSync(vectorFile, 'utf8')) as VectorFile;
const keyFile = (file: string) => readFileSync(path.join(vectorDir, file), 'utf8');

/** Messages around SHA-256's block edges (55, 56, 63, 64 bytes), empty, multi-byte and astral characters, a lone surrogate. */
const messages = [
  '',
  'a',
  'x'.repeat(55),
  'x'.repeat(56),
  'x'.repeat(63),
  'x'.repeat(64),
  'x'.repeat(1000),
  'POST\n/v1/orders\nsandbox-merchant-0001\n2025-06-01T08:30:00Z\nnonce\n{"subject":"Café × 2 ☕"}',
  'emoji 😀 and CJK 支付 and \u0000 nul',
  'lone surrogate \ud800 here',
  randomBytes(300).toString('latin1'),
];

function nodeSignature(privateKeyPem: string, text: string): string {
  return nodeSign('sha256', Buffer.from(text, 'utf8'), createPrivateKey(privateKeyPem)).toString('base64');
}

describe("the collection's RSA-SHA256", () => {
  test('hashes like node:crypto, SHA-256 over UTF-8', () => {
    for (const message of messages)
      assert.equal(
        rsa.sha256Hex(message),
        createHash('sha256').update(message, 'utf8').digest('hex'),
        JSON.stringify(message.slice(0, 20)),
      );
  });

  test('signs byte for byte like node:crypto with PKCS#8 and PKCS#1 keys of 1024 and 2048 bits, and verifies what it signed', () => {
    for (const modulusLength of [1024, 2048]) {
      const {privateKey, publicKey} = generateKeyPairSync('rsa', {modulusLength});
      const pkcs8 = privateKey.export({type: 'pkcs8', format: 'pem'}).toString();
      const pkcs1 = privateKey.export({type: 'pkcs1', format: 'pem'}).toString();
      const spki = publicKey.export({type: 'spki', format: 'pem'}).toString();
      assert.match(pkcs1, /BEGIN RSA PRIVATE KEY/);
      for (const message of messages) {
        const expected = nodeSignature(pkcs8, message);
        assert.equal(rsa.sign(rsa.privateKey(pkcs8), message), expected, `${modulusLength}: PKCS#8`);
        assert.equal(rsa.sign(rsa.privateKey(pkcs1), message), expected, `${modulusLength}: PKCS#1`);
        assert.equal(rsa.verify(rsa.publicKey(spki), message, expected), true);
      }
    }
  });

  test('reproduces the published signing vectors and verifies their responses', () => {
    const merchantKey = rsa.privateKey(keyFile(vectors.keys.merchant.privateKeyFile));
    const providerPublic = rsa.publicKey(keyFile(vectors.keys.provider.publicKeyFile));
    for (const vector of vectors.vectors) {
      const signature = /signature=([A-Za-z0-9+/=]+)/.exec(vector.signatureHeader)?.[1] ?? '';
      if (vector.kind === 'request') assert.equal(rsa.sign(merchantKey, vector.canonicalString), signature, vector.name);
      else assert.equal(rsa.verify(providerPublic, vector.canonicalString, signature), true, vector.name);
    }
  });

  test('rejects a changed message, a changed signature, another key, a short or oversized signature and non-base64', () => {
    const {privateKey, publicKey} = generateKeyPairSync('rsa', {modulusLength: 2048});
    const other = generateKeyPairSync('rsa', {modulusLength: 2048}).publicKey;
    const key = rsa.publicKey(publicKey.export({type: 'spki', format: 'pem'}).toString());
    const signature = nodeSignature(privateKey.export({type: 'pkcs8', format: 'pem'}).toString(), 'message');
    assert.equal(rsa.verify(key, 'message', signature), true);
    assert.equal(rsa.verify(key, 'messagE', signature), false);
    const flipped = Buffer.from(signature, 'base64');
    flipped[10] = (flipped[10] ?? 0) ^ 1;
    assert.equal(rsa.verify(key, 'message', flipped.toString('base64')), false);
    assert.equal(rsa.verify(rsa.publicKey(other.export({type: 'spki', format: 'pem'}).toString()), 'message', signature), false);
    assert.equal(rsa.verify(key, 'message', Buffer.from(signature, 'base64').subarray(1).toString('base64')), false);
    assert.equal(rsa.verify(key, 'message', Buffer.alloc(256, 0xff).toString('base64')), false, 'a signature not below the modulus');
    assert.throws(() => rsa.verify(key, 'message', 'not*base64'), /not base64/);
  });

  test('refuses keys it cannot use with a plain message: EC, a public key as private, garbage', () => {
    const ec = generateKeyPairSync('ec', {namedCurve: 'P-256'});
    assert.throws(() => rsa.privateKey(ec.privateKey.export({type: 'pkcs8', format: 'pem'}).toString()), /not an RSA key/);
    assert.throws(() => rsa.publicKey(ec.publicKey.export({type: 'spki', format: 'pem'}).toString()), /not an RSA key/);
    const spki = keyFile(vectors.keys.provider.publicKeyFile);
    assert.throws(() => rsa.privateKey(spki), /not a private key/);
    assert.throws(() => rsa.privateKey('-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----'), /DER/);
    assert.throws(() => rsa.publicKey('no key'), /no PEM block/);
    // The parsed key is the one node reads.
    const parsed = rsa.publicKey(spki);
    assert.equal(parsed.size * 8, createPublicKey(spki).asymmetricKeyDetails?.modulusLength);
  });
});
