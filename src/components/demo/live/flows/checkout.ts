/**
 * The parts every checkout flow shares: the outcomes the sandbox data defines by amount ending, Create order,
 * Retrieve order detail, the sandbox clock steps of slow, lost and expired payments, and the refund after
 * success. A flow module composes these with its own screens.
 */
import type {PaymentEndingRule, SandboxData} from '@site/src/sandbox/engine/rules/types';
import {formatUsd, orderOf, type ClockMove, type FlowRun, type OrderLike, type Outcome} from '../flow';
import type {Screen} from '../screen';

export const shopOrigin = 'https://shop.example.com';
export const notifyUrl = `${shopOrigin}/payments/notify`;

/**
 * The outcomes of the amount endings (success, each decline, the rejection at creation, the slow and lost
 * payments, expiry), then abandon and refund; `payer` names the test value that pays ("with the card ...").
 */
export function endingOutcomes(data: SandboxData, payer: string, abandon: {label: string; testValue: string}): Outcome[] {
  const outcomes: Outcome[] = [];
  const endingText = (rule: PaymentEndingRule) => `amount ending ${rule.ending}${payer ? ` ${payer}` : ''}`;
  const rules = data.payments.endings.rules;
  const success = rules.find((rule) => rule.kind === 'SUCCEEDED' && rule.at === 'ATTEMPT');
  if (!success) return outcomes;
  outcomes.push({
    id: 'approve',
    label: 'Approved',
    testValue: endingText(success),
    ending: success.ending,
    kind: 'success',
    summary: success.summary,
  });
  for (const rule of rules) {
    const base = {ending: rule.ending, summary: rule.summary, testValue: endingText(rule)};
    if (rule.kind === 'DECLINED' && rule.at === 'ATTEMPT' && rule.failureCode)
      outcomes.push({
        ...base,
        id: `decline-${rule.ending}`,
        label: `Declined: ${rule.failureCode}`,
        kind: 'decline',
        failureCode: rule.failureCode,
      });
    else if (rule.kind === 'REJECTED' && rule.at === 'CREATE_ORDER' && rule.resultCode)
      outcomes.push({
        ...base,
        id: `rejected-${rule.ending}`,
        label: `Rejected at Create order: ${rule.resultCode}`,
        kind: 'rejected',
        resultCode: rule.resultCode,
      });
    else if (rule.kind === 'DELAYED' && rule.at === 'ATTEMPT' && rule.processingSeconds)
      outcomes.push({
        ...base,
        id: `slow-${rule.ending}`,
        label: `Approved after ${rule.processingSeconds} s PROCESSING`,
        kind: 'slow',
        processingSeconds: rule.processingSeconds,
      });
    else if (rule.kind === 'FAILED' && rule.at === 'ATTEMPT' && rule.processingSeconds && rule.failureCode)
      outcomes.push({
        ...base,
        id: `timeout-${rule.ending}`,
        label: `Fails after ${rule.processingSeconds} s: ${rule.failureCode}`,
        kind: 'timeout',
        failureCode: rule.failureCode,
        processingSeconds: rule.processingSeconds,
      });
    else if (rule.kind === 'UNANSWERED' && rule.payer)
      outcomes.push({
        ...base,
        id: 'expiry',
        label: 'No answer, closes at expiry',
        kind: 'expiry',
        summary: rule.payer.description.replaceAll('`', ''),
      });
  }
  outcomes.push({
    id: 'abandon',
    label: abandon.label,
    testValue: abandon.testValue,
    ending: success.ending,
    kind: 'abandon',
    summary: 'The order stays PENDING until it is paid or expires.',
  });
  const refund = data.refunds.endings.rules.find((rule) => rule.kind === 'SUCCEEDED');
  outcomes.push({
    id: 'refund',
    label: 'Approved, then refunded',
    testValue: `${endingText(success)}; a refund amount ending ${refund?.ending ?? '00'}`,
    ending: success.ending,
    kind: 'refund',
    summary: `The payment succeeds, then Refund order returns it. ${refund?.summary ?? ''}`.trim(),
  });
  return outcomes;
}

/** The merchant's page on which the payment starts. */
export type StartPage = Pick<Screen, 'device' | 'title' | 'address'>;

/** A screen for a Create order that did not succeed: there is nothing for the customer to pay. */
export function failedStartScreen(page: StartPage, code: string, message: string): Screen {
  return {
    name: 'failed-start',
    ...page,
    blocks: [
      {
        kind: 'status',
        tone: 'error',
        title: 'The payment could not start',
        text: `Your server got ${code} from Create order, so there is nothing to pay: "${message}" Tell the customer the payment could not start.`,
      },
    ],
  };
}

/**
 * Create order for the run's current order number with the flow's scene members; on success the run adopts
 * the order and the answer's order is returned, otherwise the customer sees why and nothing is returned.
 */
export async function createOrder(
  run: FlowRun,
  scene: Readonly<Record<string, unknown>>,
  subject: string,
  page: StartPage,
  merchantOrderNo = run.currentOrderNo,
): Promise<OrderLike | undefined> {
  run.switchTo(merchantOrderNo);
  const body = {merchantOrderNo, amount: {value: run.amount, currency: 'USD'}, subject, notifyUrl, ...scene};
  const json = await run.call('createOrder', 'Create order', 'POST', '/v1/orders', body);
  if (json.code !== 'SUCCESS') {
    run.show(failedStartScreen(page, json.code, json.message));
    return undefined;
  }
  const order = orderOf(json.data);
  run.adopt(merchantOrderNo, order.status, order.expiresAt);
  // The answer carries what the customer's side needs next (cashier URL, QR content, deep link) beside the order.
  const nextAction = (json.data as {nextAction?: Readonly<Record<string, unknown>>} | undefined)?.nextAction;
  return {...order, ...(nextAction ? {nextAction} : {})};
}

/** Retrieve order detail for the current order, as the return page or the waiting screen asks your server. */
export async function retrieve(run: FlowRun): Promise<OrderLike> {
  const json = await run.call(
    'retrieveOrderDetail',
    'Retrieve order detail',
    'GET',
    `/v1/orders/${encodeURIComponent(run.currentOrderNo)}`,
  );
  if (json.code !== 'SUCCESS') throw new Error(`Retrieve order detail answered ${json.code}: ${json.message}`);
  const order = orderOf(json.data);
  run.setOrderStatus(order.status);
  return order;
}

/** A step that runs only once the run has an order (a rejected Create order leaves nothing to do). */
export const withOrder = (run: FlowRun, body: () => Promise<void>) => async () => {
  if (run.orders.length > 0) await body();
};

/** What the customer's screen shows when a slow or lost payment settles and when the order expires. */
export interface SettleScreens {
  paid(): Screen;
  failed(failureCode: string): Screen;
  expired(): Screen;
  /** The frame's postMessage or the wallet callback, where the flow has one. */
  onSettled?(result: 'paid' | 'failed' | 'expired'): void;
}

/** The sandbox clock steps: a payment PROCESSING for its seconds, or the order waiting to its expiry time. */
export function addClockSteps(run: FlowRun, screens: SettleScreens): void {
  const {outcome} = run;
  if (outcome.kind === 'slow' || outcome.kind === 'timeout') {
    const seconds = outcome.processingSeconds ?? 0;
    run.add(
      `The sandbox clock moves ${seconds} seconds: the payment ${outcome.kind === 'slow' ? 'succeeds' : 'fails'}`,
      'sandbox',
      withOrder(run, async () => {
        await run.advance(seconds, `The sandbox clock moves ${seconds} s, as long as the payment is PROCESSING.`);
        screens.onSettled?.(outcome.kind === 'slow' ? 'paid' : 'failed');
        run.show(outcome.kind === 'slow' ? screens.paid() : screens.failed(outcome.failureCode ?? 'Failed'));
      }),
      {movesClock: () => seconds},
    );
  }
  if (outcome.kind === 'expiry') {
    run.add(
      'The sandbox clock moves to the order’s expiry time',
      'sandbox',
      withOrder(run, async () => {
        await advanceToExpiry(run);
        screens.onSettled?.('expired');
        run.show(screens.expired());
      }),
      {movesClock: toExpiry(run)},
    );
  }
}

/** The seconds from the sandbox time to the current order's expiresAt, as the step moving there announces it. */
export const toExpiry =
  (run: FlowRun): ClockMove =>
  (now) =>
    run.orderExpiresAt === undefined || now === undefined ? undefined : secondsUntil(run.orderExpiresAt, now);

const secondsUntil = (at: string, now: number) => Math.max(1, Math.ceil((Date.parse(at) - now) / 1000));

/** Moves the sandbox clock to the current order's expiresAt, read from the sandbox. */
export async function advanceToExpiry(run: FlowRun): Promise<void> {
  const detail = await run.ports.client.call({method: 'GET', target: `/v1/orders/${encodeURIComponent(run.currentOrderNo)}`, body: ''});
  const expiresAt = orderOf((JSON.parse(detail.response.body) as {data?: unknown}).data).expiresAt;
  const now = await run.ports.target.clock.now();
  const seconds = expiresAt ? secondsUntil(expiresAt, now) : 1;
  await run.advance(
    seconds,
    `The sandbox clock moves ${seconds} s to the order's expiresAt (${expiresAt ?? 'unknown'}). Only the sandbox clock moves, not yours.`,
  );
}

/** Refund order for the whole amount, the refund's processing time on the sandbox clock, Query a refund and the order again. */
export function addRefundStep(run: FlowRun, done: () => Screen): void {
  if (run.outcome.kind !== 'refund') return;
  const refundSeconds = run.ports.data.refunds.endings.rules.find((rule) => rule.kind === 'SUCCEEDED')?.processingSeconds ?? 0;
  run.add(
    refundSeconds > 0
      ? `Your server refunds the order; the sandbox clock moves ${refundSeconds} s while the refund is PROCESSING`
      : 'Your server refunds the order',
    'server',
    withOrder(run, async () => {
      const refundNo = `RFD-DEMO-${run.suffix}`;
      const json = await run.call('refundOrder', 'Refund order', 'POST', `/v1/orders/${encodeURIComponent(run.currentOrderNo)}/refunds`, {
        merchantRefundNo: refundNo,
        amount: {value: run.amount, currency: 'USD'},
        reason: 'Returned by the customer',
        notifyUrl,
      });
      if (json.code !== 'SUCCESS') throw new Error(`Refund order answered ${json.code}: ${json.message}`);
      const data = json.data as {status?: string; refund?: {status?: string}} | undefined;
      run.setRefundStatus(data?.refund?.status ?? data?.status);
      if (refundSeconds > 0) await run.advance(refundSeconds, `The sandbox clock moves ${refundSeconds} s while the refund is PROCESSING.`);
      const refund = await run.call('queryRefund', 'Query a refund', 'GET', `/v1/refunds/${encodeURIComponent(refundNo)}`);
      run.setRefundStatus((refund.data as {status?: string} | undefined)?.status);
      await retrieve(run);
      run.show(done());
    }),
    {movesClock: () => (refundSeconds > 0 ? refundSeconds : undefined)},
  );
}

/** The merchant's page after the result, from the status your server read. */
export function orderPageScreen(run: FlowRun, status: string, device: Screen['device'], address: string, action?: string): Screen {
  const base = {name: 'return', device, title: 'Juniper Outdoor: your order', address, ...(action ? {action} : {})};
  if (status === 'PAID')
    return {
      ...base,
      blocks: [
        {
          kind: 'status',
          tone: 'success',
          title: 'Thank you, your order is confirmed',
          text: `Order ${run.currentOrderNo}: ${formatUsd(run.amount)} paid.`,
        },
      ],
    };
  if (status === 'CLOSED')
    return {
      ...base,
      blocks: [
        {kind: 'status', tone: 'warning', title: 'This order has expired', text: 'Nothing was charged. Start a new checkout to try again.'},
      ],
    };
  return {
    ...base,
    blocks: [
      {
        kind: 'status',
        tone: 'info',
        title: 'Your order is not paid yet',
        text: `Order ${run.currentOrderNo} is ${status}. Pay now, or come back later.`,
      },
    ],
  };
}

/** The page after a refund. */
export const refundedScreen = (run: FlowRun, device: Screen['device'], method: string): Screen => ({
  name: 'return',
  device,
  title: 'Juniper Outdoor: your order',
  address: `shop.example.com/orders/${run.currentOrderNo}`,
  blocks: [{kind: 'status', tone: 'success', title: 'Your refund is on its way', text: `${formatUsd(run.amount)} goes back to ${method}.`}],
});
