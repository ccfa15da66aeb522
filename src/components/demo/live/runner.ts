/**
 * The live demos' runner: one run of a flow (flows/<flow>.ts) over a sandbox target (the in-page engine, the
 * same state as Try it and the sandbox console). It knows nothing of any flow: a flow adds its steps and
 * sets its shopper screens through `FlowRun`; the runner runs the steps one at a time, records the signed
 * calls, the states and each notification with its checks. It records what a run changes besides its own
 * orders (the merchant's settings), so a reset puts that back and closes the run's open orders.
 * Pure TypeScript (no React, no DOM), so the unit tests run every flow on a Node engine.
 */
import type {CheckedNotification, InboxNotification} from '@site/src/components/widgets/SandboxConsole/notificationChecks';
import type {MerchantCall, MerchantClient} from '@site/src/sandbox/client/merchant';
import type {SandboxTarget} from '@site/src/sandbox/client/target';
import type {MerchantSettings} from '@site/src/sandbox/engine/domain/merchants';
import type {SandboxData} from '@site/src/sandbox/engine/rules/types';
import type {Screen} from './screen';
import {
  amountFor,
  orderOf,
  outcomeForAmount,
  type Actor,
  type Answer,
  type ClockMove,
  type FlowDefinition,
  type FlowRun,
  type Outcome,
} from './flow';

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
  | {readonly kind: 'refused'; readonly id: number; readonly text: string}
  /** The sandbox clock moved: by how much, and the sandbox time it reached. */
  | {readonly kind: 'clock'; readonly id: number; readonly seconds: number; readonly text: string; readonly now: string}
  /** A change to the merchant's settings (control.configure), which Reset puts back. */
  | {readonly kind: 'setting'; readonly id: number; readonly text: string}
  | {readonly kind: 'state'; readonly id: number; readonly object: string; readonly from: string | undefined; readonly to: string}
  /** A message between the parts of the customer's side: the cashier frame's postMessage, a wallet bridge call and its callback. */
  | {
      readonly kind: 'message';
      readonly id: number;
      readonly between: string;
      readonly channel: string;
      readonly data: Readonly<Record<string, unknown>>;
    }
  | {
      readonly kind: 'notification';
      readonly id: number;
      readonly entry: InboxNotification;
      readonly checked: CheckedNotification;
      /** An earlier delivery of the same notificationId is in the timeline: a retry or a redelivery. */
      readonly again: boolean;
    };

export interface StepView {
  readonly title: string;
  readonly actor: Actor;
  readonly status: 'waiting' | 'done' | 'failed';
  /** How far the step moves the sandbox clock, in seconds, when it does and that is known before it runs. */
  readonly clockSeconds: number | undefined;
}

export interface RunView {
  readonly flow: string;
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

/** What the runner runs on: a sandbox target, a client signing as the test merchant, the inbox and the notification checks. */
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

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

interface Step {
  readonly title: string;
  readonly actor: Actor;
  run(): Promise<void>;
  readonly movesClock: ClockMove | undefined;
}

/** One change a run made to the merchant's settings: the values before and the values it set. */
interface SettingsChange {
  readonly clientId: string;
  readonly before: MerchantSettings;
  readonly after: MerchantSettings;
}

/** What a reset did, for the panel to say. */
export interface ResetReport {
  /** The orders it cancelled. */
  readonly cancelled: readonly string[];
  /** The settings it put back, as sentences. */
  readonly restored: readonly string[];
  /** What it could not do, as sentences. */
  readonly problems: readonly string[];
}

/** One run of a flow with one outcome. */
export class DemoRun implements FlowRun {
  private steps: Step[] = [];
  private readonly stepStatus: StepView['status'][] = [];
  /** The seconds each step that has run moved the sandbox clock. */
  private readonly stepMoved: number[] = [];
  private nextIndex = 0;
  private screen: Screen;
  private readonly events: TimelineEvent[] = [];
  private currentStatus: string | undefined;
  private refundStatus: string | undefined;
  private readonly created: string[] = [];
  /** References besides order numbers whose notifications are this run's (follow). */
  private readonly followed = new Set<string>();
  private error: string | undefined;
  private readonly settingsChanges: SettingsChange[] = [];
  /** The sandbox clock after the last step (undefined before the first), for the clock moves steps announce. */
  private clockNow: number | undefined;
  private inboxCursor: number;
  private eventId = 0;
  private chosen: Outcome;
  private chosenAmount: number;
  readonly suffix: string;
  readonly merchantOrderNo: string;
  private current: string;
  private expiresAt: string | undefined;

  constructor(
    readonly ports: DemoPorts,
    readonly flow: FlowDefinition,
    outcome: Outcome,
    requestedAmount?: number,
  ) {
    this.chosen = outcome;
    this.chosenAmount = amountFor(flow, outcome, requestedAmount);
    this.suffix = ports.newId();
    this.merchantOrderNo = flow.orderNo?.(this.suffix) ?? `ORD-DEMO-${this.suffix}`;
    this.current = this.merchantOrderNo;
    this.inboxCursor = ports.inbox().length;
    this.screen = flow.firstScreen(this);
    flow.plan(this);
  }

  get outcome(): Outcome {
    return this.chosen;
  }
  get amount(): number {
    return this.chosenAmount;
  }
  get currentOrderNo(): string {
    return this.current;
  }
  get orders(): readonly string[] {
    return this.created;
  }
  get orderStatus(): string | undefined {
    return this.currentStatus;
  }
  get orderExpiresAt(): string | undefined {
    return this.expiresAt;
  }
  get finished(): boolean {
    return this.nextIndex >= this.steps.length;
  }

  view(): RunView {
    return {
      flow: this.flow.id,
      outcome: this.chosen,
      amount: this.chosenAmount,
      merchantOrderNo: this.merchantOrderNo,
      steps: this.steps.map((step, index) => ({
        title: step.title,
        actor: step.actor,
        status: this.stepStatus[index] ?? 'waiting',
        clockSeconds: index < this.nextIndex ? this.stepMoved[index] || undefined : step.movesClock?.(this.clockNow),
      })),
      next: this.nextIndex,
      screen: this.screen,
      events: [...this.events],
      orderStatus: this.currentStatus,
      refundStatus: this.refundStatus,
      orders: [...this.created],
      error: this.error,
    };
  }

  /**
   * The customer typed an amount (a flow with amountEntry): allowed until the first order exists. Its ending
   * picks the outcome, and the steps not run yet are planned again for it.
   */
  enterAmount(amount: number, outcomes: readonly Outcome[]): RunView {
    if (!this.flow.amountEntry || this.created.length > 0) return this.view();
    const outcome = outcomeForAmount(outcomes, amount);
    if (!outcome) return this.view();
    this.chosen = outcome;
    this.chosenAmount = amount;
    const done = this.nextIndex;
    const doneSteps = this.steps.slice(0, done);
    this.steps = [];
    this.flow.plan(this);
    this.steps.splice(0, done, ...doneSteps);
    return this.view();
  }

  /** Runs the next step; a step that fails ends the run with its sentence (never a throw to the view). */
  async step(): Promise<RunView> {
    const step = this.steps[this.nextIndex];
    if (!step) return this.view();
    const eventsBefore = this.events.length;
    try {
      await step.run();
      await this.collectNotifications();
      this.clockNow = await this.ports.target.clock.now();
      this.stepMoved[this.nextIndex] = movedBy(this.events.slice(eventsBefore));
      this.stepStatus[this.nextIndex] = 'done';
      this.nextIndex += 1;
    } catch (error) {
      this.stepStatus[this.nextIndex] = 'failed';
      this.stepMoved[this.nextIndex] = movedBy(this.events.slice(eventsBefore));
      this.error = error instanceof Error ? error.message : String(error);
      this.nextIndex = this.steps.length;
    }
    return this.view();
  }

  /** Runs every remaining step. */
  async runToEnd(): Promise<RunView> {
    while (!this.finished) await this.step();
    return this.view();
  }

  /**
   * Undoes what this run changed besides the money it moved: puts back each setting it changed (newest first;
   * a setting changed since by someone else is left as it is), then cancels its orders that are still open.
   * Orders that moved money stay, since the ledger must reconcile; the sandbox clock stays where it is.
   */
  async undo(): Promise<ResetReport> {
    const restored: string[] = [];
    const cancelled: string[] = [];
    const problems: string[] = [];
    for (const change of [...this.settingsChanges].reverse()) {
      try {
        restored.push(...(await this.restore(change)));
      } catch (error) {
        problems.push(`The settings this demo changed could not be put back (${messageOf(error)}).`);
      }
    }
    this.settingsChanges.length = 0;
    for (const merchantOrderNo of this.created) {
      try {
        if (await this.cancelIfOpen(merchantOrderNo)) cancelled.push(merchantOrderNo);
      } catch (error) {
        problems.push(`Order ${merchantOrderNo} could not be cancelled (${messageOf(error)}); it closes at its expiry time.`);
      }
    }
    return {cancelled, restored, problems};
  }

  private async cancelIfOpen(merchantOrderNo: string): Promise<boolean> {
    const detail = await this.ports.client.call({method: 'GET', target: `/v1/orders/${encodeURIComponent(merchantOrderNo)}`, body: ''});
    const status = orderOf((JSON.parse(detail.response.body) as {data?: unknown}).data).status;
    if (status !== 'PENDING') return false;
    const cancel = await this.ports.client.call({
      method: 'POST',
      target: `/v1/orders/${encodeURIComponent(merchantOrderNo)}/cancel`,
      body: JSON.stringify({reason: 'Live demo reset'}),
    });
    return cancel.response.status === 200;
  }

  /** Sets back each setting of a change that still has the value the run gave it; answers what it set back. */
  private async restore(change: SettingsChange): Promise<string[]> {
    const now = await this.readSettingsOf(change.clientId);
    const back: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(change.after)) {
      if (now[name as keyof MerchantSettings] === value) back[name] = change.before[name as keyof MerchantSettings];
    }
    if (Object.keys(back).length === 0) return [];
    await this.configureOn(change.clientId, back);
    return Object.entries(back).map(([name, value]) => `${name} back to ${JSON.stringify(value)}`);
  }

  private async readSettingsOf(clientId: string): Promise<MerchantSettings> {
    return this.configureOn(clientId, {});
  }

  private async configureOn(clientId: string, settings: Readonly<Record<string, unknown>>): Promise<MerchantSettings> {
    const result = await this.ports.target.act('control.configure', {clientId, ...settings});
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    return result.value as MerchantSettings;
  }

  readSettings(): Promise<MerchantSettings> {
    return this.readSettingsOf(this.ports.client.clientId);
  }

  async configure(settings: MerchantSettings, text: string): Promise<void> {
    const clientId = this.ports.client.clientId;
    const current = await this.readSettingsOf(clientId);
    const after = await this.configureOn(clientId, {...settings});
    const before: Record<string, unknown> = {};
    const changed: Record<string, unknown> = {};
    for (const name of Object.keys(settings) as (keyof MerchantSettings)[]) {
      if (current[name] === after[name]) continue;
      before[name] = current[name];
      changed[name] = after[name];
    }
    if (Object.keys(changed).length === 0) return;
    this.settingsChanges.push({clientId, before, after: changed});
    const putBack = Object.entries(before)
      .map(([name, value]) => `${name} to ${JSON.stringify(value)}`)
      .join(' and ');
    this.push({kind: 'setting', text: `${text} Reset sets ${putBack} again.`});
  }

  /**
   * Your server asks for one of this run's notifications again (Redeliver event), as you would to test that
   * your handler does nothing twice; the new delivery joins the timeline. A refusal is a line, never a throw.
   */
  async redeliver(notificationId: string): Promise<RunView> {
    try {
      const target = `/v1/events/${encodeURIComponent(notificationId)}/redeliver`;
      const json = await this.call('redeliverEvent', 'Redeliver event', 'POST', target);
      if (json.code !== 'SUCCESS') this.note('refused', `${json.code}: ${json.message}`);
      await this.collectNotifications();
    } catch (error) {
      this.note('refused', `Redeliver event could not be sent: ${messageOf(error)}`);
    }
    return this.view();
  }

  follow(reference: string): void {
    this.followed.add(reference);
  }

  add(title: string, actor: Actor, run: () => Promise<void>, options: {movesClock?: ClockMove} = {}): void {
    this.steps.push({title, actor, run, movesClock: options.movesClock});
  }

  show(screen: Screen): void {
    this.screen = screen;
  }

  note(kind: 'note' | 'shopper' | 'refused', text: string): void {
    this.push({kind, text});
  }

  message(between: string, channel: string, data: Readonly<Record<string, unknown>>): void {
    this.push({kind: 'message', between, channel, data});
  }

  adopt(merchantOrderNo: string, status: string | undefined, expiresAt?: string): void {
    this.current = merchantOrderNo;
    this.created.push(merchantOrderNo);
    this.expiresAt = expiresAt;
    // A new order starts its own life on the state machine: it did not come from the previous order's state.
    this.currentStatus = undefined;
    this.setOrderStatus(status);
  }

  switchTo(merchantOrderNo: string): void {
    this.current = merchantOrderNo;
  }

  setOrderStatus(status: string | undefined): void {
    if (!status || status === this.currentStatus) return;
    this.push({kind: 'state', object: `Order ${this.current}`, from: this.currentStatus, to: status});
    this.currentStatus = status;
  }

  setRefundStatus(status: string | undefined): void {
    if (!status || status === this.refundStatus) return;
    this.push({kind: 'state', object: 'Refund', from: this.refundStatus, to: status});
    this.refundStatus = status;
  }

  async call(operationId: string, summary: string, method: string, target: string, body?: unknown): Promise<Answer> {
    const call = await this.ports.client.call({method, target, body: body === undefined ? '' : JSON.stringify(body)});
    let json: Answer;
    try {
      json = JSON.parse(call.response.body) as Answer;
    } catch {
      throw new Error(`${summary} answered HTTP ${call.response.status} with a body that is not JSON.`);
    }
    this.push({kind: 'call', operationId, summary, call, code: json.code});
    return json;
  }

  async tryAct(name: string, input: Readonly<Record<string, unknown>>, text: string) {
    this.push({kind: 'shopper', text});
    return this.ports.target.act(name, input);
  }

  async act(name: string, input: Readonly<Record<string, unknown>>, text: string): Promise<unknown> {
    const result = await this.tryAct(name, input, text);
    if (!result.ok) throw new Error(`The sandbox refused ${name}: ${result.code}: ${result.message}`);
    return result.value;
  }

  /**
   * Moves the one clock of the reader's sandbox, on purpose. The hosted sandbox's clock per merchant
   * (engine/merchantClock.ts) would not keep it apart: it is an offset on the merchant's record, and a demo's
   * orders must be the published test merchant's (the merchant Try it signs as and whose newest orders it
   * prefills), so its offset is the clock Try it and the console read anyway. A merchant of the demo's own
   * would keep its clock apart, but then Try it could not retrieve the demo's orders. So each step that moves
   * the clock says so first (movesClock), and Reset says it does not turn it back.
   */
  async advance(seconds: number, text: string): Promise<void> {
    const result = await this.ports.target.act('clock.advance', {seconds});
    if (!result.ok) throw new Error(`The sandbox clock could not move: ${result.code}: ${result.message}`);
    const now = String((result.value as {now?: unknown}).now ?? '');
    this.push({kind: 'clock', seconds, text, now});
  }

  private push(event: DistributiveOmit<TimelineEvent, 'id'>): void {
    this.eventId += 1;
    this.events.push({...event, id: this.eventId} as TimelineEvent);
  }

  private async collectNotifications(): Promise<void> {
    const inbox = this.ports.inbox();
    const fresh = inbox.slice(this.inboxCursor);
    this.inboxCursor = inbox.length;
    for (const entry of fresh) {
      let parsed: {data?: {merchantOrderNo?: string; bankReference?: string}};
      try {
        parsed = JSON.parse(entry.body) as typeof parsed;
      } catch {
        continue;
      }
      const {merchantOrderNo, bankReference} = parsed.data ?? {};
      const own =
        (merchantOrderNo !== undefined && this.created.includes(merchantOrderNo)) ||
        (bankReference !== undefined && this.followed.has(bankReference));
      if (!own) continue;
      const checked = await this.ports.check(entry);
      const again = this.events.some((event) => event.kind === 'notification' && event.checked.notificationId === checked.notificationId);
      this.push({kind: 'notification', entry, checked, again});
    }
  }
}

/** The seconds the clock events among `events` moved the sandbox clock. */
const movedBy = (events: readonly TimelineEvent[]): number =>
  events.reduce((sum, event) => sum + (event.kind === 'clock' ? event.seconds : 0), 0);

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Undoes runs newest first (the first run's record holds the settings as the reader had them), and says what it did. */
export async function resetRuns(runs: readonly DemoRun[]): Promise<ResetReport> {
  const reports = [];
  for (const run of [...runs].reverse()) reports.push(await run.undo());
  return {
    cancelled: reports.flatMap((report) => report.cancelled),
    restored: reports.flatMap((report) => report.restored),
    problems: reports.flatMap((report) => report.problems),
  };
}

/** A clock move for reading: seconds under two minutes, minutes under two hours, then hours. */
export function formatClockMove(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  const hours = Math.round((seconds / 3600) * 10) / 10;
  return `${hours} h`;
}

/** The replay link's query: flow, outcome and amount. */
export function replayQuery(view: Pick<RunView, 'flow' | 'outcome' | 'amount'>): string {
  return `?demo=${view.flow}&outcome=${encodeURIComponent(view.outcome.id)}&amount=${view.amount}`;
}

/** Reads a replay query for this flow; undefined members for anything missing or not this flow's. */
export function readReplayQuery(search: string, flow: string, outcomes: readonly Outcome[]): {outcome?: Outcome; amount?: number} {
  const params = new URLSearchParams(search);
  if (params.get('demo') !== flow) return {};
  const outcome = outcomes.find((candidate) => candidate.id === params.get('outcome'));
  const amountText = params.get('amount') ?? '';
  const amount = /^\d{3,8}$/.test(amountText) ? Number(amountText) : undefined;
  return {...(outcome ? {outcome} : {}), ...(amount !== undefined ? {amount} : {})};
}
