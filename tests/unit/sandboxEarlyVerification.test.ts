/**
 * A call's signature is checked before its unit of work (pipeline.ts: verifyEarly), so calls verify in parallel
 * while units run one at a time. The early result may only count for the bytes and the key it checked: a key
 * rotated or revoked while the call waited for its turn is checked again, and every check before the signature
 * still runs, in order, inside the unit.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {importPrivateKey} from '../../src/lib/signing';
import {brand} from '../../src/brand';
import {signRequest} from '../../src/sandbox/client/signing';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {lowerCaseHeaders} from '../../src/sandbox/engine/http';
import {createAuthenticator} from '../../src/sandbox/engine/pipeline/authenticate';
import {MerchantRecords} from '../../src/sandbox/engine/state';
import {Rejected} from '../../src/sandbox/engine/tx';
import {UnitOfWork} from '../../src/sandbox/engine/unit';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

const files = sandboxFiles();
const now = Date.parse('2026-11-27T09:00:00Z');
const clock = fixedClock(now);
const clientId = 'early-merchant-0001';

async function setUp() {
  const records = new MerchantRecords({
    clientId,
    keys: {'1': files.merchantPublicKeyPem},
    defaultNotifyUrl: null,
    compressedRetries: false,
    createdAt: now,
  });
  const authenticator = createAuthenticator({spec: files.spec, clock}, (id) => (id === clientId ? records : undefined));
  const host = {
    spec: files.spec,
    clock,
    hosts: {cashier: brand.hosts.sandboxCashier, files: brand.hosts.statementFiles},
    validator: files.validator,
    write: () => undefined,
    writeMerchant: () => undefined,
    schedule: () => undefined,
  };
  const privateKey = await importPrivateKey(files.merchantPrivateKeyPem);
  const signed = await signRequest({clientId, keyVersion: 1, privateKey}, {method: 'GET', target: '/v1/orders/EARLY-1', body: ''}, now);
  const request = {method: signed.method, target: signed.target, headers: signed.headers, body: signed.body};
  return {records, authenticator, request, headers: lowerCaseHeaders(request.headers), unit: () => new UnitOfWork(host)};
}

const rejectedWith = (code: string) => (error: unknown) => error instanceof Rejected && error.code === code;

test('an early check of a well-signed call is the one authenticate uses, and the call is let in', async () => {
  const {authenticator, request, headers, unit} = await setUp();
  const early = authenticator.verifyEarly(request, headers);
  assert.ok(early, 'a call that passes every check before the signature gets an early verification');
  assert.equal(await early.valid, true);
  const state = await authenticator.authenticate(unit(), request, headers, early);
  assert.equal(state.merchant.clientId, clientId);
  // The early result is what counts for the same bytes and key: one that says "valid" lets a call in without a second check.
  const forged = {...request, headers: {...request.headers, 'X-Nonce': 'forged-nonce-0000000001'}};
  const forgedHeaders = lowerCaseHeaders(forged.headers);
  const claimed = authenticator.verifyEarly(forged, forgedHeaders);
  assert.ok(claimed);
  assert.equal(await claimed.valid, false);
  await assert.rejects(authenticator.authenticate(unit(), forged, forgedHeaders), rejectedWith('INVALID_SIGNATURE'));
  const letIn = await authenticator.authenticate(unit(), forged, forgedHeaders, {...claimed, valid: Promise.resolve(true)});
  assert.equal(letIn.merchant.clientId, clientId);
});

test('a key rotated while the call waited for its turn is checked again: the early "valid" does not count', async () => {
  const {records, authenticator, request, headers, unit} = await setUp();
  const early = authenticator.verifyEarly(request, headers);
  assert.ok(early);
  assert.equal(await early.valid, true);
  // Key version 1 now names another key (the provider's public key stands in for a rotated one).
  records.setMerchant({...records.merchant, keys: {'1': files.providerPublicKeyPem}});
  await assert.rejects(authenticator.authenticate(unit(), request, headers, early), rejectedWith('INVALID_SIGNATURE'));
  // Revoked altogether: the check before the signature refuses it, as without an early check.
  records.setMerchant({...records.merchant, keys: {'2': files.merchantPublicKeyPem}});
  await assert.rejects(authenticator.authenticate(unit(), request, headers, early), rejectedWith('UNKNOWN_CLIENT'));
});

test('a call that fails a check before the signature gets no early verification, and authenticate names the check', async () => {
  const {authenticator, request, headers, unit} = await setUp();
  const unknown = {...headers, 'x-client-id': 'nobody-0001'};
  assert.equal(authenticator.verifyEarly(request, unknown), undefined);
  await assert.rejects(authenticator.authenticate(unit(), request, unknown), rejectedWith('UNKNOWN_CLIENT'));
  const malformed = {...headers, 'x-signature': 'algorithm=RSA-SHA256'};
  assert.equal(authenticator.verifyEarly(request, malformed), undefined);
  await assert.rejects(authenticator.authenticate(unit(), request, malformed), rejectedWith('INVALID_SIGNATURE'));
});
