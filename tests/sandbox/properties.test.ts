/**
 * Property-based tests of the sandbox engine: fast-check draws 400 sessions of 5 to 25 steps (API calls signed
 * as a merchant would sign them, shopper and test-tool actions, replays of earlier requests, faults and clock
 * advances of 0 s to 2 days; tests/support/sandboxArbitraries.ts) and runs each on a fresh engine over a fixed
 * clock, with a transport that records and acknowledges every notification. After every step, and after every
 * instant at which jobs run while the clock advances, the invariants below must hold; at the end of a session
 * the daily statements must reconcile. A failure prints the shrunk session and the trace of what each step did.
 *
 *   P1  money is conserved: ledger legs = opening balances + statement rows; other entries move money between
 *       legs; balances() = the ledger = Get balance; frozen = what PROCESSING refunds and payouts and OPEN
 *       chargebacks reserve; every day's statement reconciles (opening + movements = closing = next opening).
 *   P2  refunds never exceed what was paid: refunded + processing + disputed <= amount; refundableAmount,
 *       refundedAmount and disputedAmount are what the contract defines; the status agrees with them.
 *   P3  terminal states never change.
 *   P4  every status change between two observations is a transition the contract's x-state-machine declares;
 *       a new object starts in the initial state or one transition from it; timed transitions are not late
 *       (no order PENDING after its expiresAt, no agreement waiting after its authorizationExpiresAt).
 *   P5  idempotency (x-idempotency): an equal body replays the current state (Idempotent-Replayed: true, same
 *       ID), a different one is IDEMPOTENCY_CONFLICT, a rejected request reserves and changes nothing, and one
 *       first rejected by its amount ending succeeds once corrected.
 *   P6  every response is signed with the provider key and matches the contract (CallResult.problems), with
 *       the HTTP status of its result code; SYSTEM_BUSY and INTERNAL_ERROR come only from faults set, in order.
 *   P7  every notification verifies with the provider key over POST, the notifyUrl's path and query, the client
 *       ID, X-Timestamp, X-Nonce and the raw body; matches its webhook's schema; goes where the routing rules say;
 *       carries the status its event type names; every event with a URL is delivered, the others are NO_URL.
 *   P8  the Create order ending rules apply first, to every scene (sandbox.yaml payments.precedence): 59 is
 *       rejected, 92 holds the response.
 *
 * Sessions that found engine bugs run first, as regression tests (`regressions` below).
 *
 * Run: node --import tsx --test tests/sandbox/properties.test.ts
 * Replay a failure: PBT_SEED=<seed> PBT_PATH=<path> (both printed by fast-check) with the same command.
 * Explore: PBT_RUNS=<sessions> PBT_MAX_STEPS=<steps> for longer hunts; PBT_STATS=1 prints how often each call
 * answered each code (what the sessions reach); PBT_TRACE=1 prints every session's trace.
 */
import {test} from 'node:test';
import {isDeepStrictEqual} from 'node:util';
import fc from 'fast-check';
import {fixedClock, isoSeconds, utcDay} from '../../src/sandbox/engine/clock';
import type {SandboxEngine} from '../../src/sandbox/engine/engine';
import type {NotificationTransport} from '../../src/sandbox/engine/http';
import {matchOperation} from '../../src/sandbox/engine/pipeline/route';
import type {JsonObject} from '../../src/sandbox/engine/state';
import {createNodeEngine, sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';
import {canonicalString, importPublicKey, parseSignatureHeader, verifyCanonical} from '../../src/lib/signing';
import {deref, type OpenApiDocument} from '../../src/contract/openapiTypes';
import {pointerSegment} from '../../src/contract/validator';
import {providerPublicKeyPem, sandboxClient, type CallResult} from '../support/sandboxClient';
import {fixtures, missingRef, sessionArbitrary, unknown, type Session, type Step} from '../support/sandboxArbitraries';

const {spec, validator, contract} = sandboxFiles();
const data = spec.sandbox;
const clientId = data.merchant.clientId;
const providerKey = importPublicKey(providerPublicKeyPem);

/**
 * Sessions per run, and their length. Each run draws a new seed, so runs add up to a search of their own; 400 per
 * run (1,000 until 2026-11-27) keeps the file near 35 s of processor time in a test command bound by the processor on
 * two cores (a failure adds its shrinking). PBT_RUNS=5000 for a long hunt.
 */
const numRuns = Number(process.env['PBT_RUNS'] ?? 400);
const sessionLength = {minLength: 5, maxLength: Number(process.env['PBT_MAX_STEPS'] ?? 25)};

// ---- What the contract and the sandbox data say -------------------------------------------------------

/** Event type to the JSON pointer of its webhook's request body schema, read from the contract's webhooks. */
const webhookSchemaOf: ReadonlyMap<string, string> = (() => {
  const doc = contract.document as OpenApiDocument;
  const map = new Map<string, string>();
  for (const [name, item] of Object.entries(doc.webhooks ?? {})) {
    const pointer = `/webhooks/${pointerSegment(name)}/post/requestBody/content/${pointerSegment('application/json')}/schema`;
    const schema = item.post?.requestBody?.content?.['application/json']?.schema;
    if (!schema) continue;
    const resolved = deref(doc, schema);
    for (const part of [resolved, ...(resolved.allOf ?? [])]) {
      const eventType = deref(doc, part).properties?.['eventType'];
      for (const value of (eventType ? deref(doc, eventType).enum : undefined) ?? []) map.set(String(value), pointer);
    }
  }
  if (map.size === 0) throw new Error('The contract declares no webhook event types.');
  return map;
})();

const paidStatuses = ['PAID', 'PARTIALLY_REFUNDED', 'REFUNDED'];
/** Scenes whose payment the shopper makes in the cashier, SDK or wallet (not cash, not inside Create order). */
const shopperScenes = data.payments.scenes
  .filter((scene) => scene.attempt === 'PAYER' && !scene.methods.includes('CASH'))
  .map((scene) => scene.scene);
const machineOfPayout = (transferId: string) =>
  transferId.startsWith('trf_') ? 'TransferStatus' : transferId.startsWith('btr_') ? 'BankTransferStatus' : 'CardPayoutStatus';
const kindOfPayout = (transferId: string) => (transferId.startsWith('trf_') ? 'WALLET' : transferId.startsWith('btr_') ? 'BANK' : 'CARD');
const payoutPath = {WALLET: '/v1/transfers', BANK: '/v1/bank-transfers', CARD: '/v1/card-payouts'} as const;

/** Which operation a request line is, by the engine's matcher. */
const operationIdOf = (method: string, target: string) => {
  const match = matchOperation(spec.operations, method, target);
  return match.found ? match.operation.operationId : undefined;
};

const endingOf = (value: number) => String(value % 100).padStart(2, '0');
const createOrderRule = (value: number) =>
  data.payments.endings.rules.find((rule) => rule.ending === endingOf(value) && rule.at === 'CREATE_ORDER');
const rejectingEnding = {
  createOrder: data.payments.endings.rules.find((rule) => rule.at === 'CREATE_ORDER' && rule.kind === 'REJECTED'),
  refundOrder: data.refunds.endings.rules.find((rule) => rule.kind === 'REJECTED'),
  payout: data.payouts.endings.rules.find((rule) => rule.kind === 'REJECTED'),
};

/** PBT_STATS=1 prints how often each call and action answered each code, to see what the sessions reach. */
const tally = process.env['PBT_STATS'] ? new Map<string, number>() : undefined;

/**
 * What an event type says about the object it carries (the webhooks' eventType descriptions): ORDER.PAID an
 * order PAID, REFUND.FAILED a refund FAILED, AGREEMENT.AUTHORIZED an agreement ACTIVE...
 */
function statusOfEvent(eventType: string, payload: JsonObject): {field: string; actual: unknown; expected: unknown} {
  const [kind = '', what = ''] = eventType.split('.');
  const status = payload['status'];
  if (eventType === 'ORDER.PAYMENT_FAILED')
    return {field: 'lastAttempt.status', actual: (payload['lastAttempt'] as {status?: string} | undefined)?.status, expected: 'FAILED'};
  if (kind === 'VAM') return {field: 'nothing', actual: undefined, expected: undefined};
  const expected = ({'CHARGEBACK.OPENED': 'OPEN', 'AGREEMENT.AUTHORIZED': 'ACTIVE'} as Record<string, string>)[eventType] ?? what;
  return {field: 'status', actual: status, expected};
}

// ---- Failures -----------------------------------------------------------------------------------------

class PropertyFailure extends Error {
  override name = 'PropertyFailure';
}

function check(condition: unknown, property: string, message: string | (() => string)): asserts condition {
  if (!condition) throw new PropertyFailure(`${property}: ${typeof message === 'string' ? message : message()}`);
}

const json = (value: unknown) => JSON.stringify(value);
const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
const valueOf = (object: JsonObject, field: string) => (object[field] as {value: number} | undefined)?.value;

/** The same JSON value with every object's members in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([key, member]) => [key, reversed(member)]),
    );
  return value;
}

// ---- One session ----------------------------------------------------------------------------------------

type WriteOp = 'createOrder' | 'refundOrder' | 'transfer' | 'transferToBank' | 'transferToBankCard' | 'createAgreement';
type Namespace = 'order' | 'refund' | 'transfer' | 'agreement';

interface SentWrite {
  readonly op: WriteOp;
  readonly namespace: Namespace;
  readonly number: string;
  readonly target: string;
  readonly body: JsonObject;
  readonly firstCode: string;
  readonly quoted: boolean;
}

interface Accepted {
  readonly op: WriteOp;
  readonly target: string;
  readonly body: JsonObject;
  readonly id: string;
  /** Create order: the nextAction issued first, which a replay returns. */
  readonly nextAction?: unknown;
}

interface Delivery {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

type Observed = {readonly machine: string; readonly status: string};

const namespaceOf: Record<WriteOp, Namespace> = {
  createOrder: 'order',
  refundOrder: 'refund',
  transfer: 'transfer',
  transferToBank: 'transfer',
  transferToBankCard: 'transfer',
  createAgreement: 'agreement',
};

class World {
  readonly trace: string[] = [];
  /** The session step being run. */
  step = -1;
  private readonly received: Delivery[] = [];
  private verified = 0;
  private lastHold: number | undefined;
  private counter = 0;
  private readonly orderNos: string[] = [];
  private readonly refundNos: string[] = [];
  private readonly transferNos: string[] = [];
  private readonly agreementNos: string[] = [];
  private readonly sent: SentWrite[] = [];
  private readonly accepted = new Map<string, Accepted>();
  private readonly tombstones = new Set<string>();
  /** Faults set with control.setFault and not answered yet, in the order they were set. */
  private readonly faults: Array<{readonly resultCode: string; readonly operationId: string}> = [];
  private observed = new Map<string, Observed>();
  private client!: ReturnType<typeof sandboxClient>;
  private engine!: SandboxEngine;

  constructor(private readonly session: Session) {}

  async start(): Promise<void> {
    const transport: NotificationTransport = {
      deliver: async (delivery) => {
        this.received.push({url: delivery.url, headers: {...delivery.headers}, body: delivery.body});
        return {status: 200, body: '{"code":"SUCCESS"}'};
      },
    };
    this.engine = await createNodeEngine({clock: fixedClock(Date.parse(this.session.start)), transport, rateLimits: false});
    this.client = sandboxClient({
      handle: async (request) => {
        const response = await this.engine.handle(request);
        this.lastHold = response.holdSeconds;
        return response;
      },
      now: () => this.engine.clock.now(),
    });
    if (this.session.defaultNotifyUrl) {
      const configured = await this.engine.control.configure(clientId, {defaultNotifyUrl: this.session.defaultNotifyUrl});
      check(configured.ok, 'setup', json(configured));
    }
    await this.checkAll();
  }

  private get snapshot() {
    const snapshot = this.engine.snapshot(clientId);
    if (!snapshot) throw new Error('The test merchant is missing.');
    return snapshot;
  }

  private next(prefix: string): string {
    this.counter += 1;
    return `${prefix}-${String(this.counter).padStart(6, '0')}`;
  }

  private pick<T>(items: readonly T[], index: number): T | undefined {
    return items.length === 0 ? undefined : items[index % items.length];
  }

  /**
   * The order a step names: among the stored orders that suit it (or all stored orders, when none does), the
   * newest for ref 0, the one before for 1...; from missingRef on, a number with no order behind it.
   */
  private resolveOrder(ref: number, suits: (order: JsonObject) => boolean = () => true): string {
    if (ref >= missingRef) {
      const missing = this.orderNos.filter((no) => this.order(no) === undefined);
      const no = missing[ref % Math.max(1, missing.length)] ?? this.next('ORD');
      if (!this.orderNos.includes(no)) this.orderNos.push(no);
      return no;
    }
    return String(this.newest(this.snapshot.orders, ref, suits)?.['merchantOrderNo'] ?? this.pick(this.orderNos, ref) ?? 'ORD-none-000');
  }

  /** Among `items`, those that suit (or all, when none does), newest first: the ref-th. */
  private newest(items: readonly JsonObject[], ref: number, suits: (item: JsonObject) => boolean): JsonObject | undefined {
    const suiting = items.filter(suits);
    const candidates = suiting.length > 0 ? suiting : items;
    return candidates.length === 0 ? undefined : candidates[candidates.length - 1 - (ref % candidates.length)];
  }

  private order(no: string): JsonObject | undefined {
    return this.snapshot.orders.find((order) => order['merchantOrderNo'] === no);
  }

  /** Everything the API can observe, to tell whether a call changed anything. */
  private fingerprint(): string {
    const snapshot = this.snapshot;
    return json([
      snapshot.orders,
      snapshot.refunds,
      snapshot.payouts,
      snapshot.agreements,
      snapshot.chargebacks,
      snapshot.events.length,
      this.engine.ledger(clientId).length,
    ]);
  }

  private log(line: string): void {
    this.trace.push(`  ${isoSeconds(this.engine.clock.now())} ${line}`);
    if (tally) {
      const outcome = / -> (.*)$/.exec(line);
      if (outcome) {
        const what = `${line
          .replace(/\/[A-Z]{3}-[0-9a-z-]+/g, '/{no}')
          .replace(/ [{"].*$| -> .*$/, '')
          .replace(/ (ORD|RFD|TRF|AGR|BTR|CPO)-\S+| cbk_\S+| https\S+| \d+.*$/g, '')
          .replace(/ntf_[A-Za-z0-9]+/, '{id}')} -> ${outcome[1]}`;
        tally.set(what, (tally.get(what) ?? 0) + 1);
      }
    }
  }

  // ---- Calls -----------------------------------------------------------------------------------------

  /** A signed call; P6 for its answer, and P5 (nothing changes) when it is a read or a rejection. */
  private async api(method: string, target: string, body?: unknown): Promise<CallResult & {holdSeconds: number | undefined}> {
    const before = this.fingerprint();
    this.lastHold = undefined;
    const result = await this.client.call(method, target, body);
    const code = result.json.code;
    this.log(
      `${method} ${target}${body === undefined ? '' : ` ${typeof body === 'string' ? body : json(body)}`} -> ${code}${result.json.data && typeof result.json.data['status'] === 'string' ? ` ${result.json.data['status']}` : ''}`,
    );
    check(
      result.problems.length === 0,
      'P6 response signed and as the contract says',
      () => `${method} ${target} answered ${result.status} ${result.body}:\n    ${result.problems.join('\n    ')}`,
    );
    this.checkFault(method, target, code, result.json.message);
    const known = spec.resultCodes[code];
    check(
      known?.httpStatus === result.status,
      'P6 response signed and as the contract says',
      `${method} ${target}: ${code} with HTTP ${result.status}, the catalogue says ${known?.httpStatus ?? 'nothing'}`,
    );
    if ((code !== 'SUCCESS' && code !== 'INTERNAL_ERROR') || method === 'GET') {
      check(
        before === this.fingerprint(),
        'P5 a rejected request changes nothing',
        () => `${method} ${target} ${json(body)} answered ${code} but changed the sandbox's state`,
      );
    }
    return {...result, holdSeconds: this.lastHold};
  }

  /**
   * SYSTEM_BUSY and INTERNAL_ERROR come only from a fault set for the operation (sandbox.yaml faults), and a
   * fault answers the next call of its operation: SYSTEM_BUSY instead of it, INTERNAL_ERROR after a call that
   * was carried out (a call the sandbox rejects anyway keeps its rejection).
   */
  private checkFault(method: string, target: string, code: string, message: string): void {
    const operationId = operationIdOf(method, target) ?? '';
    const index = this.faults.findIndex((fault) => fault.operationId === operationId);
    const pending = this.faults[index];
    const P6 = 'P6 response signed and as the contract says';
    if (code === 'SYSTEM_BUSY' || code === 'INTERNAL_ERROR') {
      check(
        pending?.resultCode === code,
        P6,
        `${method} ${target} answered ${code} (${message}), but the next fault set for ${operationId} is ${pending ? `${pending.resultCode}, which answers this call` : 'none'} (faults still set: ${json(this.faults)})`,
      );
      this.faults.splice(index, 1);
    } else if (pending) {
      check(
        pending.resultCode !== 'SYSTEM_BUSY',
        P6,
        `${method} ${target} answered ${code}: the SYSTEM_BUSY fault set for ${operationId} should have answered it`,
      );
      check(
        code !== 'SUCCESS',
        P6,
        `${method} ${target} answered SUCCESS: the INTERNAL_ERROR fault set for ${operationId} should have answered it`,
      );
    }
  }

  /** The object a write's SUCCESS answer carries. */
  private objectOf(op: WriteOp, data: Record<string, unknown> | undefined): JsonObject {
    return (op === 'createOrder' ? data?.['order'] : data) as JsonObject;
  }

  private idOf(op: WriteOp, object: JsonObject | undefined): string {
    const field =
      op === 'createOrder' ? 'orderId' : op === 'refundOrder' ? 'refundId' : op === 'createAgreement' ? 'agreementId' : 'transferId';
    return String(object?.[field] ?? '');
  }

  /** The stored object a number names now. */
  private stored(namespace: Namespace, number: string): JsonObject | undefined {
    const snapshot = this.snapshot;
    switch (namespace) {
      case 'order':
        return snapshot.orders.find((order) => order['merchantOrderNo'] === number);
      case 'refund':
        return snapshot.refunds.find((refund) => refund['merchantRefundNo'] === number);
      case 'transfer':
        return snapshot.payouts.find((payout) => payout['merchantTransferNo'] === number);
      case 'agreement':
        return snapshot.agreements.find((agreement) => agreement['merchantAgreementNo'] === number);
    }
  }

  /** An idempotent write (P5): replay, conflict or a fresh evaluation, by what this number was accepted with. */
  private async write(op: WriteOp, target: string, body: JsonObject, quoted = false, raw?: string): Promise<CallResult> {
    const namespace = namespaceOf[op];
    const number = String(
      body[
        namespace === 'order'
          ? 'merchantOrderNo'
          : namespace === 'refund'
            ? 'merchantRefundNo'
            : namespace === 'agreement'
              ? 'merchantAgreementNo'
              : 'merchantTransferNo'
      ],
    );
    const key = `${namespace}/${number}`;
    const prior = this.accepted.get(key);
    const before = this.fingerprint();
    const result = await this.api('POST', target, raw ?? body);
    const code = result.json.code;
    const replayed = result.headers['Idempotent-Replayed'];
    const P5 = 'P5 idempotency';
    if (prior) {
      const same = prior.op === op && prior.target === target && isDeepStrictEqual(prior.body, body);
      if (code === 'SYSTEM_BUSY' || code === 'INTERNAL_ERROR') {
        check(
          before === this.fingerprint(),
          P5,
          `a ${code} fault answered a ${same ? 'replay' : 'conflicting request'} of ${number}, which changed the state`,
        );
      } else if (same) {
        check(code === 'SUCCESS', P5, `${op} ${number} with the body it was accepted with answered ${code}, not a replay`);
        check(replayed === 'true', P5, `the replay of ${op} ${number} has Idempotent-Replayed ${String(replayed)}`);
        const object = this.objectOf(op, result.json.data);
        check(
          this.idOf(op, object) === prior.id,
          P5,
          `the replay of ${number} returned ${this.idOf(op, object)}, the first answer ${prior.id}`,
        );
        check(
          isDeepStrictEqual(object, clone(this.stored(namespace, number))),
          P5,
          () =>
            `the replay of ${number} is not the object's current state:\n    replay ${json(object)}\n    stored ${json(this.stored(namespace, number))}`,
        );
        if (op === 'createOrder' && prior.nextAction !== undefined) {
          check(
            isDeepStrictEqual(result.json.data?.['nextAction'], prior.nextAction),
            P5,
            `the replay of ${number} returned another nextAction than the first answer`,
          );
        }
        check(before === this.fingerprint(), P5, `the replay of ${number} changed the state`);
      } else {
        check(
          code === 'IDEMPOTENCY_CONFLICT',
          P5,
          () => `${op} ${number} with a different body (or kind, or order) than the accepted ${prior.op} answered ${code}`,
        );
        check(replayed === undefined, P5, `a conflict on ${number} carries Idempotent-Replayed`);
      }
    } else {
      check(
        code !== 'IDEMPOTENCY_CONFLICT',
        P5,
        `${op} ${number} answered IDEMPOTENCY_CONFLICT, but no request with this number was ever accepted`,
      );
      check(
        replayed === undefined,
        P5,
        `${op} ${number} answered with Idempotent-Replayed ${String(replayed)}, but the number was never accepted`,
      );
      if (code === 'SUCCESS') {
        const object = this.objectOf(op, result.json.data);
        const stored = this.stored(namespace, number);
        check(stored !== undefined, P5, `${op} ${number} answered SUCCESS but nothing is stored under the number`);
        check(
          isDeepStrictEqual(object, clone(stored)),
          P5,
          () => `${op} ${number} answered another object than it stored:\n    answer ${json(object)}\n    stored ${json(stored)}`,
        );
        this.accepted.set(key, {
          op,
          target,
          body,
          id: this.idOf(op, object),
          ...(op === 'createOrder' ? {nextAction: result.json.data?.['nextAction']} : {}),
        });
      } else if (code === 'INTERNAL_ERROR') {
        // The call was carried out (sandbox.yaml faults): the number is taken, the identical request replays it.
        const stored = this.stored(namespace, number);
        check(stored !== undefined, P5, `INTERNAL_ERROR is answered after the call was carried out, but ${number} stores nothing`);
        this.accepted.set(key, {op, target, body, id: this.idOf(op, stored)});
      }
    }
    this.sent.push({op, namespace, number, target, body, firstCode: code, quoted});
    return result;
  }

  // ---- Steps -------------------------------------------------------------------------------------------

  async run(step: Step, label: string): Promise<void> {
    this.log(`${label} ${json(step)}`);
    switch (step.op) {
      case 'createOrder':
        await this.createOrder(step);
        break;
      case 'retrieveOrder': {
        const no = this.resolveOrder(step.order);
        const result = await this.api('GET', `/v1/orders/${no}`);
        const stored = this.order(no);
        if (stored)
          check(
            result.json.code === 'SUCCESS' && isDeepStrictEqual(result.json.data, clone(stored)),
            'P5 idempotency',
            `Retrieve order ${no} does not return the stored order`,
          );
        else
          check(
            result.json.code === 'ORDER_NOT_FOUND',
            'P5 a rejected request changes nothing',
            `Retrieve order ${no}, which does not exist, answered ${result.json.code}`,
          );
        break;
      }
      case 'query':
        await this.query(step);
        break;
      case 'cancel': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PENDING' || order['status'] === 'PROCESSING');
        const result = await this.api('POST', `/v1/orders/${no}/cancel`, {});
        if (result.json.code === 'SUCCESS')
          check(
            result.json.data?.['status'] === 'CLOSED',
            'P4 state machine',
            `Cancel order ${no} answered SUCCESS with the order ${String(result.json.data?.['status'])}`,
          );
        break;
      }
      case 'revoke': {
        const no = step.freshNumber ? this.next('ORD') : this.resolveOrder(step.order);
        if (!this.orderNos.includes(no)) this.orderNos.push(no);
        const existed = this.order(no) !== undefined;
        const result = await this.api('POST', `/v1/orders/${no}/revoke`, {reason: 'Till timed out'});
        if (!existed && result.json.code === 'ORDER_NOT_FOUND') this.tombstones.add(no);
        break;
      }
      case 'refund':
        await this.refund(step);
        break;
      case 'transfer': {
        const wallet = data.wallets.find((candidate) => candidate.phone === step.payee);
        const payee: JsonObject = step.byWalletId
          ? {payeeType: 'WALLET_ID', walletId: wallet?.walletId ?? unknown.walletId}
          : {payeeType: 'PHONE', phoneNumber: step.payee};
        const no = this.next('TRF');
        this.transferNos.push(no);
        await this.write('transfer', payoutPath.WALLET, {
          merchantTransferNo: no,
          amount: {value: step.amount, currency: step.currency},
          payee,
          remark: 'Property test',
          ...(step.notifyUrl ? {notifyUrl: step.notifyUrl} : {}),
        });
        break;
      }
      case 'bankTransfer':
        await this.bankTransfer(step);
        break;
      case 'cardPayout': {
        const no = this.next('CPO');
        this.transferNos.push(no);
        await this.write('transferToBankCard', payoutPath.CARD, {
          merchantTransferNo: no,
          amount: {value: step.amount, currency: step.currency},
          card: {cardNumber: step.card, expiryMonth: 12, expiryYear: 2028, holderName: 'Jonas Becker'},
          ...(step.notifyUrl ? {notifyUrl: step.notifyUrl} : {}),
        });
        break;
      }
      case 'replay':
        await this.replay(step);
        break;
      case 'pay': {
        const no = this.resolveOrder(
          step.order,
          (order) => order['status'] === 'PENDING' && shopperScenes.includes(String(order['scene'])),
        );
        const order = this.order(no);
        const methods = step.anyMethod
          ? ['WALLET', 'CARD', 'BANK_TRANSFER']
          : (data.payments.scenes.find((scene) => scene.scene === order?.['scene'])?.methods ?? ['WALLET']);
        const method = methods[step.method % methods.length];
        const phone = step.phone ?? this.everydayWallet(order);
        const choice =
          method === 'CARD'
            ? ({method: 'CARD', cardNumber: step.card} as const)
            : method === 'BANK_TRANSFER'
              ? ({method: 'BANK_TRANSFER'} as const)
              : ({
                  method: 'WALLET',
                  phone,
                  pin: step.wrongPin ? '000000' : (data.wallets.find((wallet) => wallet.phone === phone)?.pin ?? '123456'),
                } as const);
        await this.action(`shopper.pay ${no} ${json(choice)}`, () => this.engine.shopper.pay(clientId, no, choice));
        break;
      }
      case 'payCash': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PENDING' && order['scene'] === 'CASH_TOP_UP');
        const nextAction = no ? this.accepted.get(`order/${no}`)?.nextAction : undefined;
        const reference = (nextAction as {paymentReference?: string} | undefined)?.paymentReference ?? unknown.cashReference;
        await this.action(`shopper.payCash ${reference} (${no ?? 'no order'})`, () => this.engine.shopper.payCash(clientId, reference));
        break;
      }
      case 'scan': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PENDING' && order['scene'] === 'DYNAMIC_QR');
        const nextAction = this.accepted.get(`order/${no}`)?.nextAction;
        const qr = (nextAction as {qrContent?: string} | undefined)?.qrContent ?? unknown.qrContent;
        const phone = step.phone ?? this.everydayWallet(this.order(no));
        const pin = step.wrongPin ? '000000' : (data.wallets.find((wallet) => wallet.phone === phone)?.pin ?? '123456');
        await this.action(`shopper.scan ${qr} (${no}) ${phone}`, () => this.engine.shopper.scan(clientId, qr, {phone, pin}));
        break;
      }
      case 'abandon': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PENDING');
        await this.action(`shopper.abandon ${no}`, () => this.engine.shopper.abandon(clientId, no));
        break;
      }
      case 'challenge': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PENDING');
        await this.action(`shopper.challenge ${no} ${step.answer}`, () => this.engine.shopper.answerChallenge(clientId, no, step.answer));
        break;
      }
      case 'openChargeback': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PAID' || order['status'] === 'PARTIALLY_REFUNDED');
        const refundable = valueOf(this.order(no) ?? {}, 'refundableAmount') ?? 0;
        const amount = step.share === 'all' ? undefined : step.share === 'part' ? Math.max(1, Math.floor(refundable / 2)) : refundable + 1;
        await this.action(`control.openChargeback ${no} ${step.reasonCode} ${String(amount)}`, () =>
          this.engine.control.openChargeback(clientId, no, step.reasonCode, amount),
        );
        break;
      }
      case 'resolveChargeback': {
        const id =
          step.chargeback >= missingRef
            ? 'cbk_NoSuchChargeback00'
            : String(
                this.newest(this.snapshot.chargebacks, step.chargeback, (chargeback) => chargeback['status'] === 'OPEN')?.[
                  'chargebackId'
                ] ?? 'cbk_NoSuchChargeback00',
              );
        await this.action(`control.resolveChargeback ${id} ${step.resolution}`, () =>
          this.engine.control.resolveChargeback(clientId, id, step.resolution),
        );
        break;
      }
      case 'createAgreement': {
        const no = this.next('AGR');
        this.agreementNos.push(no);
        await this.write('createAgreement', '/v1/agreements', {
          merchantAgreementNo: no,
          description: 'Monthly plan',
          returnUrl: 'https://shop.example.com/agreements/return',
          ...(step.notifyUrl ? {notifyUrl: step.notifyUrl} : {}),
        });
        break;
      }
      case 'authorizeAgreement': {
        const no = this.resolveAgreement(step.agreement, 'PENDING_AUTHORIZATION');
        await this.action(`shopper.authorizeAgreement ${no} ${step.phone} ${String(step.approve)}`, () =>
          this.engine.shopper.authorizeAgreement(clientId, no, step.phone, step.approve),
        );
        break;
      }
      case 'cancelAgreement': {
        const no = this.resolveAgreement(step.agreement, 'ACTIVE');
        await this.api('POST', `/v1/agreements/${no}/cancel`, {});
        break;
      }
      case 'topUp': {
        const account = data.virtualAccounts.accounts[0];
        if (account)
          await this.action(`control.topUpVirtualAccount ${account.iban} ${step.amount}`, () =>
            this.engine.control.topUpVirtualAccount(clientId, account.iban, step.amount),
          );
        break;
      }
      case 'fault': {
        const result = this.engine.control.setFault({resultCode: step.resultCode, operationId: step.operationId, count: 1});
        check(result.ok, 'setup', json(result));
        this.faults.push({resultCode: step.resultCode, operationId: step.operationId});
        break;
      }
      case 'adjustExpiry': {
        const no = this.resolveOrder(step.order, (order) => order['status'] === 'PENDING' || order['status'] === 'PROCESSING');
        const expiresAt = isoSeconds(this.engine.clock.now() + step.seconds * 1000);
        const result = await this.api('POST', `/v1/orders/${no}/expiry-time`, {expiresAt});
        if (result.json.code === 'SUCCESS')
          check(
            result.json.data?.['expiresAt'] === expiresAt,
            'P5 idempotency',
            `Adjust order expiry time of ${no} to ${expiresAt} answered ${String(result.json.data?.['expiresAt'])}`,
          );
        break;
      }
      case 'redeliver': {
        const events = this.snapshot.events.map((record) => record.event as unknown as JsonObject);
        const id =
          step.event >= missingRef
            ? 'ntf_NoSuchNotification00'
            : String(this.newest(events, step.event, () => true)?.['notificationId'] ?? 'ntf_NoSuchNotification00');
        await this.api('POST', `/v1/events/${id}/redeliver`);
        break;
      }
      case 'advance':
        await this.advance(step.seconds);
        return; // checked at every instant jobs ran
    }
    // The server runs due jobs (notification deliveries) on its timer: so does the test, after each step.
    await this.runDue();
    await this.checkAll();
  }

  /** What the server does on its timer: run the jobs due now; then wait for the deliveries they started. */
  private async runDue(): Promise<void> {
    await this.engine.runDue();
    await this.engine.settle();
  }

  private resolveAgreement(ref: number, status: string): string {
    if (ref >= missingRef) return 'AGR-none-000';
    return String(
      this.newest(this.snapshot.agreements, ref, (agreement) => agreement['status'] === status)?.['merchantAgreementNo'] ?? 'AGR-none-000',
    );
  }

  /** The everyday test wallet of the order's currency (sandbox.yaml wallets: the first ACTIVE one). */
  private everydayWallet(order: JsonObject | undefined): string {
    const currency = (order?.['amount'] as {currency?: string} | undefined)?.currency ?? 'USD';
    return data.wallets.find((wallet) => wallet.currency === currency && wallet.status === 'ACTIVE')?.phone ?? unknown.phone;
  }

  /** A shopper or test-tool action: a rejection changes nothing (P5). */
  private async action(label: string, act: () => Promise<{ok: boolean; code?: string}>): Promise<void> {
    const before = this.fingerprint();
    const result = await act();
    this.log(`${label} -> ${result.ok ? 'ok' : String(result.code)}`);
    if (!result.ok)
      check(
        before === this.fingerprint(),
        'P5 a rejected request changes nothing',
        `${label} was refused with ${String(result.code)} but changed the sandbox's state`,
      );
  }

  private sceneFields(scene: string, payer: number): JsonObject {
    switch (scene) {
      case 'HOSTED_PAYPAGE':
        return {returnUrl: 'https://shop.example.com/return'};
      case 'IFRAME_PAYPAGE':
        return {parentOrigin: 'https://shop.example.com'};
      case 'IN_APP_SDK':
        return {appId: 'app_Sandbox00001', platform: 'ANDROID'};
      case 'DYNAMIC_QR':
        return {qrExpiresInSeconds: 300};
      case 'JSAPI':
        return {
          walletAppId: 'wa_Sandbox001',
          payerWalletUserId: data.walletAuthCodes.codes[payer % data.walletAuthCodes.codes.length]?.userId ?? 'wu_Sandbox001',
        };
      case 'EWALLET':
        return {returnUrl: 'https://shop.example.com/return', terminalType: 'WEB'};
      case 'CASH_TOP_UP':
        return {payerPhoneNumber: '+10000000001'};
      case 'DIRECT_PAY': {
        // Tokens issued by agreements authorised in this session first (newest first), then the fixed ones.
        const issued = this.snapshot.agreements
          .map((agreement) => agreement['payerAgreementToken'])
          .filter((token): token is string => typeof token === 'string');
        const tokens = [...issued.reverse(), ...data.agreementTokens.tokens.map((token) => token.token), unknown.agreementToken];
        return {payerAgreementToken: tokens[payer % tokens.length] ?? unknown.agreementToken};
      }
      case 'QR_PAY':
        return {
          payerPaymentCode: fixtures.paymentCodes[payer % fixtures.paymentCodes.length] ?? unknown.paymentCode,
          storeId: 'store-1',
          terminalId: 'till-1',
        };
      default:
        return {};
    }
  }

  private async createOrder(step: Extract<Step, {op: 'createOrder'}>): Promise<void> {
    const no = this.next('ORD');
    this.orderNos.push(no);
    const body: JsonObject = {
      merchantOrderNo: no,
      amount: {value: step.amount, currency: step.currency},
      scene: step.scene,
      subject: 'Property test',
      ...(step.expiresInSeconds !== undefined ? {expiresInSeconds: step.expiresInSeconds} : {}),
      ...(step.notifyUrl ? {notifyUrl: step.notifyUrl} : {}),
      ...this.sceneFields(step.scene, step.payer),
    };
    const result = await this.write('createOrder', '/v1/orders', body);
    this.checkCreateOrderRules(body, result);
    if (step.thenPay !== undefined && result.json.code === 'SUCCESS' && shopperScenes.includes(step.scene)) {
      await this.runDue();
      await this.checkAll();
      await this.run(
        {
          op: 'pay',
          order: 0,
          method: step.thenPay,
          anyMethod: false,
          phone: undefined,
          wrongPin: false,
          card: fixtures.paymentCards[0] ?? unknown.card,
        },
        '  then',
      );
      return;
    }
  }

  /** P8: the ending rules at CREATE_ORDER come first, whatever the scene and the payer. */
  private checkCreateOrderRules(body: JsonObject, result: CallResult & {holdSeconds?: number}): void {
    const code = result.json.code;
    if (code === 'SYSTEM_BUSY' || code === 'INTERNAL_ERROR') return;
    const amount = body['amount'] as {value: number};
    const rule = createOrderRule(amount.value);
    const P8 = 'P8 Create order ending rules first (sandbox.yaml payments.precedence)';
    // Checks before the ending rules: the number, the currency, the amount limit.
    const currency = (body['amount'] as {currency: string}).currency;
    if (
      amount.value > data.limits.maxAmount ||
      this.tombstones.has(String(body['merchantOrderNo'])) ||
      !data.merchant.balances.some((balance) => balance.currency === currency)
    )
      return;
    if (rule?.kind === 'REJECTED')
      check(
        code === rule.resultCode,
        P8,
        `Create order ${String(body['merchantOrderNo'])} (${String(body['scene'])}) for ${amount.value} answered ${code}, the ending ${rule.ending} rule says ${String(rule.resultCode)}`,
      );
    if (code === 'SUCCESS') {
      const expected = rule?.kind === 'DELAYED' ? rule.responseDelaySeconds : undefined;
      check(
        result.holdSeconds === expected,
        P8,
        `Create order ${String(body['merchantOrderNo'])} (${String(body['scene'])}, ${json(body['payerAgreementToken'] ?? body['payerPaymentCode'] ?? null)}) for ${amount.value}: response held ${String(result.holdSeconds)} s, the ending ${endingOf(amount.value)} rule says ${String(expected)}`,
      );
    }
  }

  private async refund(step: Extract<Step, {op: 'refund'}>): Promise<void> {
    const no = this.resolveOrder(step.order, (order) => order['status'] === 'PAID' || order['status'] === 'PARTIALLY_REFUNDED');
    const order = this.order(no);
    const currency = String((order?.['amount'] as {currency?: string} | undefined)?.currency ?? 'USD');
    const refundable = valueOf(order ?? {}, 'refundableAmount') ?? 0;
    const value = step.size === 'ending' ? step.amount : step.size === 'rest' ? refundable : refundable + 1 + (step.amount % 100);
    const refundNo = this.next('RFD');
    this.refundNos.push(refundNo);
    await this.write('refundOrder', `/v1/orders/${no}/refunds`, {
      merchantRefundNo: refundNo,
      amount: {value, currency: step.wrongCurrency ? (currency === 'USD' ? 'EUR' : 'USD') : currency},
      reason: 'Property test',
      ...(step.notifyUrl ? {notifyUrl: step.notifyUrl} : {}),
    });
  }

  private async bankTransfer(step: Extract<Step, {op: 'bankTransfer'}>): Promise<void> {
    const account = data.bankAccounts.accounts[step.account];
    const country = account?.country ?? 'GB';
    const destinationCurrency = account?.currency ?? 'GBP';
    const local = account === undefined || (step.accountNumber && account.accountNumber !== undefined);
    const bankAccount: JsonObject = local
      ? {accountType: 'ACCOUNT_NUMBER', accountNumber: account?.accountNumber ?? '12345678', routingCode: account?.routingCode ?? '000000'}
      : {accountType: 'IBAN', iban: account.iban};
    let quoteId: string | undefined;
    if (step.source !== destinationCurrency) {
      const quote = await this.api('POST', '/v1/bank-transfers/quotes', {
        sourceCurrency: step.source,
        destinationCountry: country,
        destinationCurrency,
        sourceAmount: {value: step.amount, currency: step.source},
      });
      if (quote.json.code === 'SUCCESS') quoteId = String(quote.json.data?.['quoteId']);
    }
    const no = this.next('BTR');
    this.transferNos.push(no);
    await this.write(
      'transferToBank',
      payoutPath.BANK,
      {
        merchantTransferNo: no,
        ...(quoteId ? {quoteId} : {}),
        destinationCurrency,
        amount: {value: step.amount, currency: step.source},
        beneficiary: {name: step.wrongName || !account?.holderName ? 'Someone Else' : account.holderName, country, account: bankAccount},
        purpose: 'SUPPLIER_PAYMENT',
        ...(step.notifyUrl ? {notifyUrl: step.notifyUrl} : {}),
      },
      quoteId !== undefined,
    );
  }

  private async query(step: Extract<Step, {op: 'query'}>): Promise<void> {
    const P5 = 'P5 idempotency';
    if (step.what === 'balance') {
      const result = await this.api('GET', '/v1/balances');
      const balances = (result.json.data?.['balances'] ?? []) as Array<{
        currency: string;
        available: {value: number};
        pending: {value: number};
        frozen: {value: number};
      }>;
      const engine = this.engine.balances(clientId);
      for (const balance of balances) {
        const expected = engine.get(balance.currency);
        check(
          expected &&
            expected.available === balance.available.value &&
            expected.pending === balance.pending.value &&
            expected.frozen === balance.frozen.value,
          'P1 money is conserved',
          `Get balance says ${json(balance)}, balances() ${json(expected)}`,
        );
      }
      check(
        balances.length === engine.size,
        'P1 money is conserved',
        `Get balance lists ${balances.length} currencies, balances() ${engine.size}`,
      );
      return;
    }
    if (step.what === 'refund') {
      const no = this.pick(this.refundNos, step.index) ?? 'RFD-none-000';
      const result = await this.api('GET', `/v1/refunds/${no}`);
      const stored = this.stored('refund', no);
      if (stored)
        check(
          result.json.code === 'SUCCESS' && isDeepStrictEqual(result.json.data, clone(stored)),
          P5,
          `Query refund ${no} does not return the stored refund: ${result.body}`,
        );
      else check(result.json.code === 'REFUND_NOT_FOUND', P5, `Query refund ${no}, which does not exist, answered ${result.json.code}`);
      return;
    }
    if (step.what === 'agreement') {
      const no = this.pick(this.agreementNos, step.index) ?? 'AGR-none-000';
      const result = await this.api('GET', `/v1/agreements/${no}`);
      const stored = this.stored('agreement', no);
      if (stored)
        check(
          result.json.code === 'SUCCESS' && isDeepStrictEqual(result.json.data, clone(stored)),
          P5,
          `Query agreement ${no} does not return the stored agreement`,
        );
      else
        check(result.json.code === 'AGREEMENT_NOT_FOUND', P5, `Query agreement ${no}, which does not exist, answered ${result.json.code}`);
      return;
    }
    const no = this.pick(this.transferNos, step.index) ?? 'TRF-none-000';
    const result = await this.api('GET', `${payoutPath[step.kind]}/${no}`);
    const stored = this.stored('transfer', no);
    if (stored && kindOfPayout(String(stored['transferId'])) === step.kind) {
      check(
        result.json.code === 'SUCCESS' && isDeepStrictEqual(result.json.data, clone(stored)),
        P5,
        `Query ${step.kind} payout ${no} does not return the stored payout`,
      );
    } else {
      check(
        result.json.code === 'TRANSFER_NOT_FOUND',
        P5,
        `Query ${step.kind} payout ${no} (${stored ? `a ${kindOfPayout(String(stored['transferId']))} payout` : 'none'}) answered ${result.json.code}`,
      );
    }
  }

  private async replay(step: Extract<Step, {op: 'replay'}>): Promise<void> {
    // The newest write for ref 0, the one before for 1...
    const original = this.sent.length === 0 ? undefined : this.sent[this.sent.length - 1 - (step.request % this.sent.length)];
    if (!original) {
      this.log('replay: nothing sent yet');
      return;
    }
    const {op, body, target} = original;
    switch (step.variant) {
      case 'same':
        await this.write(op, target, clone(body), original.quoted);
        return;
      case 'reordered': {
        // Members in another order, numbers written differently: equal as JSON values (x-idempotency.comparison).
        const raw = JSON.stringify(reversed(body)).replace(/"value":(\d+)/g, '"value":$1.0');
        await this.write(op, target, JSON.parse(raw) as JsonObject, original.quoted, raw);
        return;
      }
      case 'otherKind':
        if (original.namespace === 'transfer') {
          const no = String(body['merchantTransferNo']);
          const amount = body['amount'];
          if (op === 'transfer')
            await this.write('transferToBankCard', payoutPath.CARD, {
              merchantTransferNo: no,
              amount,
              card: {cardNumber: '4000000000000002', expiryMonth: 12, expiryYear: 2028, holderName: 'Jonas Becker'},
            } as JsonObject);
          else
            await this.write('transfer', payoutPath.WALLET, {
              merchantTransferNo: no,
              amount,
              payee: {payeeType: 'PHONE', phoneNumber: '+10000000001'},
            } as JsonObject);
          return;
        }
        if (original.namespace === 'refund') {
          // The same refund number on another order.
          const other = this.orderNos.find((no) => target !== `/v1/orders/${no}/refunds`);
          if (other) {
            await this.write(op, `/v1/orders/${other}/refunds`, clone(body));
            return;
          }
        }
        break;
      case 'corrected':
        await this.corrected(original);
        return;
      case 'changed':
        break;
    }
    const changed = clone(body);
    if (op === 'createOrder') changed['metadata'] = {cart: 'changed'};
    else if (op === 'createAgreement') changed['description'] = 'Changed plan';
    else if (op === 'refundOrder') changed['reason'] = 'Changed reason';
    else changed['remark'] = 'Changed remark';
    await this.write(op, target, changed, original.quoted);
  }

  /** A request first rejected by its amount ending, sent again with the ending corrected: the number was not taken. */
  private async corrected(original: SentWrite): Promise<void> {
    const amount = original.body['amount'] as {value: number; currency: string};
    const rule =
      original.op === 'createOrder'
        ? rejectingEnding.createOrder
        : original.op === 'refundOrder'
          ? rejectingEnding.refundOrder
          : original.namespace === 'transfer'
            ? rejectingEnding.payout
            : undefined;
    if (!rule || endingOf(amount.value) !== rule.ending || original.firstCode !== rule.resultCode) {
      await this.write(original.op, original.target, clone(original.body), original.quoted);
      return;
    }
    const corrected = {value: amount.value - Number(rule.ending), currency: amount.currency};
    const body: JsonObject = {...clone(original.body), amount: corrected};
    const number = String(
      body[
        original.namespace === 'order' ? 'merchantOrderNo' : original.namespace === 'refund' ? 'merchantRefundNo' : 'merchantTransferNo'
      ],
    );
    const taken = this.accepted.has(`${original.namespace}/${number}`);
    const orderNo = original.target.split('/')[3] ?? '';
    const order = original.op === 'refundOrder' ? this.order(orderNo) : undefined;
    const openChargeback = this.snapshot.chargebacks.some(
      (chargeback) => chargeback['merchantOrderNo'] === orderNo && chargeback['status'] === 'OPEN',
    );
    const result = await this.write(original.op, original.target, body, original.quoted);
    const code = result.json.code;
    if (taken || code === 'SYSTEM_BUSY' || code === 'INTERNAL_ERROR') return;
    const P5 = 'P5 a rejected request reserved nothing';
    const label = `${original.op} ${number}, first rejected with ${original.firstCode} for ending ${rule.ending}, sent again for ${corrected.value}`;
    switch (original.op) {
      case 'createOrder':
        if (this.tombstones.has(number)) return;
        if (original.body['scene'] === 'DIRECT_PAY') check(code === 'SUCCESS' || code === 'AGREEMENT_INVALID', P5, `${label}: ${code}`);
        else check(code === 'SUCCESS', P5, `${label}: ${code}`);
        return;
      case 'refundOrder': {
        const refundable = valueOf(order ?? {}, 'refundableAmount') ?? 0;
        const orderCurrency = (order?.['amount'] as {currency?: string} | undefined)?.currency;
        if (
          order &&
          ['PAID', 'PARTIALLY_REFUNDED'].includes(String(order['status'])) &&
          !openChargeback &&
          corrected.value >= 1 &&
          corrected.value <= refundable &&
          orderCurrency === amount.currency
        ) {
          check(code === 'SUCCESS', P5, `${label} (refundable ${refundable}): ${code}`);
        }
        return;
      }
      default:
        if (!original.quoted) check(code === 'SUCCESS', P5, `${label}: ${code}`);
    }
  }

  private async advance(seconds: number): Promise<void> {
    const target = this.engine.clock.now() + seconds * 1000;
    for (let next = this.engine.nextJobAt(); next !== undefined && next <= target; next = this.engine.nextJobAt()) {
      const gap = Math.max(0, next - this.engine.clock.now());
      await this.engine.advance(gap / 1000);
      if (this.engine.nextJobAt() === next) throw new Error(`advance(${gap / 1000}) did not run the job due then`);
      await this.checkAll();
    }
    await this.engine.advance(Math.max(0, target - this.engine.clock.now()) / 1000);
    await this.checkAll();
  }

  // ---- Invariants ----------------------------------------------------------------------------------------

  async checkAll(): Promise<void> {
    this.checkMoney();
    this.checkRefundable();
    this.checkTransitions();
    await this.checkNotifications();
  }

  /** P1, from the ledger. */
  private checkMoney(): void {
    const P1 = 'P1 money is conserved';
    const ledger = this.engine.ledger(clientId);
    const opening = data.merchant.balances;
    const today = utcDay(this.engine.clock.now());
    const sums = new Map<string, {legs: number; rows: number; available: number; pending: number; frozen: number}>();
    const sum = (currency: string) => {
      let entry = sums.get(currency);
      if (!entry) sums.set(currency, (entry = {legs: 0, rows: 0, available: 0, pending: 0, frozen: 0}));
      return entry;
    };
    ledger.forEach((entry, index) => {
      const available = entry.legs.available ?? 0;
      const pending = entry.legs.pending ?? 0;
      const frozen = entry.legs.frozen ?? 0;
      const net = available + pending + frozen;
      const totals = sum(entry.currency);
      totals.legs += net;
      const settled = entry.availableOn !== undefined && entry.availableOn <= today ? pending : 0;
      totals.available += available + settled;
      totals.pending += pending - settled;
      totals.frozen += frozen;
      if (index < opening.length) {
        // The starting funds are movements with a SANDBOX_FUNDING row (issue 29, I-9), so statements add up from day one.
        const seed = opening[index];
        check(
          entry.row?.transactionType === 'SANDBOX_FUNDING' &&
            seed?.currency === entry.currency &&
            seed.available === available &&
            seed.pending === pending &&
            seed.frozen === frozen,
          P1,
          `ledger entry ${index} is not the opening balance ${json(seed)} with its SANDBOX_FUNDING row: ${json(entry)}`,
        );
      }
      if (entry.row) {
        totals.rows += net;
        check(
          entry.row.gross + entry.row.fee === net,
          P1,
          () =>
            `ledger entry ${entry.id} (${entry.memo}): its statement row's gross ${entry.row?.gross} + fee ${entry.row?.fee} is not its net ${net}`,
        );
      } else {
        check(
          net === 0,
          P1,
          () =>
            `ledger entry ${entry.id} (${entry.memo}) has no statement row but changes the total balance by ${net}: ${json(entry.legs)}`,
        );
      }
    });
    // What is reserved now: PROCESSING refunds and payouts (amount plus fee), OPEN chargebacks.
    const reserved = new Map<string, number>();
    const reserve = (money: unknown, extra = 0) => {
      const {value, currency} = money as {value: number; currency: string};
      reserved.set(currency, (reserved.get(currency) ?? 0) + value + extra);
    };
    const snapshot = this.snapshot;
    for (const refund of snapshot.refunds) if (refund['status'] === 'PROCESSING') reserve(refund['amount']);
    for (const payout of snapshot.payouts) if (payout['status'] === 'PROCESSING') reserve(payout['amount'], valueOf(payout, 'fee') ?? 0);
    for (const chargeback of snapshot.chargebacks) if (chargeback['status'] === 'OPEN') reserve(chargeback['amount']);
    const balances = this.engine.balances(clientId);
    for (const seed of opening) {
      const totals = sum(seed.currency);
      check(
        totals.legs === totals.rows,
        P1,
        `${seed.currency}: the ledger's legs sum to ${totals.legs}, the statement rows (starting funds included) to ${totals.rows}`,
      );
      const balance = balances.get(seed.currency);
      check(
        balance && balance.available === totals.available && balance.pending === totals.pending && balance.frozen === totals.frozen,
        P1,
        () =>
          `${seed.currency}: balances() says ${json(balance)}, the ledger ${json({available: totals.available, pending: totals.pending, frozen: totals.frozen})}`,
      );
      check(
        totals.frozen === (reserved.get(seed.currency) ?? 0),
        P1,
        () =>
          `${seed.currency}: frozen is ${totals.frozen}, but PROCESSING refunds and payouts and OPEN chargebacks reserve ${reserved.get(seed.currency) ?? 0}`,
      );
      check(totals.pending >= 0, P1, `${seed.currency}: pending balance ${totals.pending} is negative`);
    }
    check(balances.size === opening.length, P1, `balances() has ${balances.size} currencies, the merchant opened with ${opening.length}`);
  }

  /** P2, per order. */
  private checkRefundable(): void {
    const P2 = 'P2 refunds never exceed what was paid';
    const snapshot = this.snapshot;
    for (const order of snapshot.orders) {
      const no = String(order['merchantOrderNo']);
      const amount = valueOf(order, 'amount') ?? 0;
      let succeeded = 0;
      let processing = 0;
      let disputed = 0;
      let refunds = 0;
      let chargebacks = 0;
      for (const refund of snapshot.refunds) {
        if (refund['merchantOrderNo'] !== no) continue;
        refunds += 1;
        if (refund['status'] === 'SUCCEEDED') succeeded += valueOf(refund, 'amount') ?? 0;
        if (refund['status'] === 'PROCESSING') processing += valueOf(refund, 'amount') ?? 0;
      }
      for (const chargeback of snapshot.chargebacks) {
        if (chargeback['merchantOrderNo'] !== no) continue;
        chargebacks += 1;
        if (chargeback['status'] !== 'WON') disputed += valueOf(chargeback, 'amount') ?? 0;
      }
      const status = String(order['status']);
      const detail = () =>
        `order ${no} ${status}, amount ${amount}: refunds succeeded ${succeeded}, processing ${processing}; disputed ${disputed}; refundableAmount ${valueOf(order, 'refundableAmount')}, refundedAmount ${valueOf(order, 'refundedAmount')}, disputedAmount ${String(valueOf(order, 'disputedAmount'))}`;
      check(succeeded + processing + disputed <= amount, P2, () => `more than paid is refunded or disputed: ${detail()}`);
      check(valueOf(order, 'refundedAmount') === succeeded, P2, () => `refundedAmount is not the sum of succeeded refunds: ${detail()}`);
      if (paidStatuses.includes(status)) {
        check(
          valueOf(order, 'refundableAmount') === amount - succeeded - processing - disputed,
          P2,
          () => `refundableAmount is not amount - succeeded - processing - disputed: ${detail()}`,
        );
      } else {
        check(
          valueOf(order, 'refundableAmount') === 0 && refunds === 0 && chargebacks === 0,
          P2,
          () => `an unpaid order has a refundable amount, refunds or chargebacks: ${detail()}`,
        );
      }
      if (chargebacks > 0)
        check(
          valueOf(order, 'disputedAmount') === disputed,
          P2,
          () => `disputedAmount is not the sum of OPEN and LOST chargebacks: ${detail()}`,
        );
      if (status === 'PAID') check(succeeded === 0, P2, () => `a PAID order has succeeded refunds: ${detail()}`);
      if (status === 'PARTIALLY_REFUNDED')
        check(succeeded > 0 && succeeded < amount, P2, () => `PARTIALLY_REFUNDED without a partial refund: ${detail()}`);
      if (status === 'REFUNDED') check(succeeded === amount, P2, () => `REFUNDED but not refunded in full: ${detail()}`);
    }
  }

  /** P3 and P4, against what was observed last. */
  private checkTransitions(): void {
    const snapshot = this.snapshot;
    const now = new Map<string, Observed>();
    for (const order of snapshot.orders)
      now.set(`order ${String(order['merchantOrderNo'])}`, {machine: 'OrderStatus', status: String(order['status'])});
    for (const refund of snapshot.refunds)
      now.set(`refund ${String(refund['refundId'])}`, {machine: 'RefundStatus', status: String(refund['status'])});
    for (const payout of snapshot.payouts)
      now.set(`payout ${String(payout['merchantTransferNo'])}`, {
        machine: machineOfPayout(String(payout['transferId'])),
        status: String(payout['status']),
      });
    for (const agreement of snapshot.agreements)
      now.set(`agreement ${String(agreement['merchantAgreementNo'])}`, {machine: 'AgreementStatus', status: String(agreement['status'])});
    for (const chargeback of snapshot.chargebacks)
      now.set(`chargeback ${String(chargeback['chargebackId'])}`, {machine: 'Chargeback', status: String(chargeback['status'])});
    for (const [key, was] of this.observed) {
      const is = now.get(key);
      check(is !== undefined, 'P4 state machine', `${key} disappeared`);
      if (is.status === was.status) continue;
      if (was.machine === 'Chargeback') {
        // No x-state-machine: the status enum says OPEN until decided, then WON or LOST.
        check(was.status === 'OPEN', 'P3 terminal states never change', `${key} went from ${was.status} to ${is.status}`);
        continue;
      }
      const machine = spec.stateMachines[was.machine];
      check(machine, 'P4 state machine', `the contract has no x-state-machine ${was.machine}`);
      check(
        !machine.terminal.includes(was.status),
        'P3 terminal states never change',
        `${key} (${was.machine}) left its terminal state ${was.status} for ${is.status}`,
      );
      check(
        machine.transitions.includes(`${was.status}>${is.status}`),
        'P4 state machine',
        `${key} went from ${was.status} to ${is.status}, which ${was.machine} does not declare`,
      );
    }
    // Timed transitions happen on time: "PENDING to CLOSED: the expiry time passes", "PENDING_AUTHORIZATION to
    // EXPIRED: authorizationExpiresAt passes". Jobs run at their instant, so nothing waits past its time.
    const clock = this.engine.clock.now();
    for (const order of snapshot.orders) {
      if (order['status'] === 'PENDING')
        check(
          clock < Date.parse(String(order['expiresAt'])),
          'P4 state machine',
          `order ${String(order['merchantOrderNo'])} is still PENDING at ${isoSeconds(clock)}, after its expiresAt ${String(order['expiresAt'])}`,
        );
    }
    for (const agreement of snapshot.agreements) {
      if (agreement['status'] === 'PENDING_AUTHORIZATION')
        check(
          clock < Date.parse(String(agreement['authorizationExpiresAt'])),
          'P4 state machine',
          `agreement ${String(agreement['merchantAgreementNo'])} still waits for authorization after ${String(agreement['authorizationExpiresAt'])}`,
        );
    }
    for (const [key, is] of now) {
      if (this.observed.has(key) || is.machine === 'Chargeback') continue;
      const machine = spec.stateMachines[is.machine];
      check(machine, 'P4 state machine', `the contract has no x-state-machine ${is.machine}`);
      check(
        is.status === machine.initial || machine.transitions.includes(`${machine.initial}>${is.status}`),
        'P4 state machine',
        `${key} appeared in ${is.status}, neither ${is.machine}'s initial state ${machine.initial} nor one declared transition from it`,
      );
    }
    this.observed = now;
  }

  /** Where the routing rules send an event (x-notification-delivery.routing), from the bodies the test sent. */
  private expectedUrl(eventType: string, payload: JsonObject): string | undefined {
    const rule = spec.delivery.routing.find((candidate) => candidate.prefixes.some((prefix) => eventType.startsWith(prefix)));
    const urlOf = (namespace: Namespace, number: unknown) =>
      typeof number === 'string' ? (this.accepted.get(`${namespace}/${number}`)?.body['notifyUrl'] as string | undefined) : undefined;
    for (const source of rule?.sources ?? ['default']) {
      const url =
        source === 'order'
          ? urlOf('order', payload['merchantOrderNo'])
          : source === 'refund'
            ? urlOf('refund', payload['merchantRefundNo'])
            : source === 'payout'
              ? urlOf('transfer', payload['merchantTransferNo'])
              : source === 'agreement'
                ? urlOf('agreement', payload['merchantAgreementNo'])
                : (this.session.defaultNotifyUrl ?? undefined);
      if (url) return url;
    }
    return undefined;
  }

  /** P7, for the deliveries since the last check, and the events list against them. */
  private async checkNotifications(): Promise<void> {
    const P7 = 'P7 notifications verify and match the contract';
    const key = await providerKey;
    for (; this.verified < this.received.length; this.verified += 1) {
      const delivery = this.received[this.verified] as Delivery;
      let body: {notificationId?: string; eventType?: string; data?: JsonObject};
      try {
        body = JSON.parse(delivery.body) as typeof body;
      } catch {
        throw new PropertyFailure(`${P7}: a notification to ${delivery.url} is not JSON: ${delivery.body.slice(0, 200)}`);
      }
      const label = `${String(body.eventType)} ${String(body.notificationId)} to ${delivery.url}`;
      check(delivery.headers['X-Client-Id'] === clientId, P7, `${label} has X-Client-Id ${String(delivery.headers['X-Client-Id'])}`);
      const url = new URL(delivery.url);
      let header: {keyVersion: number; signature: string};
      try {
        header = parseSignatureHeader(delivery.headers['X-Signature'] ?? '');
      } catch (error) {
        throw new PropertyFailure(`${P7}: ${label}: X-Signature ${(error as Error).message}`);
      }
      check(
        header.keyVersion === data.merchant.providerKey.keyVersion,
        P7,
        `${label} is signed with provider key version ${header.keyVersion}`,
      );
      const canonical = canonicalString({
        method: 'POST',
        pathWithQuery: `${url.pathname}${url.search}`,
        clientId,
        timestamp: delivery.headers['X-Timestamp'] ?? '',
        nonce: delivery.headers['X-Nonce'] ?? '',
        body: delivery.body,
      });
      check(
        await verifyCanonical(canonical, header.signature, key),
        P7,
        `${label}: the signature does not verify with the provider test key`,
      );
      const pointer = webhookSchemaOf.get(String(body.eventType));
      check(pointer, P7, `${label}: no webhook of the contract declares the event type`);
      const problems = validator.problems(pointer, body);
      check(problems.length === 0, P7, () => `${label} does not match ${pointer}:\n    ${problems.join('\n    ')}\n    ${delivery.body}`);
      const expected = this.expectedUrl(String(body.eventType), body.data ?? {});
      check(delivery.url === expected, P7, `${label}: the routing rules send it to ${String(expected)}`);
      const status = statusOfEvent(String(body.eventType), body.data ?? {});
      check(
        status.actual === status.expected,
        P7,
        `${label} carries ${String(status.field)} ${String(status.actual)}, the event says ${String(status.expected)}`,
      );
    }
    // Every event with a URL was delivered (the test acknowledges all); the others are listed as NO_URL.
    const delivered = new Set(this.received.map((delivery) => (JSON.parse(delivery.body) as {notificationId: string}).notificationId));
    for (const record of this.snapshot.events) {
      const event = record.event;
      const expected = this.expectedUrl(event.eventType, (event['notification'] as {data?: JsonObject} | undefined)?.data ?? {});
      if (expected === undefined) {
        check(
          event.delivery.status === 'NO_URL' && !delivered.has(event.notificationId),
          P7,
          `${event.eventType} ${event.notificationId} has no URL by the routing rules, but is ${event.delivery.status}`,
        );
      } else {
        check(
          delivered.has(event.notificationId) && event.delivery.status === 'DELIVERED',
          P7,
          `${event.eventType} ${event.notificationId} for ${expected} is ${event.delivery.status}, not delivered`,
        );
      }
    }
  }

  /** P1 at the end: every day's statement file, from the day before the merchant existed to today. */
  async checkStatements(): Promise<void> {
    const P1 = 'P1 statements reconcile';
    const before = utcDay(Date.parse(this.session.start) - 86_400_000);
    const first = before;
    const today = utcDay(this.engine.clock.now());
    const seen = new Set<string>();
    let carried: Map<string, number> | undefined;
    for (let day = first; day <= today; day = utcDay(Date.parse(`${day}T00:00:00Z`) + 86_400_000)) {
      const statement = this.engine.statementCsv(clientId, day);
      check(statement, P1, `no statement for ${day}`);
      const lines = statement.csv.trimEnd().split('\n');
      const header = (lines.shift() ?? '').split(',');
      const column = (name: string) => header.indexOf(name);
      const rows = lines.map(parseCsvLine);
      check(rows.length === statement.rowCount, P1, `${day}: rowCount ${statement.rowCount}, the file has ${rows.length} rows`);
      const byCurrency = new Map<string, {opening?: number; closing?: number; movements: number}>();
      for (const row of rows) {
        const cell = (name: string) => row[column(name)] ?? '';
        const currency = cell('currency');
        const entry = byCurrency.get(currency) ?? {movements: 0};
        byCurrency.set(currency, entry);
        const type = cell('transaction_type');
        const net = Number(cell('net_amount'));
        check(cell('statement_date') === day, P1, `a row of ${day} says statement_date ${cell('statement_date')}`);
        if (type === 'OPENING_BALANCE') entry.opening = net;
        else if (type === 'CLOSING_BALANCE') entry.closing = net;
        else {
          entry.movements += net;
          check(
            Number(cell('gross_amount')) + Number(cell('fee_amount')) === net,
            P1,
            `${day} ${type} ${cell('provider_reference')}: gross + fee is not net`,
          );
          check(
            cell('completed_at').slice(0, 10) === day,
            P1,
            `${day} ${type} ${cell('provider_reference')} completed on ${cell('completed_at')}`,
          );
          const identity = `${type}/${cell('provider_reference')}`;
          check(!seen.has(identity), P1, `${identity} appears twice in the statements`);
          seen.add(identity);
        }
      }
      for (const [currency, entry] of byCurrency) {
        check(entry.opening !== undefined && entry.closing !== undefined, P1, `${day} ${currency}: no opening or closing row`);
        check(
          entry.opening + entry.movements === entry.closing,
          P1,
          `${day} ${currency}: opening ${entry.opening} + movements ${entry.movements} is not closing ${entry.closing}`,
        );
        const previous = carried?.get(currency);
        if (previous !== undefined)
          check(previous === entry.opening, P1, `${day} ${currency} opens with ${entry.opening}, the day before closed with ${previous}`);
        if (day === before)
          check(
            entry.opening === 0 && entry.movements === 0 && entry.closing === 0,
            P1,
            `${day}, before the merchant existed, ${currency}: ${json(entry)}, not 0, no rows, 0`,
          );
      }
      carried = new Map([...byCurrency].map(([currency, entry]) => [currency, entry.closing ?? 0]));
    }
    // Today's closing row is the balance now.
    const balances = this.engine.balances(clientId);
    for (const [currency, closing] of carried ?? []) {
      const balance = balances.get(currency);
      check(
        balance && balance.available + balance.pending + balance.frozen === closing,
        P1,
        `${currency}: today's closing balance ${closing} is not the balance ${json(balance)}`,
      );
    }
  }
}

function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else cell += char;
  }
  cells.push(cell);
  return cells;
}

async function runSession(session: Session): Promise<void> {
  const world = new World(session);
  try {
    await world.start();
    for (const [index, step] of session.steps.entries()) {
      world.step = index;
      await world.run(step, `#${index}`);
    }
    world.step = session.steps.length;
    await world.run({op: 'query', what: 'balance', index: 0, kind: 'WALLET'}, 'end:');
    await world.checkStatements();
    if (process.env['PBT_TRACE']) console.log(`session:\n${world.trace.join('\n')}`);
  } catch (error) {
    if (error instanceof PropertyFailure) {
      const where =
        world.step < session.steps.length
          ? `at step #${world.step} of ${session.steps.length}: the steps after it never ran, so steps #0 to #${world.step} reproduce it`
          : 'at the end of the session';
      error.message = `${error.message}\n  Failed ${where}. Trace (default notify URL ${String(session.defaultNotifyUrl)}):\n${world.trace.join('\n')}`;
    }
    throw error;
  }
}

/**
 * Sessions that once failed (or that random runs reach too rarely to rely on), run first on every run: the
 * random sessions come after them.
 */
const regressions: Array<{readonly name: string; readonly session: Session}> = [
  {
    // Two faults set for one operation, SYSTEM_BUSY then INTERNAL_ERROR: the next call must answer SYSTEM_BUSY
    // and change nothing, the one after it INTERNAL_ERROR (sandbox.yaml faults, control.setFault).
    name: 'P6/P5: a SYSTEM_BUSY fault followed by an INTERNAL_ERROR fault answers two calls, not one',
    session: {
      start: '2026-11-25T10:00:00Z',
      defaultNotifyUrl: null,
      steps: [
        {op: 'fault', resultCode: 'SYSTEM_BUSY', operationId: 'createOrder'},
        {op: 'fault', resultCode: 'INTERNAL_ERROR', operationId: 'createOrder'},
        {
          op: 'createOrder',
          scene: 'HOSTED_PAYPAGE',
          amount: 1000,
          currency: 'USD',
          notifyUrl: undefined,
          payer: 0,
          expiresInSeconds: undefined,
          thenPay: undefined,
        },
        {op: 'replay', request: 0, variant: 'same'},
      ],
    },
  },
  {
    // Ending 92 holds the Create order response 40 s in every scene (sandbox.yaml payments.precedence).
    name: 'P8: a DIRECT_PAY order charged with a token issued by an authorised agreement, amount ending 92, holds its response',
    session: {
      start: '2026-11-25T10:00:00Z',
      defaultNotifyUrl: null,
      steps: [
        {op: 'createAgreement', notifyUrl: undefined},
        {op: 'authorizeAgreement', agreement: 0, phone: '+10000000001', approve: true},
        {
          op: 'createOrder',
          scene: 'DIRECT_PAY',
          amount: 1092,
          currency: 'USD',
          notifyUrl: undefined,
          payer: 0,
          expiresInSeconds: undefined,
          thenPay: undefined,
        },
      ],
    },
  },
];

for (const {name, session} of regressions) {
  test(`regression: ${name}`, async () => {
    await runSession(session);
  });
}

test(`the properties hold over ${numRuns} random sessions`, {timeout: 600_000}, async () => {
  for (const scene of Object.keys(spec.sceneFields)) {
    if (
      !['HOSTED_PAYPAGE', 'IFRAME_PAYPAGE', 'IN_APP_SDK', 'DYNAMIC_QR', 'JSAPI', 'EWALLET', 'CASH_TOP_UP', 'DIRECT_PAY', 'QR_PAY'].includes(
        scene,
      )
    )
      throw new Error(`The test builds no ${scene} order: add it to sceneFields().`);
  }
  const seed = process.env['PBT_SEED'] === undefined ? undefined : Number(process.env['PBT_SEED']);
  const path = process.env['PBT_PATH'];
  await fc.assert(
    fc.asyncProperty(sessionArbitrary(sessionLength), async (session) => {
      await runSession(session);
    }),
    {numRuns, includeErrorInReport: true, ...(seed !== undefined ? {seed} : {}), ...(path ? {path} : {})},
  );
  if (tally)
    console.log(
      [...tally]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([what, count]) => `${String(count).padStart(6)}  ${what}`)
        .join('\n'),
    );
});
