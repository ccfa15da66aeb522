/**
 * What a live demo flow is, as data (flows/<flow>.ts): its outcomes, amount, device, first screen and steps;
 * and what a flow sees of its run while its steps run (FlowRun). The runner (runner.ts) implements FlowRun.
 */
import type {CurrencyCode} from '@site/src/lib/money';
import type {MerchantSettings} from '@site/src/sandbox/engine/domain/merchants';
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import type {DemoPorts} from './runner';
import type {Screen} from './screen';

/** One outcome the reader can choose, with the test value that produces it. */
export interface Outcome {
  readonly id: string;
  readonly label: string;
  /** The test value, as a sentence a reader can reuse from code. */
  readonly testValue: string;
  /** The last two digits of the amount that produce it. */
  readonly ending: string;
  readonly kind:
    | 'success'
    | 'decline'
    | 'rejected'
    | 'slow'
    | 'timeout'
    | 'expiry'
    | 'abandon'
    | 'refund'
    | 'qr-expired'
    | 'challenge'
    /** Less money than asked for (cash at the till, a bank transfer into a virtual account). */
    | 'partial'
    /** A short transfer, then the rest in a second one. */
    | 'partial-then-rest'
    | 'overpayment'
    /** The customer pays after the order's expiry time. */
    | 'late';
  /** What the rule says, from the sandbox data. */
  readonly summary: string;
  readonly failureCode?: string;
  readonly resultCode?: string;
  /** Sandbox seconds the payment stays PROCESSING (DELAYED and FAILED endings). */
  readonly processingSeconds?: number;
  /** The test card that pays, when it is not the flow's own (a 3-D Secure challenge card). */
  readonly card?: string;
  /** The test wallet that pays (wallet flows), with the PIN the customer types. */
  readonly wallet?: {readonly phone: string; readonly pin: string};
}

export type Actor = 'shopper' | 'server' | 'sandbox';

/** A parsed API answer. */
export interface Answer {
  readonly code: string;
  readonly message: string;
  readonly data?: unknown;
}

export interface OrderLike {
  readonly status?: string;
  readonly expiresAt?: string;
  readonly merchantOrderNo?: string;
  readonly nextAction?: Readonly<Record<string, unknown>>;
}

export const orderOf = (data: unknown): OrderLike => {
  const value = (data ?? {}) as {order?: OrderLike} & OrderLike;
  return value.order ?? value;
};

/**
 * How far a step will move the sandbox clock, in seconds, from the sandbox time after the last step
 * (undefined before the first) or undefined while that is not known yet. Shown before the step runs.
 */
export type ClockMove = (now: number | undefined) => number | undefined;

/** What a flow module sees of its run: the chosen outcome and amount, and the means to act, call and show. */
export interface FlowRun {
  readonly ports: DemoPorts;
  readonly outcome: Outcome;
  readonly amount: number;
  /** The run's fresh suffix (order, refund and link numbers). */
  readonly suffix: string;
  readonly merchantOrderNo: string;
  /** The order the run works on now (a payment link may move to a second one). */
  readonly currentOrderNo: string;
  readonly orders: readonly string[];
  readonly orderStatus: string | undefined;
  /**
   * Counts the notifications whose data carries this reference (a VAM top-up's bankReference) as the run's own,
   * besides those of the run's orders.
   */
  follow(reference: string): void;
  /** The order the run works on now: its expiry time, once Create order has answered. */
  readonly orderExpiresAt: string | undefined;
  /**
   * Adds a step; a flow's plan adds them all before the run starts. A step that moves the sandbox clock
   * says by how much (movesClock), so the reader is told before it runs.
   */
  add(title: string, actor: Actor, run: () => Promise<void>, options?: {movesClock?: ClockMove}): void;
  show(screen: Screen): void;
  note(kind: 'note' | 'shopper' | 'refused', text: string): void;
  /** A message on the customer's side, for example ('Frame → page', 'postMessage from https://…', {...}). */
  message(between: string, channel: string, data: Readonly<Record<string, unknown>>): void;
  /** Sends a signed call as the merchant's server and records it. */
  call(operationId: string, summary: string, method: string, target: string, body?: unknown): Promise<Answer>;
  /** A shopper or clock action; a refusal throws unless `refusal` is 'answer'. */
  act(name: string, input: Readonly<Record<string, unknown>>, text: string): Promise<unknown>;
  tryAct(
    name: string,
    input: Readonly<Record<string, unknown>>,
    text: string,
  ): Promise<{ok: true; value: unknown} | {ok: false; code: string; message: string}>;
  /** Moves the sandbox clock (the whole in-browser sandbox's) and records it in the timeline. */
  advance(seconds: number, text: string): Promise<void>;
  /** The merchant's settings as they are (control.configure with no change); nothing is recorded. */
  readSettings(): Promise<MerchantSettings>;
  /** Changes the merchant's settings and records it in the timeline; Reset puts back what it changed. */
  configure(settings: MerchantSettings, text: string): Promise<void>;
  /** Records a new order of this run (after a successful Create order), which starts new on the state machine. */
  adopt(merchantOrderNo: string, status: string | undefined, expiresAt?: string): void;
  /** Moves the run to another order number before creating it. */
  switchTo(merchantOrderNo: string): void;
  setOrderStatus(status: string | undefined): void;
  setRefundStatus(status: string | undefined): void;
}

/** A checkout flow as data: what it sells, on which device, its outcomes and its steps. */
export interface FlowDefinition {
  readonly id: string;
  readonly title: string;
  /** The device the reader sees first (each screen may name its own). */
  readonly device: 'desktop' | 'phone' | 'terminal';
  /** The heading over the shopper's side, for example "The customer's phone". */
  readonly deviceLabel: string;
  /** Amount in minor units of the flow's currency with the default ending (00). */
  readonly baseAmount: number;
  /** The currency of the amount; USD unless named (an invoice paid into a GBP virtual account). */
  readonly currency?: CurrencyCode;
  /** The flow creates no order (a bank transfer into a virtual account): the panel shows no order state machine. */
  readonly orderless?: true;
  /** The outcomes offered, from the sandbox data; the first is the default. */
  outcomes(data: SandboxData): Outcome[];
  /** The customer types the amount (a smart code): its ending picks the outcome. */
  readonly amountEntry?: true;
  /** The run's first order number. */
  orderNo?(suffix: string): string;
  /** The shopper's screen before the first step. */
  firstScreen(run: FlowRun): Screen;
  /** Adds the steps for the run's outcome. */
  plan(run: FlowRun): void;
  /** The state machines the server side shows besides the order's (the refund's for a refund outcome). */
  readonly showsRefund?: (outcome: Outcome) => boolean;
}

export const formatMoney = (minor: number, currency = 'USD'): string => `${(minor / 100).toFixed(2)} ${currency}`;
export const formatUsd = (minor: number): string => formatMoney(minor);

/** The amount a run uses: the flow's whole amount with the outcome's ending. */
export function amountFor(flow: Pick<FlowDefinition, 'baseAmount'>, outcome: Outcome, requested?: number): number {
  const whole =
    requested !== undefined && Number.isSafeInteger(requested) && requested >= 100 && requested <= 99_999_900
      ? Math.floor(requested / 100)
      : Math.floor(flow.baseAmount / 100);
  return whole * 100 + Number(outcome.ending);
}

/** The outcome an amount the customer typed produces: the one of its ending, or the default (any other ending pays). */
export function outcomeForAmount(outcomes: readonly Outcome[], amount: number): Outcome | undefined {
  const ending = String(amount % 100).padStart(2, '0');
  const byEnding = outcomes.filter(
    (candidate) => candidate.ending === ending && candidate.kind !== 'abandon' && candidate.kind !== 'refund',
  );
  return byEnding[0] ?? outcomes.find((candidate) => candidate.kind === 'success');
}
