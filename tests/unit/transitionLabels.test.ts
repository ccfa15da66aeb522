/**
 * The state diagrams' short edge labels come from the contract (src/contract/transitionLabels.ts): a
 * transition that sends a notification is labelled with that event type, one the contract declares; the
 * others with the start of their trigger; every label fits one line, and the diagram uses the labels, not
 * the triggers (which stay in the transitions table).
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {loadContract} from '../../src/contract/node/loadContract';
import {buildOperationView} from '../../src/contract/apiModel';
import {listOperations} from '../../src/contract/openapiTypes';
import {contractEventTypes, eventPrefix, labelLimit, transitionLabel} from '../../src/contract/transitionLabels';
import {stateDiagram} from '../../plugins/content/openapi-contract/remarkApiReference';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const events = contractEventTypes(contract.document);
const machines = new Map(
  listOperations(contract.document).flatMap((location) =>
    buildOperationView(contract.document, location, (markdown) => markdown).stateMachines.map(
      (machine) => [machine.schemaName, machine] as const,
    ),
  ),
);

describe('short edge labels of the state diagrams', () => {
  test('the contract declares the payment events, and machines name their events by schema', () => {
    for (const event of ['ORDER.PAID', 'ORDER.PAYMENT_FAILED', 'ORDER.CLOSED', 'REFUND.SUCCEEDED']) assert.ok(events.has(event), event);
    assert.equal(eventPrefix('BankTransferStatus'), 'BANK_TRANSFER');
    assert.equal(eventPrefix('OrderStatus'), 'ORDER');
  });

  test('order transitions are labelled with the events they send, from the contract', () => {
    const order = machines.get('OrderStatus');
    assert.ok(order);
    const label = (from: string, to: string) =>
      order.transitions.find((transition) => transition.from === from && transition.to === to)?.label;
    assert.equal(label('PENDING', 'PAID'), 'ORDER.PAID');
    assert.equal(label('PROCESSING', 'PENDING'), 'ORDER.PAYMENT_FAILED');
    assert.equal(label('PROCESSING', 'CLOSED'), 'ORDER.CLOSED');
    assert.equal(label('PAID', 'PARTIALLY_REFUNDED'), 'partial refund succeeds');
  });

  test('every label is a declared event or the start of its own trigger, and fits one line', () => {
    assert.ok(machines.size >= 5, `machines: ${[...machines.keys()].join(', ')}`);
    for (const machine of machines.values()) {
      for (const transition of machine.transitions) {
        const where = `${machine.schemaName} ${transition.from} -> ${transition.to}`;
        assert.ok(transition.label.length <= labelLimit, `${where}: "${transition.label}" is longer than ${labelLimit}`);
        if (/^[A-Z_]+\.[A-Z_]+$/.test(transition.label))
          assert.ok(events.has(transition.label), `${where}: ${transition.label} is no event`);
        else
          assert.ok(
            transition.trigger.toLowerCase().includes(transition.label.replace(/…$/, '').toLowerCase()),
            `${where}: ${transition.label}`,
          );
        assert.equal(transitionLabel(machine.schemaName, transition, events), transition.label);
      }
      const diagram = stateDiagram(machine);
      for (const transition of machine.transitions) {
        assert.ok(
          diagram.includes(`${transition.from} --> ${transition.to}: ${transition.label.replace(/[:;]/g, ',')}`),
          machine.schemaName,
        );
        if (transition.trigger.length > labelLimit)
          assert.ok(!diagram.includes(transition.trigger), 'the long trigger stays out of the drawing');
      }
    }
  });
});
