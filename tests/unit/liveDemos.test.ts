/**
 * The live demos' card flows (src/components/demo/live/flows/: hosted, iframe, paylink) over the runner and a Node engine: each flow runs to success
 * and to failures as the sandbox data defines them, every notification it raises verifies, a payment link
 * paid or expired answers as the demo page says, the replay query round-trips, and closing a run's open
 * orders leaves every other object of the sandbox as it was.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {cardOutcomes} from '../../src/components/demo/live/flows/cardCheckout';
import {hosted} from '../../src/components/demo/live/flows/hosted';
import {iframe} from '../../src/components/demo/live/flows/iframe';
import {paylink} from '../../src/components/demo/live/flows/paylink';
import {type Outcome} from '../../src/components/demo/live/flow';
import {DemoRun, readReplayQuery, replayQuery, resetRuns, type RunView} from '../../src/components/demo/live/runner';
import {handedMessage, handoverFragment} from '../../src/lib/signatureDiagnosis/handover';
import {allVerify, demoSetUp as setUp, eventTypes, sandboxData} from '../support/liveDemo';

const data = sandboxData;
const outcomes = cardOutcomes(data);
const outcome = (id: string): Outcome => {
  const found = outcomes.find((candidate) => candidate.id === id);
  assert.ok(found, `outcome ${id} is offered`);
  return found;
};
const cardFlows = {hosted, iframe, paylink};
type CardFlowId = keyof typeof cardFlows;

describe('live demo outcomes come from the sandbox data', () => {
  test('success, each attempt decline with its code, the creation rejection, expiry, abandon and refund', () => {
    const ids = outcomes.map((candidate) => candidate.id);
    for (const id of ['approve', 'decline-51', 'decline-54', 'decline-58', 'rejected-59', 'expiry', 'abandon', 'refund'])
      assert.ok(ids.includes(id), `${id} in ${ids.join(', ')}`);
    assert.equal(outcome('decline-51').failureCode, 'INSUFFICIENT_FUNDS');
    assert.match(outcome('decline-51').testValue, /ending 51 with the card 4000000000000002/);
  });
});

for (const flowId of Object.keys(cardFlows) as CardFlowId[]) {
  describe(`live demo: ${flowId}`, () => {
    test('plays to PAID, and ORDER.PAID verifies (signature, timestamp window, client ID)', async () => {
      const {ports} = await setUp();
      const run = new DemoRun(ports, cardFlows[flowId], outcome('approve'));
      const view = await run.runToEnd();
      assert.equal(view.error, undefined);
      assert.equal(view.orderStatus, 'PAID');
      assert.ok(eventTypes(view).includes('ORDER.PAID'), eventTypes(view).join());
      assert.ok(allVerify(view));
      assert.ok(
        view.events
          .filter((event) => event.kind === 'call')
          .every((event) => event.kind === 'call' && event.call.verification.outcome === 'verified'),
        'every response verifies',
      );
      assert.equal(view.amount, cardFlows[flowId].baseAmount);
      if (flowId === 'iframe') {
        const types = view.events.flatMap((event) => (event.kind === 'message' ? [event.data['type']] : []));
        assert.deepEqual(types, ['veloxa:ready', 'veloxa:payment_submitted', 'veloxa:payment_succeeded']);
      }
      if (flowId === 'paylink')
        assert.deepEqual(view.screen.blocks, [
          {
            kind: 'status',
            tone: 'success',
            title: 'This link has been paid',
            text: '60.00 USD for Deposit: made-to-measure tent. No second payment is taken.',
          },
        ]);
    });

    test('a decline leaves the order PENDING with ORDER.PAYMENT_FAILED; expiry closes it with ORDER.CLOSED', async () => {
      const {ports} = await setUp();
      const declined = await new DemoRun(ports, cardFlows[flowId], outcome('decline-51')).runToEnd();
      assert.equal(declined.amount % 100, 51);
      assert.equal(declined.orderStatus, 'PENDING');
      assert.ok(eventTypes(declined).includes('ORDER.PAYMENT_FAILED'));
      assert.ok(allVerify(declined));
      const expired = await new DemoRun(ports, cardFlows[flowId], outcome('expiry')).runToEnd();
      assert.equal(expired.error, undefined);
      assert.ok(eventTypes(expired).includes('ORDER.CLOSED'), eventTypes(expired).join());
      if (flowId === 'paylink') {
        assert.deepEqual(expired.orders.length, 2, 'the link creates a new order after the first expired');
        assert.equal(expired.screen.name, 'cashier');
        const second = expired.events.find((event) => event.kind === 'state' && event.object.endsWith('-2'));
        assert.deepEqual(
          second && second.kind === 'state' ? [second.from, second.to] : [],
          [undefined, 'PENDING'],
          'the new order starts new, not from the closed one',
        );
      } else assert.equal(expired.orderStatus, 'CLOSED');
    });
  });
}

describe('live demo: the other outcomes', () => {
  test('rejected at creation: one call, no order, the shopper screen says the payment could not start', async () => {
    const {ports} = await setUp();
    const view = await new DemoRun(ports, hosted, outcome('rejected-59')).runToEnd();
    assert.equal(view.orders.length, 0);
    assert.equal(view.screen.name, 'failed-start');
    const calls = view.events.flatMap((event) => (event.kind === 'call' ? [event] : []));
    assert.deepEqual(
      calls.map((call) => [call.operationId, call.code]),
      [['createOrder', 'RISK_REJECTED']],
    );
    assert.equal(view.amount % 100, 59);
  });

  test('refund after success: the refund SUCCEEDS and REFUND.SUCCEEDED verifies', async () => {
    const {ports} = await setUp();
    const view = await new DemoRun(ports, hosted, outcome('refund')).runToEnd();
    assert.equal(view.error, undefined);
    assert.equal(view.refundStatus, 'SUCCEEDED');
    assert.ok(eventTypes(view).includes('REFUND.SUCCEEDED'), eventTypes(view).join());
    assert.ok(allVerify(view));
  });

  test('slow and timed-out payments: PROCESSING on the sandbox clock, then PAID or back to PENDING', async () => {
    const {ports} = await setUp();
    const slow = await new DemoRun(ports, iframe, outcome('slow-93')).runToEnd();
    const states = (view: RunView) => view.events.flatMap((event) => (event.kind === 'state' ? [event.to] : []));
    assert.deepEqual(states(slow), ['PENDING', 'PROCESSING', 'PAID']);
    assert.ok(slow.events.some((event) => event.kind === 'clock' && event.seconds === outcome('slow-93').processingSeconds));
    const lost = await new DemoRun(ports, hosted, outcome('timeout-95')).runToEnd();
    assert.deepEqual(states(lost), ['PENDING', 'PROCESSING', 'PENDING']);
    assert.ok(eventTypes(lost).includes('ORDER.PAYMENT_FAILED'));
  });

  test('abandon: the iframe posts veloxa:closed and the order stays PENDING; a payment link reopened gets a fresh cashier URL', async () => {
    const {ports} = await setUp();
    const framed = await new DemoRun(ports, iframe, outcome('abandon')).runToEnd();
    assert.equal(framed.orderStatus, 'PENDING');
    assert.ok(framed.events.some((event) => event.kind === 'message' && event.data['type'] === 'veloxa:closed'));
    const link = await new DemoRun(ports, paylink, outcome('abandon')).runToEnd();
    assert.ok(link.events.some((event) => event.kind === 'call' && event.operationId === 'getCashierUrl' && event.code === 'SUCCESS'));
    assert.equal(link.screen.name, 'cashier');
  });

  test('step by step: one step at a time, the view says which is next', async () => {
    const {ports} = await setUp();
    const run = new DemoRun(ports, hosted, outcome('approve'));
    assert.equal(run.view().next, 0);
    assert.equal(run.view().screen.name, 'cart');
    const first = await run.step();
    assert.equal(first.next, 1);
    assert.equal(first.steps[0]?.status, 'done');
    assert.equal(first.screen.name, 'cashier');
    assert.equal(first.orderStatus, 'PENDING');
  });

  test("reset closes only this run's open order: another order of the sandbox stays PENDING", async () => {
    const {ports, client} = await setUp();
    const other = await client.call({
      method: 'POST',
      target: '/v1/orders',
      body: JSON.stringify({
        merchantOrderNo: 'ORD-NOT-THE-DEMO',
        amount: {value: 1000, currency: 'USD'},
        scene: 'HOSTED_PAYPAGE',
        subject: 'Other',
        returnUrl: 'https://shop.example.com/r',
      }),
    });
    assert.equal(JSON.parse(other.response.body).code, 'SUCCESS');
    const run = new DemoRun(ports, hosted, outcome('abandon'));
    await run.runToEnd();
    const report = await resetRuns([run]);
    assert.deepEqual(report, {cancelled: [run.merchantOrderNo], restored: [], problems: []});
    const status = async (no: string) =>
      (JSON.parse((await client.call({method: 'GET', target: `/v1/orders/${no}`, body: ''})).response.body) as {data: {status: string}})
        .data.status;
    assert.equal(await status(run.merchantOrderNo), 'CLOSED');
    assert.equal(await status('ORD-NOT-THE-DEMO'), 'PENDING');
  });

  test('Deliver again: Redeliver event is a signed call, and the same notificationId arrives again, verified and marked', async () => {
    const {ports} = await setUp();
    const run = new DemoRun(ports, hosted, outcome('approve'));
    const paid = await run.runToEnd();
    const first = paid.events.find((event) => event.kind === 'notification');
    assert.ok(first?.kind === 'notification' && !first.again);
    const view = await run.redeliver(first.checked.notificationId);
    const call = [...view.events].reverse().find((event) => event.kind === 'call');
    assert.ok(call?.kind === 'call');
    assert.equal(`${call.operationId} ${call.code} ${call.call.verification.outcome}`, 'redeliverEvent SUCCESS verified');
    const again = view.events.at(-1);
    assert.ok(again?.kind === 'notification', JSON.stringify(again));
    assert.equal(again.checked.notificationId, first.checked.notificationId);
    assert.equal(again.again, true);
    assert.ok(allVerify(view));
    const unknown = await run.redeliver('ntf_00000000000000000000');
    assert.ok(unknown.events.some((event) => event.kind === 'refused' && event.text.startsWith('EVENT_NOT_FOUND')));
  });

  test("the replay query restores flow, outcome and amount, and ignores another flow's or a malformed one", () => {
    const decline = outcome('decline-58');
    const query = replayQuery({flow: 'iframe', outcome: decline, amount: 4258});
    assert.deepEqual(readReplayQuery(query, 'iframe', outcomes), {outcome: decline, amount: 4258});
    assert.deepEqual(readReplayQuery(query, 'hosted', outcomes), {});
    assert.deepEqual(readReplayQuery('?demo=iframe&outcome=nope&amount=12x', 'iframe', outcomes), {});
  });
});

describe('handing a notification to the signature debugger', () => {
  test('the fragment round-trips any text, and anything else in the fragment hands nothing over', () => {
    const raw = 'POST /payments/notify HTTP/1.1\nX-Nonce: n\n\n{"subject":"Zelt für zwei ✓"}';
    const fragment = handoverFragment('notification', raw);
    assert.match(fragment, /^#notification=[A-Za-z0-9_-]+$/);
    assert.deepEqual(handedMessage(fragment), {kind: 'notification', text: raw});
    assert.equal(handedMessage('#behind-each-screen'), undefined);
    assert.equal(handedMessage('#notification=%%%'), undefined);
    assert.equal(handedMessage('#notification=_w'), undefined, 'bytes that are not UTF-8');
  });
});
