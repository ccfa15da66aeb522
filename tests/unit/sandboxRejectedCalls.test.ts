/**
 * A rejected call changes nothing but what the contract says it keeps: the request's nonce (remembered so the
 * same signed request cannot be replayed). Property: for any rejecting call among a family of bad requests,
 * the exported state before and after is equal once nonce records are set aside. (Revoke order on an unknown
 * number is the documented exception, a tombstone: x-idempotency.tombstone, so it is not in this family.)
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {createNodeEngine} from '../../src/sandbox/server/loadEngine';
import {engineClient} from '../support/sandboxClient';

const start = Date.parse('2026-11-25T10:00:00Z');
const order = (merchantOrderNo: string, value: number) => ({merchantOrderNo, amount: {value, currency: 'USD'}, scene: 'HOSTED_PAYPAGE', subject: 'Sandbox test', returnUrl: 'https://shop.example.com/return'});

/** Requests that must each be refused, built from generated values. */
const rejecting = fc.oneof(
  fc.integer({min: 1, max: 10 ** 9}).map((value) => ({method: 'POST', target: '/v1/orders/ORD-PEND-0001/refunds', body: {merchantRefundNo: `RF-${value}`, amount: {value: 10 ** 10 + value, currency: 'USD'}}})),
  fc.stringMatching(/^[A-Z]{3}-[0-9]{6}$/).map((no) => ({method: 'POST', target: `/v1/orders/${no}/cancel`, body: undefined})),
  fc.integer({min: 1, max: 59}).map((seconds) => ({method: 'POST', target: '/v1/orders/ORD-PEND-0001/expiry-time', body: {expiresAt: new Date(start + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z')}})),
  fc.integer({min: 32, max: 400}).map((days) => ({method: 'GET', target: `/v1/orders?createdFrom=2026-01-01T00:00:00Z&createdTo=${new Date(Date.parse('2026-01-01T00:00:00Z') + days * 86400000).toISOString().replace(/\.\d{3}Z$/, 'Z')}`, body: undefined})),
  fc.string({maxLength: 30}).map((text) => ({method: 'POST', target: '/v1/orders', body: `{"merchantOrderNo": ${JSON.stringify(text)}`})),
  fc.constant({method: 'POST', target: '/v1/wallet-auth/token', body: {authCode: 'wac_unknown_code_0000000000'}}),
);

const withoutNonces = (records: ReadonlyArray<readonly [string, unknown]>) => records.filter(([key]) => !key.includes('/nonce/'));

test('a rejected call leaves the exported state as it was, but for its nonce', async () => {
  const engine = await createNodeEngine({clock: fixedClock(start)});
  const client = engineClient(engine);
  assert.equal((await client.call('POST', '/v1/orders', order('ORD-PEND-0001', 1000))).json.code, 'SUCCESS');
  await fc.assert(
    fc.asyncProperty(rejecting, async (request) => {
      const before = withoutNonces(engine.exportState().records);
      const result = await client.call(request.method, request.target, request.body);
      assert.notEqual(result.json.code, 'SUCCESS', `${request.method} ${request.target} was accepted`);
      assert.deepEqual(withoutNonces(engine.exportState().records), before, `${request.method} ${request.target} answered ${String(result.json.code)} and changed the state`);
    }),
    {numRuns: 60},
  );
});
