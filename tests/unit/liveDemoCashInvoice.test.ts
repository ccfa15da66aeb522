/**
 * The live demos' cash top-up and B2B invoice flows (src/components/demo/live/flows/cash.ts, invoice.ts) over
 * the runner and a Node engine: cash is confirmed after the CASH method's seconds on the sandbox clock, short
 * cash is not recorded, a visit after the expiry time is refused with ORDER_CLOSED, the confirmation can fail
 * back to PENDING; an invoice's transfers each raise a VAM.TOP_UP that verifies, partial, exact and
 * over-payment read as such, today's statement is refused as not ready and Get balance shows the credit.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {FlowDefinition, Outcome} from '../../src/components/demo/live/flow';
import {flows} from '../../src/components/demo/live/flows';
import {cash, cashMethod} from '../../src/components/demo/live/flows/cash';
import {invoice, transfersFor} from '../../src/components/demo/live/flows/invoice';
import {DemoRun, type RunView} from '../../src/components/demo/live/runner';
import {allVerify, demoSetUp, eventTypes, sandboxData} from '../support/liveDemo';

function outcomeOf(flow: FlowDefinition, id: string): Outcome {
  const found = flow.outcomes(sandboxData).find((candidate) => candidate.id === id);
  assert.ok(
    found,
    `${flow.id} offers ${id}: ${flow
      .outcomes(sandboxData)
      .map((candidate) => candidate.id)
      .join()}`,
  );
  return found;
}
const texts = (view: RunView) => view.events.flatMap((event) => ('text' in event ? [event.text] : []));
const calls = (view: RunView) => view.events.flatMap((event) => (event.kind === 'call' ? [event] : []));

describe('live demo: cash top-up', () => {
  test('is registered; its outcomes come from the endings and the CASH method of the sandbox data', () => {
    assert.equal(flows.cash, cash);
    const ids = cash.outcomes(sandboxData).map((outcome) => outcome.id);
    assert.deepEqual(ids, ['approve', 'no-decline-51', 'partial', 'rejected-59', 'expiry', 'timeout-95', 'late', 'refund']);
    assert.equal(cashMethod(sandboxData).declines, false);
    assert.equal(outcomeOf(cash, 'timeout-95').processingSeconds, cashMethod(sandboxData).processingSeconds);
  });

  test('voucher, till, PROCESSING for the cash seconds, then PAID; ORDER.PAID verifies and the SMS carries the reference', async () => {
    const {ports, client} = await demoSetUp();
    const run = new DemoRun(ports, cash, outcomeOf(cash, 'approve'));
    await run.step();
    const voucher = run.view();
    assert.equal(voucher.screen.name, 'voucher');
    const reference = voucher.screen.blocks.find((block) => block.kind === 'value' && block.label === 'Payment reference');
    assert.ok(reference?.kind === 'value' && /^\d{12}$/.test(reference.value));
    const sms = voucher.events.find((event) => event.kind === 'message');
    assert.ok(sms?.kind === 'message' && String(sms.data['text']).includes(reference.value));
    await run.step();
    assert.equal(run.view().screen.name, 'till');
    await run.step();
    assert.equal(run.view().orderStatus, 'PROCESSING');
    const view = await run.runToEnd();
    assert.equal(view.error, undefined);
    assert.equal(view.orderStatus, 'PAID');
    assert.ok(view.events.some((event) => event.kind === 'clock' && event.seconds === cashMethod(sandboxData).processingSeconds));
    assert.deepEqual(eventTypes(view), ['ORDER.PAID']);
    assert.ok(allVerify(view));
    const detail = await client.call({method: 'GET', target: `/v1/orders/${view.merchantOrderNo}`, body: ''});
    assert.match(detail.response.body, /"paymentMethod":"CASH"/);
  });

  test('ending 51 is not declined for cash; short cash is refused without a call, then the full amount pays', async () => {
    const {ports} = await demoSetUp();
    const noDecline = await new DemoRun(ports, cash, outcomeOf(cash, 'no-decline-51')).runToEnd();
    assert.equal(noDecline.amount % 100, 51);
    assert.equal(noDecline.orderStatus, 'PAID');
    const partial = await new DemoRun(ports, cash, outcomeOf(cash, 'partial')).runToEnd();
    assert.equal(partial.error, undefined);
    assert.ok(
      partial.events.some(
        (event) => event.kind === 'shopper' && /^The till refuses: 20\.00 USD is less than the 25\.00 USD/.test(event.text),
      ),
    );
    assert.equal(partial.orderStatus, 'PAID');
    assert.deepEqual(eventTypes(partial), ['ORDER.PAID']);
  });

  test('paid after the deadline: ORDER.CLOSED at expiresAt, then the till is refused with ORDER_CLOSED', async () => {
    const {ports} = await demoSetUp();
    const view = await new DemoRun(ports, cash, outcomeOf(cash, 'late')).runToEnd();
    assert.equal(view.error, undefined);
    assert.equal(view.orderStatus, 'CLOSED');
    assert.ok(
      texts(view).some((text) => text.startsWith('ORDER_CLOSED')),
      texts(view).join('\n'),
    );
    assert.deepEqual(eventTypes(view), ['ORDER.CLOSED']);
    assert.ok(allVerify(view));
  });

  test('paid at the store, then refunded: REFUND.SUCCEEDED verifies after ORDER.PAID', async () => {
    const {ports} = await demoSetUp();
    const view = await new DemoRun(ports, cash, outcomeOf(cash, 'refund')).runToEnd();
    assert.equal(view.error, undefined);
    assert.equal(view.refundStatus, 'SUCCEEDED');
    assert.deepEqual(eventTypes(view), ['ORDER.PAID', 'REFUND.SUCCEEDED']);
    assert.ok(allVerify(view));
  });

  test('ending 95 fails after the cash seconds back to PENDING; 59 issues no reference', async () => {
    const {ports} = await demoSetUp();
    const failed = await new DemoRun(ports, cash, outcomeOf(cash, 'timeout-95')).runToEnd();
    assert.equal(failed.orderStatus, 'PENDING');
    assert.deepEqual(eventTypes(failed), ['ORDER.PAYMENT_FAILED']);
    const rejected = await new DemoRun(ports, cash, outcomeOf(cash, 'rejected-59')).runToEnd();
    assert.equal(rejected.orders.length, 0);
    assert.equal(rejected.screen.name, 'failed-start');
  });
});

describe('live demo: B2B invoice by bank transfer into the virtual account', () => {
  test('is registered; partial, exact and over-payment send what they say', () => {
    assert.equal(flows.invoice, invoice);
    assert.deepEqual(transfersFor(outcomeOf(invoice, 'exact'), 120_000), [120_000]);
    assert.deepEqual(transfersFor(outcomeOf(invoice, 'partial'), 120_000), [60_000]);
    assert.deepEqual(transfersFor(outcomeOf(invoice, 'partial-then-rest'), 120_001), [60_000, 60_001]);
    assert.deepEqual(transfersFor(outcomeOf(invoice, 'overpayment'), 120_000), [125_000]);
  });

  test('exact: VAM.TOP_UP verifies, the invoice is paid, the statement is refused as not ready, Get balance shows the credit', async () => {
    const {ports} = await demoSetUp();
    const view = await new DemoRun(ports, invoice, outcomeOf(invoice, 'exact')).runToEnd();
    assert.equal(view.error, undefined);
    assert.deepEqual(eventTypes(view), ['VAM.TOP_UP']);
    assert.ok(allVerify(view));
    const codes = calls(view).map((event) => `${event.operationId}:${event.code}`);
    assert.deepEqual(codes, ['getBalance:SUCCESS', 'downloadStatement:STATEMENT_NOT_READY', 'getBalance:SUCCESS']);
    assert.ok(
      texts(view).some((text) => text.includes('rose by 1200.00 GBP')),
      texts(view).join('\n'),
    );
    assert.equal(view.screen.name, 'statement');
    assert.ok(
      view.screen.blocks.some(
        (block) => block.kind === 'status' && block.title === `Invoice INV-DEMO-${view.merchantOrderNo.slice(-5)} is paid`,
      ),
    );
  });

  test('partial leaves the invoice open; partial then the rest sends two VAM.TOP_UP; over-payment is paid with a credit', async () => {
    const {ports} = await demoSetUp();
    const partial = await new DemoRun(ports, invoice, outcomeOf(invoice, 'partial')).runToEnd();
    assert.ok(partial.screen.blocks.some((block) => block.kind === 'status' && block.title === 'Part-paid: 600.00 GBP still due'));
    const twice = await new DemoRun(ports, invoice, outcomeOf(invoice, 'partial-then-rest')).runToEnd();
    assert.deepEqual(eventTypes(twice), ['VAM.TOP_UP', 'VAM.TOP_UP']);
    assert.ok(allVerify(twice));
    assert.ok(twice.screen.blocks.some((block) => block.kind === 'status' && /is paid/.test(block.title)));
    const over = await new DemoRun(ports, invoice, outcomeOf(invoice, 'overpayment')).runToEnd();
    assert.ok(over.screen.blocks.some((block) => block.kind === 'status' && /50\.00 GBP over the invoice/.test(block.text)));
  });
});
