/**
 * The handler table is typed by OperationId (src/sandbox/engine/operationIds.ts), so a missing row fails to
 * compile; this test holds that list to the contract, so a new operation in api/openapi.yaml cannot slip past
 * the compiler.
 */
import {test} from 'node:test';
import assert from 'node:assert/strict';
import {handlers} from '../../src/sandbox/engine/operations';
import {operationIds} from '../../src/sandbox/engine/operationIds';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

const contractIds = sandboxFiles().spec.operations.map((operation) => operation.operationId);

test('OperationId lists exactly the contract operations, in contract order', () => {
  const missing = contractIds.filter((id) => !(operationIds as readonly string[]).includes(id));
  const extra = operationIds.filter((id) => !contractIds.includes(id));
  assert.deepEqual(
    {missing, extra},
    {missing: [], extra: []},
    'add the missing operationIds to src/sandbox/engine/operationIds.ts (then a handler row), remove the extra ones',
  );
  assert.deepEqual([...operationIds], contractIds);
});

test('the handler table has one row per contract operation, and nothing else', () => {
  assert.deepEqual(Object.keys(handlers).sort(), [...contractIds].sort());
  for (const [id, handler] of Object.entries(handlers)) assert.equal(typeof handler, 'function', id);
});
