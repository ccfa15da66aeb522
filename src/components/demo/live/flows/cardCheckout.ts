/**
 * The cashier checkouts (hosted pay page, iframe pay page, payment link): the customer pays on the Veloxa
 * Pay cashier with the test card whose payments follow the amount endings. The three flow modules differ
 * in where the cashier is shown (a redirect, a frame on the shop's page) and in what opens it.
 */
import {brand} from '@site/src/brand';
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import {formatUsd, orderOf, type FlowDefinition, type FlowRun, type Outcome} from '../flow';
import type {Block, Screen} from '../screen';
import {addClockSteps, addRefundStep, createOrder, endingOutcomes, orderPageScreen, refundedScreen, retrieve, withOrder} from './checkout';

export const merchant = 'Juniper Outdoor';

/** Where a Create order that fails leaves the customer: the shop's checkout page. */
export const checkoutPage = (device: Screen['device']) => ({device, title: `${merchant}: checkout`, address: 'shop.example.com/checkout'});

/** The card whose payments follow the amount endings. */
export const payingCard = (data: SandboxData): string => data.cards.cards.find((card) => card.behavior === 'ENDINGS')?.number ?? '';

export function cardOutcomes(data: SandboxData): Outcome[] {
  const card = payingCard(data);
  return [
    ...endingOutcomes(data, card ? `with the card ${card}` : '', {
      label: 'Customer leaves the cashier',
      testValue: 'any amount: the customer closes the cashier',
    }),
    ...challengeOutcomes(data),
  ];
}

/** The 3-D Secure challenge cards of the sandbox data (cards.threeDSecure), one outcome each: passed, failed. */
export function challengeOutcomes(data: SandboxData): Outcome[] {
  const ending = data.payments.endings.default;
  const failureCode = data.cards.threeDSecure.failed.failureCode;
  return data.cards.cards.flatMap((card): Outcome[] => {
    const enrolment = card.threeDSecure;
    if (enrolment?.flow !== 'CHALLENGE' || card.behavior !== 'ENDINGS') return [];
    const passed = enrolment.result === 'PASSED';
    return [
      {
        id: passed ? '3ds-passed' : '3ds-failed',
        label: passed ? '3-D Secure passed' : `3-D Secure failed: ${failureCode ?? 'declined'}`,
        testValue: `the card ${card.number}, amount ending ${ending}`,
        ending,
        kind: 'challenge',
        card: card.number,
        summary: passed
          ? 'The issuer asks for a one-time code; the customer submits it and the payment succeeds.'
          : `The issuer asks for a one-time code and refuses it: the attempt is declined with ${failureCode ?? 'a failure code'} and the order stays open.`,
        ...(passed || failureCode === undefined ? {} : {failureCode}),
      },
    ];
  });
}

/** The issuer's challenge screen on the shopper's device (inside the cashier). */
function challengeScreen(run: FlowRun, options: CashierOptions, card: string): Screen {
  return cashierScreen(
    run,
    options,
    'challenge',
    [
      {
        kind: 'panel',
        variant: 'sheet',
        label: `Your card issuer: 3-D Secure for the card ending ${card.slice(-4)}`,
        blocks: [
          {kind: 'text', text: `Confirm the payment of ${formatUsd(run.amount)} to ${merchant} with the one-time code sent to your phone.`},
          {kind: 'value', label: 'One-time code (any code works in the sandbox)', value: '123456'},
        ],
      },
    ],
    'Submit the code',
  );
}

/** The customer answers the issuer's challenge; the card decides whether it passes. */
function addChallengeStep(run: FlowRun, options: CashierOptions): void {
  const {outcome} = run;
  run.add(
    'The customer answers the 3-D Secure challenge',
    'shopper',
    withOrder(run, async () => {
      const order = orderOf(
        await run.act(
          'shopper.challenge',
          {clientId: run.ports.client.clientId, merchantOrderNo: run.currentOrderNo, answer: 'SUBMIT'},
          'The customer submits the one-time code to the card issuer.',
        ),
      );
      run.setOrderStatus(order.status);
      if (outcome.failureCode) {
        frameMessage(run, options, 'veloxa:payment_failed', {reason: 'declined', retryable: true});
        const text = `${outcome.failureCode}: the issuer did not authenticate the card. The cashier offers another card or the wallet; the order stays open.`;
        run.show(result(run, options, 'error', 'Payment declined', text));
      } else {
        frameMessage(run, options, 'veloxa:payment_succeeded');
        run.show(paidScreen(run, options));
      }
    }),
  );
}

/** The frame's failure reason for a decline code, as the iframe guide lists them. */
export function frameReason(failureCode: string | undefined): string {
  if (failureCode === 'INSUFFICIENT_FUNDS') return 'insufficient_funds';
  if (failureCode === 'PAYMENT_METHOD_EXPIRED') return 'expired_method';
  if (failureCode === 'RISK_DECLINED') return 'risk_rejected';
  return 'declined';
}

export interface CashierOptions {
  /** The cashier sits in a frame on the shop's checkout page and posts messages to it. */
  readonly framed: boolean;
  readonly device: Screen['device'];
  readonly subject: string;
}

/** The cashier's screen with `blocks` inside: the whole page after a redirect, or a frame on the shop's checkout. */
export function cashierScreen(run: FlowRun, options: CashierOptions, name: string, blocks: readonly Block[], action?: string): Screen {
  const extra = action ? {action} : {};
  if (options.framed)
    return {
      name,
      device: options.device,
      title: 'Juniper Outdoor: checkout',
      address: 'shop.example.com/checkout',
      blocks: [
        {kind: 'summary', merchant, subject: options.subject, amount: run.amount},
        {kind: 'panel', variant: 'frame', label: `Payment by Veloxa Pay (iframe from ${brand.hosts.sandboxCashier})`, blocks},
      ],
      ...extra,
    };
  return {name, device: options.device, title: 'Veloxa Pay cashier', address: `${brand.hosts.sandboxCashier}/pay`, blocks, ...extra};
}

/** The frame's postMessage to the shop's page (iframe flow only). */
export function frameMessage(run: FlowRun, options: CashierOptions, type: string, extra: Readonly<Record<string, unknown>> = {}): void {
  if (!options.framed) return;
  run.message('Frame → page', `postMessage from https://${brand.hosts.sandboxCashier}`, {
    type,
    version: 1,
    merchantOrderNo: run.currentOrderNo,
    ...extra,
  });
}

const result = (run: FlowRun, options: CashierOptions, tone: 'success' | 'error' | 'pending', title: string, text: string) =>
  cashierScreen(run, options, 'cashier-result', [{kind: 'status', tone, title, text}], 'Continue');

const paidScreen = (run: FlowRun, options: CashierOptions) =>
  result(run, options, 'success', 'Payment successful', `${formatUsd(run.amount)} paid to ${merchant}.`);

/** Create order for the cashier; the customer then sees the cashier with the card to pay with. */
export async function openCashier(run: FlowRun, options: CashierOptions, scene: Readonly<Record<string, unknown>>, orderNo?: string) {
  const order = await createOrder(run, scene, options.subject, checkoutPage(options.device), orderNo);
  if (!order) return false;
  const cashierUrl = String(order.nextAction?.['cashierUrl'] ?? '');
  showCashier(run, options, cashierUrl);
  frameMessage(run, options, 'veloxa:ready');
  return true;
}

export function showCashier(run: FlowRun, options: CashierOptions, cashierUrl: string): void {
  const blocks: Block[] = [
    ...(options.framed ? [] : [{kind: 'summary', merchant, subject: options.subject, amount: run.amount} as const]),
    {kind: 'text', text: `Card ${run.outcome.card ?? payingCard(run.ports.data)}, any future expiry, CVC 123`},
    {kind: 'value', label: 'Cashier URL from the response', value: cashierUrl},
  ];
  run.show(
    cashierScreen(run, options, 'cashier', blocks, run.outcome.kind === 'abandon' ? 'Leave the cashier' : `Pay ${formatUsd(run.amount)}`),
  );
}

/** The customer's part on the cashier: pay with the test card, or leave. */
export function addCashierSteps(run: FlowRun, options: CashierOptions): void {
  const {outcome} = run;
  const clientId = run.ports.client.clientId;
  if (outcome.kind === 'abandon') {
    run.add(
      options.framed ? 'The customer closes the cashier frame' : 'The customer leaves the cashier without paying',
      'shopper',
      withOrder(run, async () => {
        const order = orderOf(
          await run.act('shopper.abandon', {clientId, merchantOrderNo: run.currentOrderNo}, 'The customer leaves the cashier.'),
        );
        run.setOrderStatus(order.status);
        frameMessage(run, options, 'veloxa:closed');
        run.show(result(run, options, 'pending', 'Payment not completed', 'The order is saved; the customer can pay later.'));
      }),
    );
    return;
  }
  const card = outcome.card ?? payingCard(run.ports.data);
  run.add(
    `The customer pays ${formatUsd(run.amount)} with the test card`,
    'shopper',
    withOrder(run, async () => {
      frameMessage(run, options, 'veloxa:payment_submitted', {paymentMethod: 'CARD'});
      const order = orderOf(
        await run.act(
          'shopper.pay',
          {clientId, merchantOrderNo: run.currentOrderNo, method: 'CARD', cardNumber: card},
          `The customer pays with the card ${card}.`,
        ),
      );
      run.setOrderStatus(order.status);
      if (outcome.kind === 'challenge') {
        run.note(
          'note',
          'The card is enrolled in 3-D Secure: the issuer asks the customer first. No attempt and no notification until they answer.',
        );
        run.show(challengeScreen(run, options, card));
      } else if (outcome.kind === 'decline') {
        frameMessage(run, options, 'veloxa:payment_failed', {reason: frameReason(outcome.failureCode), retryable: true});
        const text = `${outcome.failureCode ?? 'Declined'}: the cashier offers another card or the wallet. The order stays open.`;
        run.show(result(run, options, 'error', 'Payment declined', text));
      } else if (outcome.kind === 'expiry')
        run.show(result(run, options, 'pending', 'Waiting for the payment…', 'The payment gets no answer.'));
      else if (outcome.kind === 'slow' || outcome.kind === 'timeout')
        run.show(result(run, options, 'pending', 'Processing your payment…', 'The payment is PROCESSING.'));
      else {
        frameMessage(run, options, 'veloxa:payment_succeeded');
        run.show(paidScreen(run, options));
      }
    }),
  );
  if (outcome.kind === 'challenge') addChallengeStep(run, options);
  addClockSteps(run, {
    paid: () => paidScreen(run, options),
    failed: (code) => result(run, options, 'error', 'Payment failed', `${code}: the customer can try again.`),
    expired: () => result(run, options, 'pending', 'This payment has expired', 'The order closed unpaid at its expiry time.'),
    onSettled: (settled) => {
      if (settled === 'paid') frameMessage(run, options, 'veloxa:payment_succeeded');
      else
        frameMessage(
          run,
          options,
          'veloxa:payment_failed',
          settled === 'failed' ? {reason: 'declined', retryable: true} : {reason: 'order_closed', retryable: false},
        );
    },
  });
}

/** The return page (or the checkout page around the frame) asks your server, which retrieves the order; then a refund if chosen. */
export function addReturnSteps(run: FlowRun, options: CashierOptions, action = 'Continue'): void {
  run.add(
    options.framed ? 'The page asks your server, which retrieves the order' : 'The return page asks your server, which retrieves the order',
    'server',
    withOrder(run, async () => {
      const order = await retrieve(run);
      const address = options.framed ? 'shop.example.com/checkout' : `shop.example.com/orders/${run.currentOrderNo}`;
      run.show(orderPageScreen(run, order.status ?? 'unknown', options.device, address, action));
    }),
  );
  addRefundStep(run, () => refundedScreen(run, options.device, 'the card'));
}

/** A cart or checkout page with one button that makes your server create the order and open the cashier. */
export interface CartCheckout {
  readonly id: string;
  readonly title: string;
  readonly options: CashierOptions;
  readonly page: {readonly title: string; readonly address: string};
  readonly action: (amount: number) => string;
  readonly createTitle: (amount: number) => string;
  readonly scene: (run: FlowRun) => Readonly<Record<string, unknown>>;
}

/** The flow of a cart checkout: the cart, Create order, the cashier, the page that asks your server, a refund. */
export function cartCheckoutFlow(spec: CartCheckout): FlowDefinition {
  const {options} = spec;
  return {
    id: spec.id,
    title: spec.title,
    device: options.device,
    deviceLabel: 'The customer’s browser',
    baseAmount: 4200,
    outcomes: cardOutcomes,
    firstScreen: (run) => ({
      name: 'cart',
      device: options.device,
      ...spec.page,
      blocks: [{kind: 'summary', merchant, subject: options.subject, amount: run.amount}],
      action: spec.action(run.amount),
    }),
    plan: (run) => {
      run.add(spec.createTitle(run.amount), 'server', async () => {
        await openCashier(run, options, spec.scene(run));
      });
      if (run.outcome.kind === 'rejected') return;
      addCashierSteps(run, options);
      addReturnSteps(run, options);
    },
  };
}
