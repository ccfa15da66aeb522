/** The engine's random identifiers (engine/ids.ts): the contract's formats, every character equally likely, bytes drawn from a pool. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {randomDigits, randomId, randomToken} from '../../src/sandbox/engine/ids';

test('tokens keep their format and spread over the whole alphabet across many pool refills', () => {
  const tokens = Array.from({length: 1500}, () => randomToken(20));
  assert.ok(tokens.every((token) => /^[A-Za-z0-9]{20}$/.test(token)));
  assert.equal(new Set(tokens).size, tokens.length);
  const counts = new Map<string, number>();
  for (const character of tokens.join('')) counts.set(character, (counts.get(character) ?? 0) + 1);
  assert.equal(counts.size, 62);
  // 30,000 characters over 62: about 484 each (a standard deviation of 22); a bias towards the first characters (byte % 62 without rejection) would show.
  for (const [character, count] of counts) assert.ok(count > 380 && count < 600, `${character} drawn ${count} times`);
  assert.match(randomId('req_', 20), /^req_[A-Za-z0-9]{20}$/);
  assert.match(randomDigits(12), /^\d{12}$/);
});

test('identifiers take their bytes from a pool, not one getRandomValues call each', (context) => {
  const getRandomValues = context.mock.method(crypto, 'getRandomValues');
  for (let index = 0; index < 1000; index += 1) randomId('req_', 20);
  // 20,000 characters need about 20,650 bytes (3 % rejected): 6 refills of 4 KiB, where one call per ID made 1,000.
  assert.ok(getRandomValues.mock.callCount() <= 7, `${getRandomValues.mock.callCount()} calls`);
});
