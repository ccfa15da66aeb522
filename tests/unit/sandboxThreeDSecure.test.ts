/**
 * 3-D Secure in the sandbox (cards.threeDSecure of api/sandbox.yaml): the rules for each enrolled test card,
 * and the engine carrying them out through the shopper's actions. The cards are found in the data by what
 * they do, so a renumbered card keeps the tests meaningful.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {fixedClock} from '../../src/sandbox/engine/clock';
import {challengeRefusal, threeDSecureStep} from '../../src/sandbox/engine/rules/rules';
import type {PaymentCard} from '../../src/sandbox/engine/rules/types';
import {runAction, sandboxAction} from '../../src/sandbox/actions';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {engineClient, type CallResult} from '../support/sandboxClient';

const data = sandboxFiles().spec.sandbox;
const start = Date.parse('2026-11-25T10:00:00Z');

function cardWith(flow: 'CHALLENGE' | 'FRICTIONLESS', result?: 'PASSED' | 'FAILED'): PaymentCard {
  const card = data.cards.cards.find(
    (candidate) =>
      candidate.behavior === 'ENDINGS' &&
      candidate.threeDSecure?.flow === flow &&
      (result === undefined || (candidate.threeDSecure.flow === 'CHALLENGE' && candidate.threeDSecure.result === result)),
  );
  assert.ok(card, `the sandbox data needs a ${flow} ${result ?? ''} 3-D Secure card that follows the endings`);
  return card;
}

const passing = cardWith('CHALLENGE', 'PASSED');
const failing = cardWith('CHALLENGE', 'FAILED');
const frictionless = cardWith('FRICTIONLESS');
const notEnrolled = data.cards.cards.find((card) => card.behavior === 'ENDINGS' && !card.threeDSecure);

describe('3-D Secure rules', () => {
  test('each card takes its own step: a challenge, a frictionless check, or none', () => {
    assert.equal(threeDSecureStep(passing), 'CHALLENGE');
    assert.equal(threeDSecureStep(failing), 'CHALLENGE');
    assert.equal(threeDSecureStep(frictionless), 'FRICTIONLESS');
    assert.equal(threeDSecureStep(notEnrolled), 'NONE');
    assert.equal(threeDSecureStep(undefined), 'NONE');
  });

  test('the answer: a passed challenge goes on, a failed one declines with the data failure code, a cancelled one too', () => {
    assert.equal(challengeRefusal(data, passing, 'SUBMIT'), undefined);
    const failed = challengeRefusal(data, failing, 'SUBMIT');
    assert.deepEqual(
      [failed?.kind, failed?.failureCode, failed?.finalOrderStatus],
      ['DECLINED', data.cards.threeDSecure.failed.failureCode, 'PENDING'],
    );
    for (const card of [passing, failing]) {
      const cancelled = challengeRefusal(data, card, 'CANCEL');
      assert.equal(cancelled?.failureCode, data.cards.threeDSecure.cancelled.failureCode);
    }
  });

  test('the failure code is one the contract declares for a payment attempt', () => {
    assert.ok(data.cards.threeDSecure.failed.failureCode);
    const contract = sandboxFiles().spec;
    assert.match(JSON.stringify(contract), new RegExp(String(data.cards.threeDSecure.failed.failureCode)));
  });
});

describe('3-D Secure in the engine', () => {
  async function setUp() {
    const delivered: string[] = [];
    const engine = await createNodeEngine({
      clock: fixedClock(start),
      transport: {
        deliver: async (delivery) => {
          delivered.push((JSON.parse(delivery.body) as {eventType: string}).eventType);
          return {status: 200, body: '{"code":"SUCCESS"}'};
        },
      },
    });
    const client = engineClient(engine);
    let counter = 0;
    const order = async (value: number) => {
      const no = `ORD-3DS-${(counter += 1)}`;
      const created = await client.call('POST', '/v1/orders', {
        merchantOrderNo: no,
        amount: {value, currency: 'USD'},
        scene: 'HOSTED_PAYPAGE',
        subject: '3-D Secure test',
        returnUrl: 'https://shop.example.com/return',
        notifyUrl: 'https://shop.example.com/payments/notify',
      });
      assert.equal(created.json.code, 'SUCCESS', created.body);
      return no;
    };
    const read = async (no: string) => {
      const result: CallResult = await client.call('GET', `/v1/orders/${no}`);
      assert.deepEqual(result.problems, []);
      return result.json.data as {status: string; lastAttempt?: {status: string; failureCode?: string; paymentMethod: string}};
    };
    const events = async () => {
      await engine.runDue();
      await engine.settle();
      return [...delivered];
    };
    return {engine, client, order, read, events};
  }

  test('a challenge card stops at the challenge: PENDING, no attempt, no notification; SUBMIT then pays it', async () => {
    const {engine, client, order, read, events} = await setUp();
    const no = await order(1000);
    const paying = await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: passing.number});
    assert.ok(paying.ok, JSON.stringify(paying));
    const waiting = await read(no);
    assert.equal(waiting.status, 'PENDING');
    assert.equal(waiting.lastAttempt, undefined);
    assert.deepEqual(await events(), []);
    const answered = await engine.shopper.answerChallenge(client.clientId, no, 'SUBMIT');
    assert.ok(answered.ok, JSON.stringify(answered));
    assert.deepEqual([(await read(no)).status, (await read(no)).lastAttempt?.paymentMethod], ['PAID', 'CARD']);
    assert.deepEqual(await events(), ['ORDER.PAID']);
  });

  test('after a passed challenge the amount ending still decides (51 declines for insufficient funds)', async () => {
    const {engine, client, order, read} = await setUp();
    const no = await order(1051);
    await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: passing.number});
    await engine.shopper.answerChallenge(client.clientId, no, 'SUBMIT');
    const after = await read(no);
    assert.deepEqual([after.status, after.lastAttempt?.failureCode], ['PENDING', 'INSUFFICIENT_FUNDS']);
  });

  test('a failing challenge declines with the data failure code; the order stays payable', async () => {
    const {engine, client, order, read, events} = await setUp();
    const no = await order(1000);
    await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: failing.number});
    await engine.shopper.answerChallenge(client.clientId, no, 'SUBMIT');
    const after = await read(no);
    assert.deepEqual(
      [after.status, after.lastAttempt?.status, after.lastAttempt?.failureCode],
      ['PENDING', 'FAILED', data.cards.threeDSecure.failed.failureCode],
    );
    assert.deepEqual(await events(), ['ORDER.PAYMENT_FAILED']);
    const again = await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: frictionless.number});
    assert.ok(again.ok);
    assert.equal((await read(no)).status, 'PAID', 'a frictionless card pays at once');
  });

  test('a cancelled challenge declines as the payer refusing', async () => {
    const {engine, client, order, read} = await setUp();
    const no = await order(1000);
    await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: passing.number});
    await engine.shopper.answerChallenge(client.clientId, no, 'CANCEL');
    assert.equal((await read(no)).lastAttempt?.failureCode, data.cards.threeDSecure.cancelled.failureCode);
  });

  test('an answer with no challenge waiting, or on an order closed meanwhile, is refused with a clear error', async () => {
    const {engine, client, order} = await setUp();
    const no = await order(1000);
    const none = await engine.shopper.answerChallenge(client.clientId, no, 'SUBMIT');
    assert.deepEqual(none.ok ? 'ok' : [none.code, /no 3-D Secure challenge waiting/.test(none.message)], ['INVALID_PARAMETER', true]);
    await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: passing.number});
    await engine.advance(1800);
    const late = await engine.shopper.answerChallenge(client.clientId, no, 'SUBMIT');
    assert.equal(late.ok ? 'ok' : late.code, 'ORDER_CLOSED');
    const twice = await engine.shopper.answerChallenge(client.clientId, no, 'SUBMIT');
    assert.equal(twice.ok ? 'ok' : twice.code, 'ORDER_CLOSED', 'a refused answer changes nothing: the same answer is refused the same way');
  });

  test('the declared action shopper.challenge runs it and refuses an unknown answer', async () => {
    const {engine, client, order, read} = await setUp();
    const no = await order(1000);
    await engine.shopper.pay(client.clientId, no, {method: 'CARD', cardNumber: passing.number});
    const action = sandboxAction('shopper.challenge');
    const bad = await runAction(engine, action, {clientId: client.clientId, merchantOrderNo: no, answer: 'MAYBE'});
    assert.deepEqual(bad.ok ? 'ok' : [bad.code, bad.message], ['INVALID_PARAMETER', 'answer must be one of SUBMIT, CANCEL.']);
    const good = await runAction(engine, action, {clientId: client.clientId, merchantOrderNo: no, answer: 'SUBMIT'});
    assert.ok(good.ok, JSON.stringify(good));
    assert.equal((await read(no)).status, 'PAID');
  });
});
