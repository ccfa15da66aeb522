/**
 * Cash top-up: your server creates a CASH_TOP_UP order, the customer's phone shows the voucher (payment
 * reference, amount, expiry), and at a store's till the cashier types the reference and takes the cash
 * (the sandbox's Pay cash reference, shopper.payCash). Cash confirms slowly: the order is PROCESSING for the
 * CASH method's seconds on the sandbox clock. Cash has no card or wallet to decline, so the outcomes are the
 * endings that do apply to it, short cash at the till, a visit after the order's expiry time, and a refund.
 */
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import {formatUsd, orderOf, type FlowDefinition, type FlowRun, type Outcome} from '../flow';
import type {Block, Screen} from '../screen';
import {
  addRefundStep,
  advanceToExpiry,
  createOrder,
  endingOutcomes,
  orderPageScreen,
  refundedScreen,
  retrieve,
  toExpiry,
  withOrder,
} from './checkout';

const merchant = 'Juniper Outdoor';
const subject = 'Rain jacket';
/** The time to reach a store the shop gives (24 hours, as the demo page says). */
const expiresInSeconds = 86_400;
/** What a short payment hands over: the due amount less this, in minor units. */
const shortBy = 500;
const checkout = {device: 'phone', title: `${merchant}: checkout`, address: 'shop.example.com/checkout'} as const;
const orderPage = (run: FlowRun) => `shop.example.com/orders/${run.currentOrderNo}`;

/** The cash method of the sandbox data: how long a cash payment stays PROCESSING, and whether endings decline it. */
export function cashMethod(data: SandboxData): {processingSeconds: number; declines: boolean} {
  const method = data.payments.methods.find((candidate) => candidate.method === 'CASH');
  return {processingSeconds: method?.processingSeconds ?? 0, declines: method?.declines ?? true};
}

/**
 * The outcomes of a cash payment: the amount endings' outcomes (checkout.ts) as they apply to the CASH method
 * (its own processing time, no declines), short cash at the till and a visit after the expiry time.
 */
export function cashOutcomes(data: SandboxData): Outcome[] {
  const cash = cashMethod(data);
  const seconds = cash.processingSeconds;
  const confirm = `The store records the cash; the order is PROCESSING for ${seconds} s (the CASH method's delay), then PAID.`;
  const byEnding = endingOutcomes(data, 'with the reference entered at the till', {label: '', testValue: ''});
  const approve = byEnding.find((outcome) => outcome.kind === 'success');
  if (!approve) return [];
  const outcomes: Outcome[] = [{...approve, label: 'Paid at the store', kind: 'slow', processingSeconds: seconds, summary: confirm}];
  const decline = byEnding.find((outcome) => outcome.kind === 'decline');
  if (decline && !cash.declines) {
    outcomes.push({
      testValue: decline.testValue,
      ending: decline.ending,
      id: `no-decline-${decline.ending}`,
      label: `Ending ${decline.ending}: not declined (cash has nothing to decline)`,
      kind: 'slow',
      processingSeconds: seconds,
      summary: `The declining endings do not apply to cash, so ${decline.ending} is confirmed like ${approve.ending}. ${confirm}`,
    });
  }
  outcomes.push({
    ...approve,
    id: 'partial',
    label: 'Short cash at the till: refused, then paid in full',
    testValue: `${approve.testValue}; the customer first hands over ${formatUsd(shortBy)} less`,
    kind: 'partial',
    summary:
      'The sandbox has no partial cash payment: Pay cash reference records the whole amount of the reference, so the till takes the exact amount or nothing.',
  });
  for (const outcome of byEnding) {
    if (outcome.kind === 'rejected') outcomes.push({...outcome, summary: `${outcome.summary} No payment reference is issued.`});
    else if (outcome.kind === 'timeout')
      outcomes.push({
        ...outcome,
        label: `Confirmation fails after ${seconds} s: ${outcome.failureCode ?? ''}`,
        processingSeconds: seconds,
        summary: `The store took the cash, but after ${seconds} s PROCESSING the confirmation fails: the order returns to PENDING and the same reference can be paid again.`,
      });
    else if (outcome.kind === 'expiry') outcomes.push(outcome);
  }
  outcomes.push({
    ...approve,
    id: 'late',
    label: 'Paid after the deadline: refused',
    testValue: `any amount, reference entered after expiresAt (the shop asks for expiresInSeconds ${expiresInSeconds})`,
    kind: 'late',
    summary:
      'At expiresAt the order closes (ORDER.CLOSED); the till then enters the reference and the sandbox refuses it with ORDER_CLOSED.',
  });
  const refund = byEnding.find((outcome) => outcome.kind === 'refund');
  if (refund)
    outcomes.push({
      ...refund,
      label: 'Paid at the store, then refunded',
      processingSeconds: seconds,
      summary: `${confirm} Then Refund order returns it: a cash order is refunded like any other.`,
    });
  return outcomes;
}

/** What the phone and the till show; the voucher's reference and deadline come from the Create order response. */
interface Voucher {
  reference: string;
  expiresAt: string;
}

const phone = (name: string, title: string, blocks: readonly Block[], action?: string): Screen => ({
  name,
  device: 'phone',
  title,
  blocks,
  ...(action ? {action} : {}),
});

const till = (run: FlowRun, voucher: Voucher, received: number, blocks: readonly Block[], action?: string): Screen => ({
  name: 'till',
  device: 'terminal',
  title: 'Partner store, till 3',
  blocks: [
    {kind: 'value', label: 'Reference typed by the cashier', value: voucher.reference},
    {kind: 'summary', merchant, subject: 'Cash top-up', amount: run.amount},
    {kind: 'value', label: 'Cash received', value: formatUsd(received)},
    ...blocks,
  ],
  ...(action ? {action} : {}),
});

/** The cashier records the reference: Pay cash reference on the sandbox, and the order is PROCESSING. */
async function recordCash(run: FlowRun, voucher: Voucher): Promise<void> {
  const input = {clientId: run.ports.client.clientId, paymentReference: voucher.reference};
  const order = orderOf(
    await run.act('shopper.payCash', input, `The cashier types ${voucher.reference}, takes ${formatUsd(run.amount)} and records it.`),
  );
  run.setOrderStatus(order.status);
  const confirming = order.status === 'PROCESSING';
  run.show(
    till(run, voucher, run.amount, [
      {
        kind: 'status',
        tone: confirming ? 'pending' : 'info',
        title: 'Cash accepted',
        text: confirming ? 'Receipt printed. The payment is being confirmed.' : 'Receipt printed. The store’s network has not answered.',
      },
    ]),
  );
}

/** The short-cash attempt: the till asks for the exact amount and records nothing; the sandbox is not called. */
function addShortCash(run: FlowRun, voucher: Voucher): void {
  const short = Math.max(0, run.amount - shortBy);
  run.add(
    `The customer hands over ${formatUsd(short)}: the till asks for exactly ${formatUsd(run.amount)}`,
    'shopper',
    withOrder(run, async () => {
      run.note(
        'shopper',
        `The till refuses: ${formatUsd(short)} is less than the ${formatUsd(run.amount)} the reference is for. Pay cash reference records a reference's whole amount and takes no other, so nothing is recorded: the order stays ${run.orderStatus ?? 'PENDING'}.`,
      );
      run.show(
        till(
          run,
          voucher,
          short,
          [{kind: 'status', tone: 'warning', title: `Take exactly ${formatUsd(run.amount)}`, text: 'This reference is paid in full only.'}],
          `Take ${formatUsd(run.amount)}`,
        ),
      );
    }),
  );
}

/** The order's expiry time passes on the sandbox clock, then the customer reaches the till: the sandbox refuses the reference. */
function addLateVisit(run: FlowRun, voucher: Voucher): void {
  run.add(
    'The sandbox clock moves to the order’s expiry time: the order closes',
    'sandbox',
    withOrder(run, async () => {
      await advanceToExpiry(run);
      run.show(till(run, voucher, run.amount, [], 'Record the cash'));
    }),
    {movesClock: toExpiry(run)},
  );
  run.add(
    'The cashier enters the reference after the deadline: the sandbox refuses it',
    'shopper',
    withOrder(run, async () => {
      const input = {clientId: run.ports.client.clientId, paymentReference: voucher.reference};
      const result = await run.tryAct('shopper.payCash', input, `The cashier types ${voucher.reference} after ${voucher.expiresAt}.`);
      if (result.ok) throw new Error('The sandbox took a cash payment after the order’s expiry time.');
      run.note('refused', `${result.code}: ${result.message} No cash is taken; the customer needs a new reference.`);
      run.show(
        till(run, voucher, 0, [
          {
            kind: 'status',
            tone: 'error',
            title: 'Reference not payable',
            text: `${result.code}: hand the cash back. Nothing was recorded.`,
          },
        ]),
      );
    }),
  );
}

/** The sandbox clock moves while the cash payment is PROCESSING (or, unanswered, to the expiry time). */
function addConfirmation(run: FlowRun, voucher: Voucher): void {
  const {outcome} = run;
  if (outcome.kind === 'expiry') {
    run.add(
      'Nothing answers; the sandbox clock moves to the order’s expiry time',
      'sandbox',
      withOrder(run, async () => {
        await advanceToExpiry(run);
      }),
      {movesClock: toExpiry(run)},
    );
    return;
  }
  const seconds = cashMethod(run.ports.data).processingSeconds;
  run.add(
    `The sandbox clock moves ${seconds} s while the store’s network confirms the cash`,
    'sandbox',
    withOrder(run, async () => {
      await run.advance(seconds, `The sandbox clock moves ${seconds} s, the CASH method's confirmation time.`);
      const failed = outcome.kind === 'timeout';
      run.show(
        till(run, voucher, run.amount, [
          failed
            ? {
                kind: 'status',
                tone: 'error',
                title: 'Not confirmed',
                text: `${outcome.failureCode ?? 'Failed'}: the reference can be paid again.`,
              }
            : {kind: 'status', tone: 'success', title: 'Confirmed', text: `Paid to ${merchant}.`},
        ]),
      );
    }),
    {movesClock: () => seconds},
  );
}

export const cash: FlowDefinition = {
  id: 'cash',
  title: 'Cash top-up',
  device: 'phone',
  deviceLabel: 'The customer’s phone and the store’s till',
  baseAmount: 2500,
  outcomes: cashOutcomes,
  firstScreen: (run) =>
    phone(
      'checkout',
      `${merchant}: checkout`,
      [
        {kind: 'summary', merchant, subject, amount: run.amount},
        {kind: 'text', text: 'Payment method: cash at a partner store, within 24 hours.'},
        {kind: 'value', label: 'Mobile number', value: mobileNumber(run)},
      ],
      'Get my payment code',
    ),
  plan: (run) => {
    const voucher: Voucher = {reference: '', expiresAt: ''};
    run.add('The customer picks cash; your server creates a CASH_TOP_UP order', 'server', async () => {
      const scene = {scene: 'CASH_TOP_UP', payerPhoneNumber: mobileNumber(run), expiresInSeconds};
      const order = await createOrder(run, scene, subject, checkout);
      if (!order) return;
      voucher.reference = String(order.nextAction?.['paymentReference'] ?? '');
      voucher.expiresAt = String(order.nextAction?.['expiresAt'] ?? order.expiresAt ?? '');
      run.message('Veloxa Pay → phone', `SMS to ${mobileNumber(run)}`, {
        text: `Pay ${formatUsd(run.amount)} to ${merchant} at a partner store with reference ${voucher.reference} before ${voucher.expiresAt}.`,
      });
      run.show(
        phone(
          'voucher',
          'Pay in cash',
          [
            {kind: 'value', label: 'Payment reference', value: voucher.reference},
            {kind: 'value', label: 'Amount to pay', value: formatUsd(run.amount)},
            {kind: 'value', label: 'Pay by (sandbox clock)', value: voucher.expiresAt},
            {kind: 'status', tone: 'pending', title: 'Waiting for your cash payment', text: 'Show this code at any partner store.'},
          ],
          'Go to the store',
        ),
      );
    });
    const {outcome} = run;
    if (outcome.kind === 'rejected') return;
    if (outcome.kind === 'late') {
      addLateVisit(run, voucher);
      addOrderPage(run);
      return;
    }
    run.add(
      'At the store, the cashier types the reference and the till shows the amount due',
      'shopper',
      withOrder(run, async () => {
        run.note('shopper', `The customer shows the voucher; the cashier types ${voucher.reference}.`);
        run.show(till(run, voucher, 0, [], `Take ${formatUsd(run.amount)}`));
      }),
    );
    if (outcome.kind === 'partial') addShortCash(run, voucher);
    run.add(
      `The cashier takes ${formatUsd(run.amount)} and records the reference`,
      'shopper',
      withOrder(run, async () => {
        await recordCash(run, voucher);
      }),
    );
    addConfirmation(run, voucher);
    if (outcome.kind === 'refund') addRefundStep(run, () => refundedScreen(run, 'phone', 'the customer'));
    else addOrderPage(run);
  },
};

/** The number the reference is texted to: the everyday test wallet's, as the demo page says. */
function mobileNumber(run: FlowRun): string {
  return run.ports.data.wallets.find((wallet) => wallet.status === 'ACTIVE')?.phone ?? '+10000000001';
}

/** The notification has told your server; the customer's order page shows what your server read. */
function addOrderPage(run: FlowRun): void {
  run.add(
    'The customer opens the order page; your server retrieves the order',
    'server',
    withOrder(run, async () => {
      const order = await retrieve(run);
      run.show(orderPageScreen(run, order.status ?? 'unknown', 'phone', orderPage(run)));
    }),
  );
}
