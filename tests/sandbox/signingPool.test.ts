/**
 * The server's signing threads (src/sandbox/hosts/server/signingPool.ts): what they sign is what WebCrypto signs
 * (RSA PKCS #1 v1.5 is deterministic, so the bytes are equal), what they verify WebCrypto agrees with, the signing
 * module routes through them once installed, and a low-priority job waits behind every other one.
 *
 * Run: node --import tsx --test tests/sandbox/signingPool.test.ts
 */
import {after, before, describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {base64ToBytes, bytesToBase64, signCanonical, installSigningBackend, verifyCanonical} from '../../src/lib/signing';
import {atLowPriority, startSigningPool, type SigningPool} from '../../src/sandbox/hosts/server/signingPool';

const algorithm = {name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256'} as const;
const bytes = (text: string) => new TextEncoder().encode(text);

describe('the signing pool', () => {
  let pool: SigningPool;
  let keys: CryptoKeyPair;

  before(async () => {
    pool = startSigningPool(1);
    keys = await crypto.subtle.generateKey({...algorithm, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1])}, false, [
      'sign',
      'verify',
    ]);
  });
  after(async () => {
    installSigningBackend(undefined);
    await pool.close();
  });

  test('signs the bytes WebCrypto signs, and verifies as WebCrypto does', async () => {
    const data = bytes('POST\n/v1/orders\nsandbox-merchant-0001\n2026-01-01T00:00:00Z\nnonce-0123456789abcdef\n{}');
    const fromPool = await pool.sign(data, keys.privateKey);
    const fromWebCrypto = new Uint8Array(await crypto.subtle.sign(algorithm.name, keys.privateKey, data));
    assert.deepEqual(fromPool, fromWebCrypto);
    assert.equal(await pool.verify(data, new Uint8Array(fromWebCrypto), keys.publicKey), true);
    const tampered = new Uint8Array(fromWebCrypto);
    tampered[10] = (tampered[10] ?? 0) ^ 1;
    assert.equal(await pool.verify(data, tampered, keys.publicKey), false);
    assert.equal(await pool.verify(bytes('another string'), new Uint8Array(fromWebCrypto), keys.publicKey), false);
  });

  test('once installed, the signing module signs and verifies through it', async () => {
    let calls = 0;
    installSigningBackend({
      sign: (data, key) => ((calls += 1), pool.sign(data, key)),
      verify: (data, signature, key) => ((calls += 1), pool.verify(data, signature, key)),
    });
    const signature = await signCanonical('canonical', keys.privateKey);
    assert.equal(await verifyCanonical('canonical', signature, keys.publicKey), true);
    assert.equal(await verifyCanonical('changed', signature, keys.publicKey), false);
    assert.equal(calls, 3);
    installSigningBackend(undefined);
    const expected = bytesToBase64(new Uint8Array(await crypto.subtle.sign(algorithm.name, keys.privateKey, bytes('canonical'))));
    assert.equal(signature, expected);
    assert.deepEqual(base64ToBytes(signature).length, 256);
  });

  test('a low-priority job runs after every job that waits beside it', async () => {
    const order: string[] = [];
    const job = (name: string, low: boolean) => {
      const run = () => pool.sign(bytes(name), keys.privateKey).then(() => order.push(name));
      return low ? atLowPriority(run) : run();
    };
    // The thread is busy with the first two; the low one is queued before the normal ones and still runs last.
    const jobs = [
      job('busy-1', false),
      job('busy-2', false),
      job('low', true),
      ...Array.from({length: 6}, (_, index) => job(`normal-${index}`, false)),
    ];
    await Promise.all(jobs);
    assert.equal(order.at(-1), 'low', order.join(', '));
  });

  test('a closed pool refuses new work with a clear error', async () => {
    const closing = startSigningPool(1);
    await closing.close();
    await assert.rejects(closing.sign(bytes('x'), keys.privateKey), /signing pool is closed/);
  });
});
