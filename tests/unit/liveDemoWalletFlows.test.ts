/**
 * The live demos' wallet flows (src/components/demo/live/flows/: dynqr, smart-code, ewallet, jsapi) over
 * the runner and a Node engine: each plays to PAID with ORDER.PAID verifying, declines as its test wallet or
 * amount ending says, a dynamic QR code scanned after qrExpiresAt is refused, JSAPI pays for the user ID
 * your server got from the auth code exchange, and a smart code's typed amount picks the outcome.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {FlowDefinition, Outcome} from '../../src/components/demo/live/flow';
import {flows} from '../../src/components/demo/live/flows';
import {dynqr} from '../../src/components/demo/live/flows/dynqr';
import {ewallet} from '../../src/components/demo/live/flows/ewallet';
import {ewalletDesktop} from '../../src/components/demo/live/flows/ewalletDesktop';
import {jsapi} from '../../src/components/demo/live/flows/jsapi';
import {signAddress, smartCode} from '../../src/components/demo/live/flows/smartCode';
import {DemoRun, type RunView} from '../../src/components/demo/live/runner';
import type {Block} from '../../src/components/demo/live/screen';
import {allVerify, demoSetUp, eventTypes, sandboxData} from '../support/liveDemo';

const walletFlows = [dynqr, smartCode, ewallet, ewalletDesktop, jsapi];

function outcomeOf(flow: FlowDefinition, id: string): Outcome {
  const found = flow.outcomes(sandboxData).find((candidate) => candidate.id === id);
  assert.ok(found, `${flow.id} offers ${id}`);
  return found;
}

const calls = (view: RunView) => view.events.flatMap((event) => (event.kind === 'call' ? [event] : []));
const qrBlocks = (blocks: readonly Block[]) => blocks.flatMap((block) => (block.kind === 'qr' ? [block] : []));

describe('live demo wallet flows are registered and offer the wallets of the sandbox data', () => {
  test('each flow is in the registry under its id; outcomes name the wallet and PIN that produce them', () => {
    for (const flow of walletFlows) assert.equal(flows[flow.id as keyof typeof flows], flow);
    const offered = ewallet.outcomes(sandboxData);
    assert.match(
      offered.find((outcome) => outcome.id === 'approve')?.testValue ?? '',
      /ending 00 with the wallet \+10000000001 \(PIN 123456\)/,
    );
    assert.match(offered.find((outcome) => outcome.id === 'wallet-low')?.testValue ?? '', /\+10000000002.*5\.00 USD/);
    assert.equal(offered.find((outcome) => outcome.id === 'wallet-frozen')?.failureCode, 'RISK_DECLINED');
    assert.ok(dynqr.outcomes(sandboxData).some((outcome) => outcome.id === 'qr-expired'));
  });
});

for (const flow of walletFlows) {
  describe(`live demo: ${flow.id}`, () => {
    test('plays to PAID, and ORDER.PAID verifies; every response verifies', async () => {
      const {ports} = await demoSetUp();
      const view = await new DemoRun(ports, flow, outcomeOf(flow, 'approve')).runToEnd();
      assert.equal(view.error, undefined);
      assert.equal(view.orderStatus, 'PAID');
      assert.ok(eventTypes(view).includes('ORDER.PAID'), eventTypes(view).join());
      assert.ok(allVerify(view));
      assert.ok(calls(view).every((event) => event.call.verification.outcome === 'verified'));
      assert.equal(view.amount, flow.baseAmount);
    });

    test('a decline by amount ending 51 leaves the order PENDING with ORDER.PAYMENT_FAILED; ending 91 closes it at expiry', async () => {
      const {ports} = await demoSetUp();
      const declined = await new DemoRun(ports, flow, outcomeOf(flow, 'decline-51')).runToEnd();
      assert.equal(declined.error, undefined);
      assert.equal(declined.amount % 100, 51);
      assert.equal(declined.orderStatus, 'PENDING');
      assert.ok(eventTypes(declined).includes('ORDER.PAYMENT_FAILED'));
      assert.ok(allVerify(declined));
      const expired = await new DemoRun(ports, flow, outcomeOf(flow, 'expiry')).runToEnd();
      assert.equal(expired.error, undefined);
      assert.equal(expired.orderStatus, 'CLOSED');
      assert.ok(eventTypes(expired).includes('ORDER.CLOSED'));
    });
  });
}

describe('live demo: dynamic QR', () => {
  test('the QR code shown encodes the order’s qrContent from Create order', async () => {
    const {ports} = await demoSetUp();
    const run = new DemoRun(ports, dynqr, outcomeOf(dynqr, 'approve'));
    const view = await run.step();
    const created = JSON.parse(calls(view)[0]?.call.response.body ?? '{}') as {data: {nextAction: {qrContent: string}}};
    const content = created.data.nextAction.qrContent;
    assert.match(content, /^https:\/\/sandbox-cashier\.example\.com\/qr\//);
    assert.deepEqual(
      qrBlocks(view.screen.blocks).map((block) => block.content),
      [content],
    );
  });

  test('a scan after qrExpiresAt is refused with ORDER_CLOSED, then Cancel order closes it and ORDER.CLOSED verifies', async () => {
    const {ports} = await demoSetUp();
    const view = await new DemoRun(ports, dynqr, outcomeOf(dynqr, 'qr-expired')).runToEnd();
    assert.equal(view.error, undefined);
    const refused = view.events.find((event) => event.kind === 'refused');
    assert.match(refused && refused.kind === 'refused' ? refused.text : '', /^ORDER_CLOSED: The QR code has expired/);
    assert.deepEqual(
      view.events.flatMap((event) => (event.kind === 'state' ? [event.to] : [])),
      ['PENDING', 'CLOSED'],
      'no payment attempt',
    );
    assert.deepEqual(eventTypes(view), ['ORDER.CLOSED']);
    assert.ok(allVerify(view));
  });
});

describe('live demo: e-wallet on a desktop', () => {
  test('Create order for WEB answers a REDIRECT; the cashier shows a real code of that cashier URL; closing it leaves PENDING', async () => {
    const {ports} = await demoSetUp();
    const view = await new DemoRun(ports, ewalletDesktop, outcomeOf(ewalletDesktop, 'approve')).step();
    const created = JSON.parse(calls(view)[0]?.call.response.body ?? '{}') as {data: {nextAction: {type: string; cashierUrl: string}}};
    assert.equal(created.data.nextAction.type, 'REDIRECT');
    assert.deepEqual(
      qrBlocks(view.screen.blocks).map((block) => block.content),
      [created.data.nextAction.cashierUrl],
    );
    assert.equal(view.screen.device, 'desktop');
    const closed = await new DemoRun(ports, ewalletDesktop, outcomeOf(ewalletDesktop, 'abandon')).runToEnd();
    assert.equal(closed.error, undefined);
    assert.equal(closed.orderStatus, 'PENDING');
  });
});

describe('live demo: the wallet user is never taken from the page', () => {
  test('JSAPI: Create order carries the payerWalletUserId that Exchange wallet auth code answered', async () => {
    const {ports} = await demoSetUp();
    const view = await new DemoRun(ports, jsapi, outcomeOf(jsapi, 'approve')).runToEnd();
    const [exchange, create] = calls(view);
    assert.equal(exchange?.operationId, 'exchangeWalletAuthCode');
    assert.equal(exchange?.code, 'SUCCESS');
    const userId = (JSON.parse(exchange?.call.response.body ?? '{}') as {data: {payerWalletUserId: string}}).data.payerWalletUserId;
    assert.equal(userId, 'wu_Sandbox001');
    assert.equal((JSON.parse(create?.call.request.body ?? '{}') as {payerWalletUserId: string}).payerWalletUserId, userId);
    assert.ok(view.events.some((event) => event.kind === 'message' && event.channel.startsWith('VeloxaWallet.requestPayment')));
  });

  test('the test wallets decide: too little balance INSUFFICIENT_FUNDS, a frozen one RISK_DECLINED; cancel on the sheet leaves PENDING', async () => {
    const {ports} = await demoSetUp();
    const low = await new DemoRun(ports, jsapi, outcomeOf(jsapi, 'wallet-low')).runToEnd();
    assert.equal(low.orderStatus, 'PENDING');
    const failed = low.events.find((event) => event.kind === 'notification');
    assert.match(failed && failed.kind === 'notification' ? failed.entry.body : '', /INSUFFICIENT_FUNDS/);
    const frozen = await new DemoRun(ports, ewallet, outcomeOf(ewallet, 'wallet-frozen')).runToEnd();
    assert.match(JSON.stringify(frozen.events.filter((event) => event.kind === 'notification')), /RISK_DECLINED/);
    const cancelled = await new DemoRun(ports, jsapi, outcomeOf(jsapi, 'abandon')).runToEnd();
    assert.equal(cancelled.orderStatus, 'PENDING');
    assert.ok(cancelled.events.some((event) => event.kind === 'message' && event.data['result'] === 'cancel'));
  });
});

describe('live demo: smart code', () => {
  test('the sign encodes the shop’s own address; the amount the customer types picks the outcome by its ending', async () => {
    const {ports} = await demoSetUp();
    const run = new DemoRun(ports, smartCode, outcomeOf(smartCode, 'approve'));
    assert.deepEqual(
      qrBlocks(run.view().screen.blocks).map((block) => block.content),
      [signAddress],
    );
    const afterScan = await run.step();
    assert.ok(afterScan.screen.blocks.some((block) => block.kind === 'amount-entry'));
    const entered = run.enterAmount(851, smartCode.outcomes(sandboxData));
    assert.equal(entered.outcome.id, 'decline-51');
    assert.equal(entered.steps[0]?.status, 'done', 'the scan stays done');
    const view = await run.runToEnd();
    assert.equal(view.error, undefined);
    assert.equal(view.amount, 851);
    assert.equal(view.orderStatus, 'PENDING');
    assert.ok(eventTypes(view).includes('ORDER.PAYMENT_FAILED'));
    assert.equal(run.enterAmount(900, smartCode.outcomes(sandboxData)).amount, 851, 'no change once the order exists');
    assert.notEqual(view.screen.name, 'staff', 'the till lists only a paid order');
    const paid = await new DemoRun(ports, smartCode, outcomeOf(smartCode, 'approve')).runToEnd();
    assert.deepEqual([paid.orderStatus, paid.screen.name, paid.screen.device], ['PAID', 'staff', 'terminal']);
  });
});
