/**
 * Hosted mode's admission of API calls (src/sandbox/hosts/server/shedding.ts), over a stand-in engine: at most
 * two calls of one merchant reach the engine at once, the calls beyond the merchant's allowance are shed with
 * a 429 held until the allowance renews, and another merchant's calls neither wait in that line nor are shed.
 *
 * Run: node --import tsx --test tests/sandbox/shedding.test.ts
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import type {OperationSpec} from '../../src/sandbox/engine/spec';
import type {Reply, ServerCall} from '../../src/sandbox/hosts/server/server';
import {callsInEnginePerMerchant, rateShedder} from '../../src/sandbox/hosts/server/shedding';

const perSecond = 3;
const operations = [{method: 'POST', path: '/v1/orders'} as OperationSpec];

test('one merchant holds at most two places in the engine, its excess is shed; another merchant passes', async () => {
  const counted = new Map<string, number>();
  const refused: string[] = [];
  const engine = {
    clock: {now: () => Date.parse('2026-01-01T00:00:00.250Z')},
    limiter: {
      rateClassOf: () => ({name: 'writes', perSecond}),
      remainingUncounted: (clientId: string) => perSecond - (counted.get(clientId) ?? 0),
    },
    refuse: async (request: ServerCall, code: string) => {
      refused.push(request.headers['x-client-id'] ?? '');
      return {status: 429, headers: {'X-Request-Id': 'req_1'}, body: JSON.stringify({code})};
    },
  } as unknown as SandboxEngine;
  const admit = rateShedder(engine, {operations});
  let inEngine = 0;
  let most = 0;
  const call = (clientId: string) =>
    admit({method: 'POST', target: '/v1/orders', headers: {'x-client-id': clientId}, body: '{}'}, async (): Promise<Reply> => {
      inEngine += 1;
      most = Math.max(most, inEngine);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // The engine counts a call once it is verified.
      counted.set(clientId, (counted.get(clientId) ?? 0) + 1);
      inEngine -= 1;
      return {status: 200, headers: {}, body: '{}'};
    });

  const flood = await Promise.all(Array.from({length: 10}, () => call('merchant-a')));
  assert.equal(most, callsInEnginePerMerchant, 'no more than two calls of one merchant in the engine at once');
  assert.equal(flood.filter((reply) => reply.status === 200).length, perSecond, 'the allowance is carried out, no more');
  const shed = flood.filter((reply) => reply.status === 429);
  assert.equal(shed.length, 10 - perSecond);
  for (const reply of shed) {
    assert.equal(reply.holdSeconds, 0.75, 'held until the next second, when the allowance renews');
    assert.deepEqual([reply.headers['RateLimit-Remaining'], reply.headers['RateLimit-Limit']], ['0', String(perSecond)]);
  }
  const other = await call('merchant-b');
  assert.equal(other.status, 200, 'another merchant is not shed');
  assert.deepEqual(new Set(refused), new Set(['merchant-a']));
});
