/**
 * What a live demo leaves of the reader's sandbox (src/components/demo/live/runner.ts), on a Node engine:
 * Reset puts back every merchant setting a run changed (the invoice's default notification URL), leaves a
 * setting the reader changed since as the reader left it, and cancels the run's open orders; and every step
 * that moves the sandbox clock says by how much before it runs, exactly as far as it then moves it.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {FlowDefinition, Outcome} from '../../src/components/demo/live/flow';
import {flows} from '../../src/components/demo/live/flows';
import {notifyUrl} from '../../src/components/demo/live/flows/checkout';
import {DemoRun, formatClockMove, resetRuns} from '../../src/components/demo/live/runner';
import {demoSetUp, sandboxData} from '../support/liveDemo';

function outcomeOf(flow: FlowDefinition, id: string): Outcome {
  const found = flow.outcomes(sandboxData).find((candidate) => candidate.id === id);
  assert.ok(found, `${flow.id} offers ${id}`);
  return found;
}

async function settingsOf(ports: Awaited<ReturnType<typeof demoSetUp>>['ports']) {
  const result = await ports.target.act('control.configure', {clientId: ports.client.clientId});
  assert.ok(result.ok);
  return result.value;
}

const urlOf = (settings: unknown) => (settings as {defaultNotifyUrl?: unknown}).defaultNotifyUrl;

describe('live demo reset: the merchant settings are as the reader left them', () => {
  test('the invoice sets a default notification URL; Play + Reset leaves the settings as they were before', async () => {
    const {ports} = await demoSetUp();
    const before = await settingsOf(ports);
    assert.deepEqual(before, {defaultNotifyUrl: null, compressedRetries: false});
    const first = new DemoRun(ports, flows.invoice, outcomeOf(flows.invoice, 'exact'));
    const view = await first.runToEnd();
    assert.equal(view.error, undefined);
    const setting = view.events.find((event) => event.kind === 'setting');
    assert.ok(setting?.kind === 'setting' && setting.text.includes('Reset sets defaultNotifyUrl to null again'), JSON.stringify(setting));
    assert.equal(urlOf(await settingsOf(ports)), notifyUrl);
    // A second run finds the URL set and changes nothing; the reset still ends where the reader began.
    const second = await new DemoRun(ports, flows.invoice, outcomeOf(flows.invoice, 'partial')).runToEnd();
    assert.equal(
      second.events.some((event) => event.kind === 'setting'),
      false,
    );
    const report = await resetRuns([first, new DemoRun(ports, flows.invoice, outcomeOf(flows.invoice, 'partial'))]);
    assert.deepEqual(report.restored, ['defaultNotifyUrl back to null']);
    assert.deepEqual(report.problems, []);
    assert.deepEqual(await settingsOf(ports), before);
  });

  test('a URL the reader had is kept, and one the reader set after the demo is not undone', async () => {
    const {ports} = await demoSetUp();
    const own = 'https://shop.example.com/own/notify';
    await ports.target.act('control.configure', {clientId: ports.client.clientId, defaultNotifyUrl: own});
    const kept = new DemoRun(ports, flows.invoice, outcomeOf(flows.invoice, 'exact'));
    await kept.runToEnd();
    await resetRuns([kept]);
    assert.equal(urlOf(await settingsOf(ports)), own);

    await ports.target.act('control.configure', {clientId: ports.client.clientId, defaultNotifyUrl: null});
    const changed = new DemoRun(ports, flows.invoice, outcomeOf(flows.invoice, 'exact'));
    await changed.runToEnd();
    assert.equal(urlOf(await settingsOf(ports)), notifyUrl);
    await ports.target.act('control.configure', {clientId: ports.client.clientId, defaultNotifyUrl: own});
    const report = await resetRuns([changed]);
    assert.deepEqual(report.restored, []);
    assert.equal(urlOf(await settingsOf(ports)), own);
  });
});

describe('live demo clock: a step says how far it moves the sandbox clock before it runs', () => {
  // One run per way a flow moves the clock: processing delays, an order's expiry, a refund, a QR code's expiry,
  // cash confirmation and a late visit, a virtual account's credit time.
  const cases: [keyof typeof flows, string][] = [
    ['hosted', 'slow'],
    ['hosted', 'expiry'],
    ['hosted', 'refund'],
    ['ewallet', 'expiry'],
    ['dynqr', 'qr-expired'],
    ['cash', 'slow'],
    ['cash', 'late'],
    ['invoice', 'success'],
  ];
  // One engine for all cases: each run works on its own orders.
  const setUp = demoSetUp();
  for (const [flowId, kind] of cases) {
    test(`${flowId}, outcome kind ${kind}`, async () => {
      const {ports} = await setUp;
      const flow: FlowDefinition = flows[flowId];
      const outcome = flow.outcomes(sandboxData).find((candidate) => candidate.kind === kind);
      assert.ok(outcome, `${flowId} offers an outcome of kind ${kind}`);
      const run = new DemoRun(ports, flow, outcome);
      let moved = 0;
      while (!run.finished) {
        const before = run.view();
        const announced = before.steps[before.next]?.clockSeconds;
        const after = await run.step();
        assert.equal(after.error, undefined);
        const seconds = after.events
          .slice(before.events.length)
          .flatMap((event) => (event.kind === 'clock' ? [event.seconds] : []))
          .reduce((sum, each) => sum + each, 0);
        assert.equal(
          announced ?? 0,
          seconds,
          `step "${before.steps[before.next]?.title ?? ''}" announced ${announced} s, moved ${seconds} s`,
        );
        moved += seconds;
        // Once run, the step shows what it did move, not a fresh estimate.
        assert.equal(after.steps[before.next]?.clockSeconds ?? 0, seconds);
      }
      assert.ok(moved > 0, 'the case moves the clock');
    });
  }

  test('a move reads in seconds, minutes or hours', () => {
    assert.deepEqual([20, 119, 1800, 86_400, 5400].map(formatClockMove), ['20 s', '119 s', '30 min', '24 h', '90 min']);
  });
});
