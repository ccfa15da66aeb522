/**
 * The samples embed the shared sandbox test merchant's keys (src/lib reads no files): the copies must be the
 * published files byte for byte, and the key versions and client ID the ones the sandbox registers.
 */
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {test} from 'node:test';
import {parse} from 'yaml';
import {testMerchant} from '../../src/lib/samples/testMerchant';

const apiDir = path.join(import.meta.dirname, '..', '..', 'api');
const pem = (file: string) => readFileSync(path.join(apiDir, 'test-vectors', file), 'utf8').trim();

interface SandboxMerchant {
  clientId: string;
  merchantKey: {keyVersion: number; privateKey: string};
  providerKey: {keyVersion: number; publicKey: string};
}

test('the embedded test keys are the published files the sandbox registers, with their key versions', () => {
  const {merchant} = parse(readFileSync(path.join(apiDir, 'sandbox.yaml'), 'utf8')) as {merchant: SandboxMerchant};
  assert.equal(testMerchant.clientId, merchant.clientId);
  assert.equal(testMerchant.keyVersion, String(merchant.merchantKey.keyVersion));
  assert.equal(testMerchant.providerKeyVersion, String(merchant.providerKey.keyVersion));
  assert.equal(testMerchant.privateKeyPem, pem(path.basename(merchant.merchantKey.privateKey)));
  assert.equal(testMerchant.providerPublicKeyPem, pem(path.basename(merchant.providerKey.publicKey)));
});
