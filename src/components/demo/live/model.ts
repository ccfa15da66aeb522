/**
 * The live demos' model: a checkout flow as a list of steps run over a sandbox target (the in-page engine,
 * the same state as Try it and the sandbox console), and everything the view shows after each step: the
 * shopper's screen, the signed calls of "your server", the order's state, the cashier frame's messages and
 * each notification with its checks. Pure TypeScript (no React, no DOM), so the unit tests run every flow
 * on a Node engine.
 *
 * The outcomes come from the sandbox data (api/sandbox.yaml): each is reproduced by a test value a reader can
 * use from code (an amount ending, the paying card), never by a switch only the demo has.
 */
import {brand} from '@site/src/brand';
import type {CheckedNotification, InboxNotification} from '@site/src/components/widgets/SandboxConsole/notificationChecks';
import type {MerchantCall, MerchantClient} from '@site/src/sandbox/client/merchant';
import type {SandboxTarget} from '@site/src/sandbox/client/target';
import type {PaymentEndingRule, SandboxData} from '@site/src/sandbox/engine/rules/types';

export type FlowId = 'hosted' | 'iframe' | 'paylink';

/** What each flow sells, and the scene its Create order uses. */
export interface FlowSpec {
  readonly id: FlowId;
  readonly title: string;
  readonly scene: 'HOSTED_PAYPAGE' | 'IFRAME_PAYPAGE';
  readonly subject: string;
  /** Amount in minor units of USD with the default ending (00). */
  readonly baseAmount: number;
  readonly device: 'desktop' | 'phone';
}

export const flows: Readonly<Record<FlowId, FlowSpec>> = {
  hosted: {
    id: 'hosted',
    title: 'Hosted pay page',
    scene: 'HOSTED_PAYPAGE',
    subject: 'Trail backpack, 28 l, with shipping',
    baseAmount: 4200,
    device: 'desktop',
  },
  iframe: {
    id: 'iframe',
    title: 'Iframe pay page',
    scene: 'IFRAME_PAYPAGE',
    subject: 'Two-person tent',
    baseAmount: 4200,
    device: 'desktop',
  },
  paylink: {
    id: 'paylink',
    title: 'Payment link',
    scene: 'HOSTED_PAYPAGE',
    subject: 'Deposit: made-to-measure tent',
    baseAmount: 6000,
    device: 'phone',
  },
};

export const isFlowId = (value: string): value is FlowId => Object.hasOwn(flows, value);

export const shopOrigin = 'https://shop.example.com';
export const notifyUrl = `${shopOrigin}/payments/notify`;

/** One outcome the reader can choose, with the test value that produces it. */
export interface Outcome {
  readonly id: string;
  readonly label: string;
  /** The test value, as a sentence a reader can reuse from code. */
  readonly testValue: string;
  /** The last two digits of the amount that produce it. */
  readonly ending: string;
  readonly kind: 'success' | 'decline' | 'rejected' | 'slow' | 'timeout' | 'expiry' | 'abandon' | 'refund';
  /** What the rule says, from the sandbox data. */
  readonly summary: string;
  readonly failureCode?: string;
  readonly resultCode?: string;
  /** Sandbox seconds the payment stays PROCESSING (DELAYED and FAILED endings). */
  readonly processingSeconds?: number;
}

/** The outcomes a flow offers, built from the sandbox data: success, each decline, the rejection at creation, the slow and lost payments, abandon, refund. */
export function outcomesFor(data: SandboxData): Outcome[] {
  const outcomes: Outcome[] = [];
  const payingCard = data.cards.cards.find((card) => card.behavior === 'ENDINGS')?.number ?? '';
  const cardNote = payingCard ? ` with the card ${payingCard}` : '';
  const endingText = (rule: PaymentEndingRule) => `amount ending ${rule.ending}${cardNote}`;
  const rules = data.payments.endings.rules;
  const success = rules.find((rule) => rule.kind === 'SUCCEEDED' && rule.at === 'ATTEMPT');
  if (success)
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
  if (success) {
    outcomes.push({
      id: 'abandon',
      label: 'Customer leaves the cashier',
      testValue: 'any amount: the customer closes the cashier',
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
  }
  return outcomes;
}

/** The amount a run uses: the flow's whole amount with the outcome's ending. */
export function amountFor(flow: FlowSpec, outcome: Outcome, requested?: number): number {
  const whole =
    requested !== undefined && Number.isSafeInteger(requested) && requested >= 100 && requested <= 99_999_900
      ? Math.floor(requested / 100)
      : Math.floor(flow.baseAmount / 100);
  return whole * 100 + Number(outcome.ending);
}

export const formatUsd = (minor: number): string => `${(minor / 100).toFixed(2)} USD`;

/** What the shopper's device shows. */
export type Screen =
  | {readonly kind: 'cart'}
  | {readonly kind: 'chat'; readonly link: string}
  | {readonly kind: 'cashier'; readonly cashierUrl: string}
  | {readonly kind: 'cashier-result'; readonly tone: 'success' | 'danger' | 'info'; readonly title: string; readonly text: string}
  | {readonly kind: 'return'; readonly status: string; readonly title: string; readonly text: string}
  | {readonly kind: 'failed-start'; readonly text: string};

export type TimelineEvent =
  | {
      readonly kind: 'call';
      readonly id: number;
      readonly operationId: string;
      readonly summary: string;
      readonly call: MerchantCall;
      readonly code: string;
    }
  | {readonly kind: 'shopper'; readonly id: number; readonly text: string}
  | {readonly kind: 'note'; readonly id: number; readonly text: string}
  | {readonly kind: 'clock'; readonly id: number; readonly seconds: number; readonly text: string}
  | {readonly kind: 'state'; readonly id: number; readonly object: string; readonly from: string | undefined; readonly to: string}
  | {readonly kind: 'message'; readonly id: number; readonly origin: string; readonly data: Readonly<Record<string, unknown>>}
  | {readonly kind: 'notification'; readonly id: number; readonly entry: InboxNotification; readonly checked: CheckedNotification};

export type Actor = 'shopper' | 'server' | 'sandbox';

export interface StepView {
  readonly title: string;
  readonly actor: Actor;
  readonly status: 'waiting' | 'done' | 'failed';
}

export interface RunView {
  readonly flow: FlowId;
  readonly outcome: Outcome;
  readonly amount: number;
  readonly merchantOrderNo: string;
  readonly steps: readonly StepView[];
  /** Index of the next step; steps.length when the run is over. */
  readonly next: number;
  readonly screen: Screen;
  readonly events: readonly TimelineEvent[];
  /** The order's status as the contract's order state machine names it, once it exists. */
  readonly orderStatus: string | undefined;
  readonly refundStatus: string | undefined;
  /** Every order number this run created (a payment link may create a second). */
  readonly orders: readonly string[];
  /** A sentence when a step could not run. */
  readonly error: string | undefined;
}

/** What the model runs on: a sandbox target, a client signing as the test merchant, the inbox and the notification checks. */
export interface DemoPorts {
  readonly target: SandboxTarget;
  readonly client: MerchantClient;
  /** The notifications received so far (the list grows in place). */
  readonly inbox: () => readonly InboxNotification[];
  readonly check: (entry: InboxNotification) => Promise<CheckedNotification>;
  readonly data: SandboxData;
  /** A fresh suffix for order numbers (random in the page, counted in tests). */
  readonly newId: () => string;
}

interface Step {
  readonly title: string;
  readonly actor: Actor;
  run(): Promise<void>;
}

interface OrderLike {
  readonly status?: string;
  readonly expiresAt?: string;
  readonly merchantOrderNo?: string;
}

const orderOf = (data: unknown): OrderLike => {
  const value = (data ?? {}) as {order?: OrderLike} & OrderLike;
  return value.order ?? value;
};

/** The frame's failure reason for a decline code, as the iframe guide lists them. */
export function frameReason(failureCode: string | undefined): string {
  if (failureCode === 'INSUFFICIENT_FUNDS') return 'insufficient_funds';
  if (failureCode === 'PAYMENT_METHOD_EXPIRED') return 'expired_method';
  if (failureCode === 'RISK_DECLINED') return 'risk_rejected';
  return 'declined';
}

/** One run of a flow with one outcome. */
export class LiveDemoRun {
  private readonly steps: Step[] = [];
  private readonly stepStatus: StepView['status'][] = [];
  private next = 0;
  private screen: Screen;
  private readonly events: TimelineEvent[] = [];
  private orderStatus: string | undefined;
  private refundStatus: string | undefined;
  private readonly orders: string[] = [];
  private error: string | undefined;
  private inboxCursor: number;
  private eventId = 0;
  private expiresAt: string | undefined;
  readonly flow: FlowSpec;
  readonly amount: number;
  readonly merchantOrderNo: string;
  private currentOrderNo: string;

  constructor(
    private readonly ports: DemoPorts,
    flowId: FlowId,
    readonly outcome: Outcome,
    requestedAmount?: number,
  ) {
    this.flow = flows[flowId];
    this.amount = amountFor(this.flow, outcome, requestedAmount);
    const suffix = ports.newId();
    this.merchantOrderNo = flowId === 'paylink' ? `PL-${suffix}-1` : `ORD-DEMO-${suffix}`;
    this.currentOrderNo = this.merchantOrderNo;
    this.inboxCursor = ports.inbox().length;
    this.screen = flowId === 'paylink' ? {kind: 'chat', link: `shop.example.com/pay/PL-${suffix}`} : {kind: 'cart'};
    this.plan(suffix);
  }

  view(): RunView {
    return {
      flow: this.flow.id,
      outcome: this.outcome,
      amount: this.amount,
      merchantOrderNo: this.merchantOrderNo,
      steps: this.steps.map((step, index) => ({title: step.title, actor: step.actor, status: this.stepStatus[index] ?? 'waiting'})),
      next: this.next,
      screen: this.screen,
      events: [...this.events],
      orderStatus: this.orderStatus,
      refundStatus: this.refundStatus,
      orders: [...this.orders],
      error: this.error,
    };
  }

  get finished(): boolean {
    return this.next >= this.steps.length;
  }

  /** Runs the next step; a step that fails ends the run with its sentence (never a throw to the view). */
  async step(): Promise<RunView> {
    const step = this.steps[this.next];
    if (!step) return this.view();
    try {
      await step.run();
      await this.collectNotifications();
      this.stepStatus[this.next] = 'done';
      this.next += 1;
    } catch (error) {
      this.stepStatus[this.next] = 'failed';
      this.error = error instanceof Error ? error.message : String(error);
      this.next = this.steps.length;
    }
    return this.view();
  }

  /** Runs every remaining step. */
  async runToEnd(): Promise<RunView> {
    while (!this.finished) await this.step();
    return this.view();
  }

  /** Closes this run's orders that are still open (Cancel order), so a reset leaves nothing of this demo payable; nothing else is touched. */
  async closeOpenOrders(): Promise<void> {
    for (const merchantOrderNo of this.orders) {
      const detail = await this.ports.client.call({method: 'GET', target: `/v1/orders/${encodeURIComponent(merchantOrderNo)}`, body: ''});
      const status = orderOf((JSON.parse(detail.response.body) as {data?: unknown}).data).status;
      if (status === 'PENDING')
        await this.ports.client.call({
          method: 'POST',
          target: `/v1/orders/${encodeURIComponent(merchantOrderNo)}/cancel`,
          body: JSON.stringify({reason: 'Live demo reset'}),
        });
    }
  }

  private push(event: DistributiveOmit<TimelineEvent, 'id'>): void {
    this.eventId += 1;
    this.events.push({...event, id: this.eventId} as TimelineEvent);
  }

  private setOrderStatus(status: string | undefined): void {
    if (!status || status === this.orderStatus) return;
    this.push({kind: 'state', object: `Order ${this.currentOrderNo}`, from: this.orderStatus, to: status});
    this.orderStatus = status;
  }

  private setRefundStatus(status: string | undefined): void {
    if (!status || status === this.refundStatus) return;
    this.push({kind: 'state', object: 'Refund', from: this.refundStatus, to: status});
    this.refundStatus = status;
  }

  /** Sends a signed call as the merchant's server and records it; answers the parsed response. */
  private async call(
    operationId: string,
    summary: string,
    method: string,
    target: string,
    body?: unknown,
  ): Promise<{code: string; message: string; data?: unknown}> {
    const call = await this.ports.client.call({method, target, body: body === undefined ? '' : JSON.stringify(body)});
    let json: {code: string; message: string; data?: unknown};
    try {
      json = JSON.parse(call.response.body) as {code: string; message: string; data?: unknown};
    } catch {
      throw new Error(`${summary} answered HTTP ${call.response.status} with a body that is not JSON.`);
    }
    this.push({kind: 'call', operationId, summary, call, code: json.code});
    return json;
  }

  private async act(name: string, input: Readonly<Record<string, unknown>>, text: string): Promise<unknown> {
    this.push({kind: 'shopper', text});
    const result = await this.ports.target.act(name, input);
    if (!result.ok) throw new Error(`The sandbox refused ${name}: ${result.code}: ${result.message}`);
    return result.value;
  }

  private frameMessage(type: string, extra: Readonly<Record<string, unknown>> = {}): void {
    if (this.flow.id !== 'iframe') return;
    this.push({
      kind: 'message',
      origin: `https://${cashierHost}`,
      data: {type, version: 1, merchantOrderNo: this.currentOrderNo, ...extra},
    });
  }

  private async collectNotifications(): Promise<void> {
    const inbox = this.ports.inbox();
    const fresh = inbox.slice(this.inboxCursor);
    this.inboxCursor = inbox.length;
    for (const entry of fresh) {
      let parsed: {data?: {merchantOrderNo?: string; status?: string}; eventType?: string};
      try {
        parsed = JSON.parse(entry.body) as typeof parsed;
      } catch {
        continue;
      }
      if (!parsed.data?.merchantOrderNo || !this.orders.includes(parsed.data.merchantOrderNo)) continue;
      this.push({kind: 'notification', entry, checked: await this.ports.check(entry)});
    }
  }

  private async createOrder(merchantOrderNo: string): Promise<boolean> {
    this.currentOrderNo = merchantOrderNo;
    const body: Record<string, unknown> = {
      merchantOrderNo,
      amount: {value: this.amount, currency: 'USD'},
      scene: this.flow.scene,
      subject: this.flow.subject,
      notifyUrl,
    };
    if (this.flow.scene === 'IFRAME_PAYPAGE') body['parentOrigin'] = shopOrigin;
    else body['returnUrl'] = `${shopOrigin}/orders/${merchantOrderNo}`;
    const json = await this.call('createOrder', 'Create order', 'POST', '/v1/orders', body);
    if (json.code !== 'SUCCESS') {
      this.screen = {
        kind: 'failed-start',
        text: `Your server got ${json.code} from Create order, so there is no cashier to show: "${json.message}" Tell the customer the payment could not start.`,
      };
      return false;
    }
    this.orders.push(merchantOrderNo);
    // A new order starts its own life on the state machine: it did not come from the previous order's state.
    this.orderStatus = undefined;
    const order = orderOf(json.data);
    this.expiresAt = order.expiresAt;
    this.setOrderStatus(order.status);
    const cashierUrl = (json.data as {nextAction?: {cashierUrl?: string}} | undefined)?.nextAction?.cashierUrl ?? '';
    this.screen = {kind: 'cashier', cashierUrl};
    this.frameMessage('veloxa:ready');
    return true;
  }

  private async retrieve(): Promise<OrderLike> {
    const json = await this.call(
      'retrieveOrderDetail',
      'Retrieve order detail',
      'GET',
      `/v1/orders/${encodeURIComponent(this.currentOrderNo)}`,
    );
    if (json.code !== 'SUCCESS') throw new Error(`Retrieve order detail answered ${json.code}: ${json.message}`);
    const order = orderOf(json.data);
    this.setOrderStatus(order.status);
    return order;
  }

  private async advance(seconds: number, text: string): Promise<void> {
    this.push({kind: 'clock', seconds, text});
    const result = await this.ports.target.act('clock.advance', {seconds});
    if (!result.ok) throw new Error(`The sandbox clock could not move: ${result.code}: ${result.message}`);
  }

  private plan(suffix: string): void {
    const {outcome, flow} = this;
    const fixtures = this.ports.data.cards.cards;
    const card = fixtures.find((candidate) => candidate.behavior === 'ENDINGS')?.number ?? '';
    const clientId = this.ports.client.clientId;
    let created = false;
    const add = (title: string, actor: Actor, run: () => Promise<void>) => this.steps.push({title, actor, run});
    const whenCreated = (run: () => Promise<void>) => async () => {
      if (created) await run();
    };

    if (flow.id === 'paylink') {
      add('The customer opens the link; your server creates the order', 'server', async () => {
        this.push({
          kind: 'note',
          text: `You stored link PL-${suffix} for ${formatUsd(this.amount)} on your side and sent it by chat. No order exists yet.`,
        });
        this.push({kind: 'shopper', text: `The customer taps shop.example.com/pay/PL-${suffix}.`});
        created = await this.createOrder(this.merchantOrderNo);
      });
    } else {
      add(
        flow.id === 'iframe'
          ? 'The checkout page opens; your server creates the order for the frame'
          : `The customer presses Pay ${formatUsd(this.amount)}; your server creates the order`,
        'server',
        async () => {
          created = await this.createOrder(this.merchantOrderNo);
        },
      );
    }
    if (outcome.kind === 'rejected') return;

    if (outcome.kind === 'abandon') {
      add(
        flow.id === 'iframe' ? 'The customer closes the cashier frame' : 'The customer leaves the cashier without paying',
        'shopper',
        whenCreated(async () => {
          const order = orderOf(
            await this.act('shopper.abandon', {clientId, merchantOrderNo: this.currentOrderNo}, 'The customer leaves the cashier.'),
          );
          this.setOrderStatus(order.status);
          this.frameMessage('veloxa:closed');
          this.screen = {
            kind: 'cashier-result',
            tone: 'info',
            title: 'Payment not completed',
            text: 'The order is saved; the customer can pay later.',
          };
        }),
      );
    } else {
      add(
        `The customer pays ${formatUsd(this.amount)} with the test card`,
        'shopper',
        whenCreated(async () => {
          this.frameMessage('veloxa:payment_submitted', {paymentMethod: 'CARD'});
          const order = orderOf(
            await this.act(
              'shopper.pay',
              {clientId, merchantOrderNo: this.currentOrderNo, method: 'CARD', cardNumber: card},
              `The customer pays with the card ${card}.`,
            ),
          );
          this.setOrderStatus(order.status);
          if (outcome.kind === 'decline') {
            this.frameMessage('veloxa:payment_failed', {reason: frameReason(outcome.failureCode), retryable: true});
            this.screen = {
              kind: 'cashier-result',
              tone: 'danger',
              title: 'Payment declined',
              text: `${outcome.failureCode ?? 'Declined'}: the cashier offers another card or the wallet. The order stays open.`,
            };
          } else if (outcome.kind === 'expiry') {
            this.screen = {kind: 'cashier-result', tone: 'info', title: 'Waiting for the payment…', text: 'The payment gets no answer.'};
          } else if (outcome.kind === 'slow' || outcome.kind === 'timeout') {
            this.screen = {kind: 'cashier-result', tone: 'info', title: 'Processing your payment…', text: 'The payment is PROCESSING.'};
          } else {
            this.frameMessage('veloxa:payment_succeeded');
            this.screen = {
              kind: 'cashier-result',
              tone: 'success',
              title: 'Payment successful',
              text: `${formatUsd(this.amount)} paid to Juniper Outdoor.`,
            };
          }
        }),
      );
    }

    if (outcome.kind === 'slow' || outcome.kind === 'timeout') {
      const seconds = outcome.processingSeconds ?? 0;
      add(
        `The sandbox clock moves ${seconds} seconds: the payment ${outcome.kind === 'slow' ? 'succeeds' : 'fails'}`,
        'sandbox',
        whenCreated(async () => {
          await this.advance(seconds, `The sandbox clock moves ${seconds} s, as long as the payment is PROCESSING.`);
          if (outcome.kind === 'slow') {
            this.frameMessage('veloxa:payment_succeeded');
            this.screen = {
              kind: 'cashier-result',
              tone: 'success',
              title: 'Payment successful',
              text: `${formatUsd(this.amount)} paid to Juniper Outdoor.`,
            };
          } else {
            this.frameMessage('veloxa:payment_failed', {reason: 'declined', retryable: true});
            this.screen = {
              kind: 'cashier-result',
              tone: 'danger',
              title: 'Payment failed',
              text: `${outcome.failureCode ?? 'Failed'}: the customer can try again.`,
            };
          }
        }),
      );
    }

    if (outcome.kind === 'expiry') {
      add(
        'The sandbox clock moves to the order’s expiry time',
        'sandbox',
        whenCreated(async () => {
          const now = await this.ports.target.clock.now();
          const expires = this.expiresAt ? Date.parse(this.expiresAt) : now;
          const seconds = Math.max(1, Math.ceil((expires - now) / 1000));
          await this.advance(
            seconds,
            `The sandbox clock moves ${seconds} s to the order's expiresAt (${this.expiresAt ?? 'unknown'}). Only the sandbox clock moves, not yours.`,
          );
          this.frameMessage('veloxa:payment_failed', {reason: 'order_closed', retryable: false});
          this.screen = {
            kind: 'cashier-result',
            tone: 'info',
            title: 'This payment has expired',
            text: 'The order closed unpaid at its expiry time.',
          };
        }),
      );
    }

    add(
      flow.id === 'iframe'
        ? 'The page asks your server, which retrieves the order'
        : 'The return page asks your server, which retrieves the order',
      'server',
      whenCreated(async () => {
        const order = await this.retrieve();
        this.screen = returnScreen(order.status ?? 'unknown', this.currentOrderNo, this.amount);
      }),
    );

    if (outcome.kind === 'refund') {
      add(
        'Your server refunds the order',
        'server',
        whenCreated(async () => {
          const refundNo = `RFD-DEMO-${suffix}`;
          const json = await this.call(
            'refundOrder',
            'Refund order',
            'POST',
            `/v1/orders/${encodeURIComponent(this.currentOrderNo)}/refunds`,
            {merchantRefundNo: refundNo, amount: {value: this.amount, currency: 'USD'}, reason: 'Returned by the customer', notifyUrl},
          );
          if (json.code !== 'SUCCESS') throw new Error(`Refund order answered ${json.code}: ${json.message}`);
          this.setRefundStatus(
            (json.data as {status?: string; refund?: {status?: string}} | undefined)?.refund?.status ??
              (json.data as {status?: string} | undefined)?.status,
          );
          const refundRule = this.ports.data.refunds.endings.rules.find((rule) => rule.kind === 'SUCCEEDED');
          const seconds = refundRule?.processingSeconds ?? 0;
          if (seconds > 0) await this.advance(seconds, `The sandbox clock moves ${seconds} s while the refund is PROCESSING.`);
          const refund = await this.call('queryRefund', 'Query a refund', 'GET', `/v1/refunds/${encodeURIComponent(refundNo)}`);
          this.setRefundStatus((refund.data as {status?: string} | undefined)?.status);
          await this.retrieve();
          this.screen = {
            kind: 'return',
            status: 'REFUNDED',
            title: 'Your refund is on its way',
            text: `${formatUsd(this.amount)} goes back to the card.`,
          };
        }),
      );
    }

    if (flow.id === 'paylink') {
      add(
        'The customer opens the same link again',
        'server',
        whenCreated(async () => {
          this.push({kind: 'shopper', text: `The customer taps shop.example.com/pay/PL-${suffix} again.`});
          const order = await this.retrieve();
          if (order.status === 'PAID') {
            this.screen = {
              kind: 'return',
              status: 'PAID',
              title: 'This link has been paid',
              text: `${formatUsd(this.amount)} for ${flow.subject}. No second payment is taken.`,
            };
          } else if (order.status === 'CLOSED') {
            this.push({
              kind: 'note',
              text: "The link's order is closed, but the link is still valid: your server creates a new order with the next number.",
            });
            await this.createOrder(`PL-${suffix}-2`);
          } else if (order.status === 'PENDING') {
            const json = await this.call(
              'getCashierUrl',
              'Get cashier URL',
              'POST',
              `/v1/orders/${encodeURIComponent(this.currentOrderNo)}/cashier-url`,
              {},
            );
            if (json.code !== 'SUCCESS') throw new Error(`Get cashier URL answered ${json.code}: ${json.message}`);
            this.screen = {kind: 'cashier', cashierUrl: (json.data as {cashierUrl?: string} | undefined)?.cashierUrl ?? ''};
          }
        }),
      );
    }
  }
}

const cashierHost = brand.hosts.sandboxCashier;

function returnScreen(status: string, merchantOrderNo: string, amount: number): Screen {
  if (status === 'PAID')
    return {
      kind: 'return',
      status,
      title: 'Thank you, your order is confirmed',
      text: `Order ${merchantOrderNo}: ${formatUsd(amount)} paid.`,
    };
  if (status === 'CLOSED')
    return {kind: 'return', status, title: 'This order has expired', text: 'Nothing was charged. Start a new checkout to try again.'};
  return {
    kind: 'return',
    status,
    title: 'Your order is not paid yet',
    text: `Order ${merchantOrderNo} is ${status}. Pay now, or come back later.`,
  };
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The replay link's query: flow, outcome and amount. */
export function replayQuery(view: Pick<RunView, 'flow' | 'outcome' | 'amount'>): string {
  return `?demo=${view.flow}&outcome=${encodeURIComponent(view.outcome.id)}&amount=${view.amount}`;
}

/** Reads a replay query for this flow; undefined members for anything missing or not this flow's. */
export function readReplayQuery(search: string, flow: FlowId, outcomes: readonly Outcome[]): {outcome?: Outcome; amount?: number} {
  const params = new URLSearchParams(search);
  if (params.get('demo') !== flow) return {};
  const outcome = outcomes.find((candidate) => candidate.id === params.get('outcome'));
  const amountText = params.get('amount') ?? '';
  const amount = /^\d{3,8}$/.test(amountText) ? Number(amountText) : undefined;
  return {...(outcome ? {outcome} : {}), ...(amount !== undefined ? {amount} : {})};
}
