/**
 * The sandbox's shopper, clock and control actions, declared once: a name, the HTTP route of the local
 * server, an input schema and the effect, which calls the engine's public `shopper.*`, `control.*` or
 * `advance`. The local server's /_sandbox/ routes, the MCP server's sandbox_* action tools
 * (src/sandbox/hosts/mcp/actionTools.ts), the sandbox targets the widgets use (src/sandbox/client/) and the tests follow
 * from this list: an action added here is served over HTTP, is an MCP tool and is callable in the page at
 * once (tests/unit/sandboxActions.test.ts and tests/mcp/tools.test.ts hold them to it).
 *
 * Isomorphic like the engine: no Node, no DOM.
 */
import {isoSeconds} from './engine/clock';
import type {SandboxData} from './engine/rules/types';
import type {ActionResult, PaymentMethodChoice, SandboxEngine} from './engine/engine';

import {clockStepLimitSeconds} from './clockStep';

export {clockStepLimitSeconds};

/** One input member. Path members are part of the route (/_sandbox/merchants/{clientId}); the others travel as JSON. */
export type FieldSpec =
  | {
      readonly type: 'string';
      readonly optional?: true;
      readonly nullable?: true;
      readonly in?: 'path';
      readonly options?: readonly string[];
    }
  | {readonly type: 'integer'; readonly optional?: true}
  | {readonly type: 'number'; readonly min: number; readonly max: number}
  | {readonly type: 'boolean'; readonly optional?: true}
  | {readonly type: 'object'; readonly optional?: true};

type InputSchema = Readonly<Record<string, FieldSpec>>;

type FieldValue<F extends FieldSpec> = F extends {type: 'string'}
  ? (F extends {options: readonly (infer O)[]} ? O : string) | (F extends {nullable: true} ? null : never)
  : F extends {type: 'integer' | 'number'}
    ? number
    : F extends {type: 'boolean'}
      ? boolean
      : Record<string, unknown>;

/** The input an action's effect receives, typed from its schema. */
export type ActionInput<S extends InputSchema> = {[K in keyof S as S[K] extends {optional: true} ? never : K]: FieldValue<S[K]>} & {
  [K in keyof S as S[K] extends {optional: true} ? K : never]?: FieldValue<S[K]>;
};

/** Input an action refuses, with the sentence that names the member (answered as INVALID_PARAMETER). */
export class ActionInputError extends Error {
  readonly code = 'INVALID_PARAMETER';
}

export interface SandboxAction<S extends InputSchema = InputSchema> {
  /** shopper.pay, clock.advance, control.reset...: what hosts call it by. */
  readonly name: string;
  readonly method: 'POST' | 'PATCH';
  /** The local server's route; {name} segments are the schema's path members. */
  readonly path: `/_sandbox/${string}`;
  /** What it does, in one line (--help, the MCP tools). */
  readonly does: string;
  readonly input: S;
  /** Changes the clock or replaces everything: the local server runs it apart from its job timer. */
  readonly exclusive?: true;
  /** The effect over one engine; the value is what the HTTP route answers. */
  run(engine: SandboxEngine, input: ActionInput<S>): Promise<ActionResult<unknown>> | ActionResult<unknown>;
}

const declare = <const S extends InputSchema>(action: SandboxAction<S>): SandboxAction => action as unknown as SandboxAction;

const string = {type: 'string'} as const;
const optionalString = {type: 'string', optional: true} as const;
const clientId = string;
const ok = <T>(value: T): ActionResult<T> => ({ok: true, value});

/** The payment a shopper makes: which of phone and PIN or card number are needed follows the method. */
function paymentChoice(input: {
  method: PaymentMethodChoice['method'];
  phone?: string;
  pin?: string;
  cardNumber?: string;
}): PaymentMethodChoice {
  const need = (name: 'phone' | 'pin' | 'cardNumber') => {
    const value = input[name];
    if (value === undefined) throw new ActionInputError(`${name} is required: a non-empty string.`);
    return value;
  };
  if (input.method === 'WALLET') return {method: input.method, phone: need('phone'), pin: need('pin')};
  if (input.method === 'CARD') return {method: input.method, cardNumber: need('cardNumber')};
  return {method: input.method};
}

export const sandboxActions: readonly SandboxAction[] = [
  declare({
    name: 'control.reset',
    method: 'POST',
    path: '/_sandbox/reset',
    does: 'forgets everything; the test merchant starts again',
    input: {},
    exclusive: true,
    run: async (engine) => {
      await engine.control.reset();
      return ok({ok: true});
    },
  }),
  declare({
    name: 'clock.advance',
    method: 'POST',
    path: '/_sandbox/clock/advance',
    does: 'moves the clock on, running what falls due; answers {now, jobsRun}',
    input: {seconds: {type: 'number', min: 0, max: clockStepLimitSeconds}},
    exclusive: true,
    run: async (engine, {seconds}) => {
      const jobsRun = await engine.advance(seconds);
      return ok({now: isoSeconds(engine.clock.now()), jobsRun});
    },
  }),
  declare({
    name: 'control.registerMerchant',
    method: 'POST',
    path: '/_sandbox/merchants',
    does: 'registers a merchant with your key',
    input: {
      clientId: optionalString,
      publicKeyPem: string,
      keyVersion: {type: 'integer', optional: true},
      defaultNotifyUrl: {type: 'string', optional: true, nullable: true},
    },
    run: (engine, input) => engine.control.registerMerchant(input),
  }),
  declare({
    name: 'control.configure',
    method: 'PATCH',
    path: '/_sandbox/merchants/{clientId}',
    does: 'default notification URL (http allowed), 300-second retries',
    input: {
      clientId: {type: 'string', in: 'path'},
      defaultNotifyUrl: {type: 'string', optional: true, nullable: true},
      compressedRetries: {type: 'boolean', optional: true},
    },
    run: (engine, {clientId, ...settings}) => engine.control.configure(clientId, settings),
  }),
  declare({
    name: 'control.addKey',
    method: 'POST',
    path: '/_sandbox/merchants/{clientId}/keys',
    does: 'adds a key version',
    input: {clientId: {type: 'string', in: 'path'}, keyVersion: {type: 'integer'}, publicKeyPem: string},
    run: (engine, input) => engine.control.addKey(input.clientId, input.keyVersion, input.publicKeyPem),
  }),
  declare({
    name: 'shopper.pay',
    method: 'POST',
    path: '/_sandbox/shopper/pay',
    does: 'the customer pays (WALLET, CARD, BANK_TRANSFER, CASH)',
    input: {
      clientId,
      merchantOrderNo: string,
      method: {type: 'string', options: ['WALLET', 'CARD', 'BANK_TRANSFER', 'CASH']},
      phone: optionalString,
      pin: optionalString,
      cardNumber: optionalString,
    },
    run: (engine, input) => engine.shopper.pay(input.clientId, input.merchantOrderNo, paymentChoice(input)),
  }),
  declare({
    name: 'shopper.challenge',
    method: 'POST',
    path: '/_sandbox/shopper/challenge',
    does: "the customer answers a card's 3-D Secure challenge (SUBMIT or CANCEL)",
    input: {clientId, merchantOrderNo: string, answer: {type: 'string', options: ['SUBMIT', 'CANCEL']}},
    run: (engine, input) => engine.shopper.answerChallenge(input.clientId, input.merchantOrderNo, input.answer),
  }),
  declare({
    name: 'shopper.payCash',
    method: 'POST',
    path: '/_sandbox/shopper/cash',
    does: 'a store takes cash for a CASH_TOP_UP order',
    input: {clientId, paymentReference: string},
    run: (engine, input) => engine.shopper.payCash(input.clientId, input.paymentReference),
  }),
  declare({
    name: 'shopper.scan',
    method: 'POST',
    path: '/_sandbox/shopper/scan',
    does: 'the customer scans a DYNAMIC_QR code',
    input: {clientId, qrContent: string, phone: string, pin: string},
    run: (engine, input) => engine.shopper.scan(input.clientId, input.qrContent, {phone: input.phone, pin: input.pin}),
  }),
  declare({
    name: 'shopper.abandon',
    method: 'POST',
    path: '/_sandbox/shopper/abandon',
    does: 'the customer leaves the cashier',
    input: {clientId, merchantOrderNo: string},
    run: (engine, input) => engine.shopper.abandon(input.clientId, input.merchantOrderNo),
  }),
  declare({
    name: 'shopper.authorizeAgreement',
    method: 'POST',
    path: '/_sandbox/shopper/agreements/authorize',
    does: 'the customer approves (or declines) an agreement',
    input: {clientId, merchantAgreementNo: string, wallet: string, approve: {type: 'boolean', optional: true}},
    run: (engine, input) => engine.shopper.authorizeAgreement(input.clientId, input.merchantAgreementNo, input.wallet, input.approve),
  }),
  declare({
    name: 'shopper.cancelAgreement',
    method: 'POST',
    path: '/_sandbox/shopper/agreements/cancel',
    does: 'the customer ends an agreement in the wallet',
    input: {clientId, merchantAgreementNo: string},
    run: (engine, input) => engine.shopper.cancelAgreementInWallet(input.clientId, input.merchantAgreementNo),
  }),
  declare({
    name: 'shopper.authCode',
    method: 'POST',
    path: '/_sandbox/shopper/auth-code',
    does: 'a one-time wallet auth code; answers {authCode}',
    input: {clientId, wallet: string},
    run: async (engine, input) => {
      const result = await engine.shopper.getAuthCode(input.clientId, input.wallet);
      return result.ok ? ok({authCode: result.value}) : result;
    },
  }),
  declare({
    name: 'control.openChargeback',
    method: 'POST',
    path: '/_sandbox/chargebacks',
    does: 'opens a chargeback',
    input: {clientId, merchantOrderNo: string, reasonCode: optionalString, amount: {type: 'integer', optional: true}},
    run: (engine, input) => engine.control.openChargeback(input.clientId, input.merchantOrderNo, input.reasonCode, input.amount),
  }),
  declare({
    name: 'control.resolveChargeback',
    method: 'POST',
    path: '/_sandbox/chargebacks/{chargebackId}/resolve',
    does: 'decides a chargeback: WON or LOST',
    input: {chargebackId: {type: 'string', in: 'path'}, clientId, resolution: {type: 'string', options: ['WON', 'LOST']}},
    run: (engine, input) => engine.control.resolveChargeback(input.clientId, input.chargebackId, input.resolution),
  }),
  declare({
    name: 'control.topUpVirtualAccount',
    method: 'POST',
    path: '/_sandbox/vam-top-ups',
    does: 'a bank transfer arrives on a virtual account',
    input: {clientId, iban: string, amount: {type: 'integer'}, payerName: optionalString},
    run: (engine, input) => engine.control.topUpVirtualAccount(input.clientId, input.iban, input.amount, input.payerName),
  }),
  declare({
    name: 'control.setFault',
    method: 'POST',
    path: '/_sandbox/faults',
    does: 'answers the next calls with SYSTEM_BUSY or INTERNAL_ERROR',
    input: {resultCode: string, operationId: optionalString, count: {type: 'integer', optional: true}},
    run: (engine, {resultCode, operationId, count}) =>
      engine.control.setFault({resultCode, ...(operationId !== undefined ? {operationId} : {}), ...(count !== undefined ? {count} : {})}),
  }),
  declare({
    name: 'control.simulateNotification',
    method: 'POST',
    path: '/_sandbox/notifications/simulate',
    does: 'a signed notification of a contract example, delivered now; answers {notificationId, ..., delivery}',
    input: {clientId, operationId: string, scenario: string, data: {type: 'object', optional: true}, notifyUrl: optionalString},
    run: (engine, {clientId, ...input}) => engine.control.simulateNotification(clientId, input),
  }),
  declare({
    name: 'control.redeliver',
    method: 'POST',
    path: '/_sandbox/notifications/{notificationId}/redeliver',
    does: 'delivers an event again now',
    input: {notificationId: {type: 'string', in: 'path'}, clientId},
    run: (engine, input) => engine.control.redeliver(input.clientId, input.notificationId),
  }),
];

/** The declared action of that name; throws for a name nobody declared (a programming error). */
export function sandboxAction(name: string): SandboxAction {
  const action = sandboxActions.find((candidate) => candidate.name === name);
  if (!action) throw new Error(`No sandbox action ${name}.`);
  return action;
}

/** The members of an action that travel in its route, and those that travel as JSON. */
export function pathMembers(action: SandboxAction): string[] {
  return Object.entries(action.input)
    .filter(([, spec]) => 'in' in spec && spec.in === 'path')
    .map(([name]) => name);
}

export function bodyMembers(action: SandboxAction): string[] {
  const inPath = pathMembers(action);
  return Object.keys(action.input).filter((name) => !inPath.includes(name));
}

/** The route with its path members filled in (percent-encoded). */
export function actionPath(action: SandboxAction, input: Readonly<Record<string, unknown>>): string {
  return action.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(input[name] ?? '')));
}

/**
 * Reads an action's input from plain JSON values, member by member in declaration order, with the sentence
 * that names the first bad member (ActionInputError). Unknown members are the host's to refuse: it knows
 * whether they came as JSON members or query parameters.
 */
export function readActionInput(action: SandboxAction, values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(action.input)) {
    const value = values[name];
    if (value === undefined && 'optional' in spec && spec.optional) continue;
    input[name] = fieldValue(name, spec, value);
  }
  return input;
}

function fieldValue(name: string, spec: FieldSpec, value: unknown): unknown {
  switch (spec.type) {
    case 'string':
      if (value === null && spec.nullable) return null;
      if (spec.options) {
        if (!spec.options.includes(value as string)) throw new ActionInputError(`${name} must be one of ${spec.options.join(', ')}.`);
        return value;
      }
      if (typeof value !== 'string' || value === '') throw new ActionInputError(`${name} is required: a non-empty string.`);
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ActionInputError(`${name} is required: an integer.`);
      return value;
    case 'number':
      if (typeof value !== 'number' || !(value >= spec.min && value <= spec.max))
        throw new ActionInputError(`${name} is required: a number from ${spec.min} to ${spec.max}.`);
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw new ActionInputError(`${name} must be true or false.`);
      return value;
    case 'object':
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ActionInputError(`${name} must be a JSON object.`);
      return value;
  }
}

/** Runs an action over an engine from plain input: a refused input is an INVALID_PARAMETER result, like the engine's own refusals. */
export async function runAction(
  engine: SandboxEngine,
  action: SandboxAction,
  values: Readonly<Record<string, unknown>>,
): Promise<ActionResult<unknown>> {
  try {
    return await action.run(engine, readActionInput(action, values) as never);
  } catch (error) {
    if (error instanceof ActionInputError) return {ok: false, code: error.code, message: error.message};
    throw error;
  }
}

/** The test wallet and cards a shopper uses when none is named, from the sandbox data (api/sandbox.yaml). */
export interface ShopperFixtures {
  readonly wallet: {readonly phone: string; readonly pin: string};
  /** A card whose payments follow the amount endings (most succeed). */
  readonly payingCard: string;
  /** A card every payment with fails. */
  readonly decliningCard: string;
}

export function shopperFixtures(data: SandboxData): ShopperFixtures {
  const wallet = data.wallets.find((candidate) => candidate.status === 'ACTIVE');
  const payingCard = data.cards.cards.find((card) => card.behavior === 'ENDINGS')?.number;
  const decliningCard = data.cards.cards.find((card) => typeof card.behavior === 'object' && card.behavior.kind === 'DECLINED')?.number;
  if (!wallet || !payingCard || !decliningCard)
    throw new Error('The sandbox data needs an active wallet, a card that pays by the amount endings and a declined one.');
  return {wallet: {phone: wallet.phone, pin: wallet.pin}, payingCard, decliningCard};
}
