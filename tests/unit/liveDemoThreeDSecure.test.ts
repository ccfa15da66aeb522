/**
 * The live demos' 3-D Secure outcomes (hosted and iframe pay page): built from the challenge cards of the
 * sandbox data, each stops at the issuer's challenge screen with no notification, then the customer's answer
 * pays the order or declines it with the data's failure code, and the notification verifies.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {cardOutcomes, challengeOutcomes} from '../../src/components/demo/live/flows/cardCheckout';
import {hosted} from '../../src/components/demo/live/flows/hosted';
import {iframe} from '../../src/components/demo/live/flows/iframe';
import {DemoRun} from '../../src/components/demo/live/runner';
import {allVerify, demoSetUp, eventTypes, sandboxData} from '../support/liveDemo';

const outcomes = challengeOutcomes(sandboxData);
const challengeCards = sandboxData.cards.cards.filter((card) => card.threeDSecure?.flow === 'CHALLENGE');

describe('live demo: 3-D Secure', () => {
  test('one outcome per challenge card, offered by the card flows, naming the card as its test value', () => {
    assert.deepEqual(outcomes.map((outcome) => outcome.card).sort(), challengeCards.map((card) => card.number).sort());
    const offered = cardOutcomes(sandboxData).map((outcome) => outcome.id);
    for (const outcome of outcomes) {
      assert.ok(offered.includes(outcome.id), outcome.id);
      assert.match(outcome.testValue, new RegExp(`the card ${outcome.card ?? 'none'}`));
    }
    assert.equal(outcomes.find((outcome) => outcome.id === '3ds-failed')?.failureCode, sandboxData.cards.threeDSecure.failed.failureCode);
  });

  for (const flow of [hosted, iframe])
    test(`${flow.id}: the challenge screen waits with no notification; passed pays, failed declines`, async () => {
      const {ports} = await demoSetUp();
      for (const outcome of outcomes) {
        const run = new DemoRun(ports, flow, outcome);
        let view = run.view();
        while (!run.finished && view.screen.name !== 'challenge') view = await run.step();
        assert.equal(view.screen.name, 'challenge', `${outcome.id} shows the issuer's challenge`);
        assert.equal(view.orderStatus, 'PENDING');
        assert.deepEqual(eventTypes(view), [], 'nothing is notified while the challenge waits');
        assert.match(JSON.stringify(view.screen), new RegExp(`ending ${(outcome.card ?? '').slice(-4)}`));
        view = await run.runToEnd();
        assert.equal(view.error, undefined);
        if (outcome.failureCode) {
          assert.equal(view.orderStatus, 'PENDING');
          assert.deepEqual(eventTypes(view), ['ORDER.PAYMENT_FAILED']);
        } else {
          assert.equal(view.orderStatus, 'PAID');
          assert.deepEqual(eventTypes(view), ['ORDER.PAID']);
        }
        assert.ok(allVerify(view));
      }
    });
});
