/** Lists newest first (domain/lists.ts): the one-pass order for records kept in the order made equals a stable sort, ties in the order given. */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {newestFirst} from '../../src/sandbox/engine/domain/lists';

/** The order the API promises, by a plain stable sort: newest first, the same second in the order given. */
const reference = (times: readonly string[]) =>
  times
    .map((at, index) => ({at, index}))
    .sort((a, b) => (b.at < a.at ? -1 : b.at > a.at ? 1 : 0))
    .map((entry) => entry.index);

const second = fc.integer({min: 0, max: 5}).map((value) => `2026-11-27T09:00:0${value}Z`);

test('newestFirst orders like a stable sort, for times in the order made and for any order', () => {
  fc.assert(
    fc.property(fc.array(second, {maxLength: 40}), fc.boolean(), (drawn, ascending) => {
      const times = ascending ? [...drawn].sort() : drawn;
      const items = times.map((_, index) => index);
      assert.deepEqual(newestFirst(items, times), reference(times));
    }),
    {numRuns: 300},
  );
  assert.deepEqual(newestFirst(['a', 'b', 'c', 'd'], ['09:00:01', '09:00:01', '09:00:02', '09:00:02']), ['c', 'd', 'a', 'b']);
});
