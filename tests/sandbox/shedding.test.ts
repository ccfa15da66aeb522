/**
 * Hosted mode's admission of API calls and signed test tools (src/sandbox/hosts/server/shedding.ts), over a
 * stand-in engine: at most two calls of one merchant reach the engine at once, the calls beyond the merchant's
 * allowance for their class are shed with a 429 held until the allowance renews, another merchant's calls
 * neither wait in that line nor are shed, and with the limits off (--no-rate-limits) nothing is shed.
 *
 * Run: node --import tsx --test tests/sandbox/shedding.test.ts
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import type {Reply, ServerCall} from '../../src/sandbox/hosts/server/server';
import {callsInEnginePerMerchant, rateShedder} from '../../src/sandbox/hosts/server/shedding';

const perSecond = 3;
const writes = {name: 'writes', perSecond};
const testTools = {name: 'test tool', perSecond: 2};

/** The admission over a stand-in engine that counts each call its handler runs, per merchant and class. */
function stand(enforced = true) {
  const counted = new Map<string, number>();
  const refused: string[] = [];
  const classOf = (target: string) => (target.startsWith('/_sandbox') ? testTools : writes);
  const engine = {
    clock: {now: () => Date.parse('2026-01-01T00:00:00.250Z')},
    limiter: {
      enforced,
      remainingUncounted: (clientId: string, rateClass: {name: string; perSecond: number}) =>
        rateClass.perSecond - (counted.get(`${clientId}/${rateClass.name}`) ?? 0),
    },
    refuse: async (request: ServerCall, code: string) => {
      refused.push(request.headers['x-client-id'] ?? '');
      return {status: 429, headers: {'X-Request-Id': 'req_1'}, body: JSON.stringify({code})};
    },
  } as unknown as SandboxEngine;
  const admit = rateShedder(engine, (call) => classOf(call.target));
  const state = {most: 0, inEngine: 0, refused};
  const call = (clientId: string, target = '/v1/orders') =>
    admit({method: 'POST', target, headers: {'x-client-id': clientId}, body: '{}'}, async (): Promise<Reply> => {
      state.inEngine += 1;
      state.most = Math.max(state.most, state.inEngine);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // The engine counts a call once it is verified.
      const key = `${clientId}/${classOf(target).name}`;
      counted.set(key, (counted.get(key) ?? 0) + 1);
      state.inEngine -= 1;
      return {status: 200, headers: {}, body: '{}'};
    });
  return {call, state};
}

test('one merchant holds at most two places in the engine, its excess is shed; another merchant passes', async () => {
  const {call, state} = stand();
  const {refused} = state;

  const flood = await Promise.all(Array.from({length: 10}, () => call('merchant-a')));
  assert.equal(state.most, callsInEnginePerMerchant, 'no more than two calls of one merchant in the engine at once');
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

test('signed test tools go through the same admission, counted in their own class', async () => {
  const {call, state} = stand();
  const tools = await Promise.all(Array.from({length: 6}, () => call('merchant-a', '/_sandbox/reset')));
  assert.deepEqual(
    tools.map((reply) => reply.status).sort(),
    [200, 200, 429, 429, 429, 429],
    "the test tools' allowance (2) is carried out, the rest shed",
  );
  assert.ok(
    tools.filter((reply) => reply.status === 429).every((reply) => reply.headers['RateLimit-Limit'] === '2' && reply.holdSeconds === 0.75),
  );
  assert.equal((await call('merchant-a')).status, 200, "the merchant's API writes have their own allowance");
  assert.equal((await call('merchant-b', '/_sandbox/reset')).status, 200, "another merchant's test tool is answered");
  assert.deepEqual(new Set(state.refused), new Set(['merchant-a']));
});

test('with the limits off (--no-rate-limits) nothing is shed, and the line per merchant stays', async () => {
  const {call, state} = stand(false);
  const replies = await Promise.all(Array.from({length: 8}, () => call('merchant-a')));
  assert.deepEqual(new Set(replies.map((reply) => reply.status)), new Set([200]));
  assert.equal(state.most, callsInEnginePerMerchant);
});
