/**
 * The notification simulator's state and decisions, apart from its view: what the form holds, how the
 * reader's data and URL are checked, what a produced notification shows and what the local sandbox's
 * answer means. Pure (no React, no fetch, no engine): the component runs the effects and dispatches what
 * they found (tests/unit/widgetModels.test.ts).
 */
import {isTimestampFresh} from '../../../lib/signing';
import {localSimulateCommands, rawNotificationRequest} from '../../../lib/notificationCatalogue';
import type {InboxEntry} from '../../../sandbox/client/inbox';
import {notificationCanonical} from '../../../sandbox/client/signing';
import type {DeliveryLogEntry} from '../../../sandbox/engine/engine';

/** A notificationId of the right shape, for checking edited data inside a whole notification before the real one is made. */
export const probeNotificationId = 'ntf_00000000000000000000';

/** What the local sandbox is asked for, the same as the commands. */
export interface LocalRequest {
  readonly operationId: string;
  readonly scenario: string;
  readonly notifyUrl: string;
  readonly data?: unknown;
}

export interface Produced {
  readonly notificationId: string;
  readonly eventType: string;
  readonly notifyUrl: string;
  readonly rawRequest: string;
  readonly canonical: string;
  readonly signatureVerifies: boolean;
  readonly timestamp: string;
  readonly timestampFresh: boolean;
  readonly problems: readonly string[];
  readonly commands: {readonly simulate: string; readonly log: string};
  readonly localRequest: LocalRequest;
}

export type Outcome =
  | {readonly status: 'idle'}
  | {readonly status: 'running'}
  | {readonly status: 'produced'; readonly produced: Produced}
  | {readonly status: 'failed'; readonly message: string};

export type LocalDelivery =
  | {readonly status: 'idle'}
  | {readonly status: 'delivering'}
  | {readonly status: 'delivered'; readonly notificationId: string; readonly entries: readonly DeliveryLogEntry[]}
  | {readonly status: 'failed'; readonly message: string};

export interface SimulatorState {
  readonly scenarioName: string;
  readonly data: string;
  readonly notifyUrl: string;
  readonly errors: Readonly<Record<string, string>>;
  readonly outcome: Outcome;
  readonly local: LocalDelivery;
  readonly copied: string;
}

export type SimulatorEvent =
  | {readonly type: 'scenarioChosen'; readonly name: string; readonly example: unknown}
  | {readonly type: 'dataEdited'; readonly data: string}
  | {readonly type: 'notifyUrlEdited'; readonly notifyUrl: string}
  /** The reader asked for a notification: the local delivery of the last one no longer applies. */
  | {readonly type: 'produceStarted'}
  | {readonly type: 'checked'; readonly errors: Readonly<Record<string, string>>}
  | {readonly type: 'produced'; readonly produced: Produced}
  | {readonly type: 'produceFailed'; readonly message: string}
  | {readonly type: 'local'; readonly local: LocalDelivery}
  | {readonly type: 'copied'; readonly text: string};

/** The scenario's example data as the form shows it. */
export function exampleData(value: unknown): string {
  const data = (value as {data?: unknown} | null)?.data;
  return JSON.stringify(data ?? {}, null, 2);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function initialSimulatorState(
  firstScenario: {readonly name: string; readonly value: unknown} | undefined,
  notifyUrl: string,
): SimulatorState {
  return {
    scenarioName: firstScenario?.name ?? '',
    data: exampleData(firstScenario?.value),
    notifyUrl,
    errors: {},
    outcome: {status: 'idle'},
    local: {status: 'idle'},
    copied: '',
  };
}

export function simulatorReducer(state: SimulatorState, event: SimulatorEvent): SimulatorState {
  switch (event.type) {
    case 'scenarioChosen':
      return {
        ...state,
        scenarioName: event.name,
        data: exampleData(event.example),
        errors: {},
        outcome: {status: 'idle'},
        local: {status: 'idle'},
      };
    case 'dataEdited':
      return {...state, data: event.data};
    case 'notifyUrlEdited':
      return {...state, notifyUrl: event.notifyUrl};
    case 'produceStarted':
      return {...state, local: {status: 'idle'}};
    case 'checked':
      // Bad input leaves nothing produced on screen; good input starts the run.
      return {...state, errors: event.errors, outcome: Object.keys(event.errors).length ? {status: 'idle'} : {status: 'running'}};
    case 'produced':
      return {...state, outcome: {status: 'produced', produced: event.produced}};
    case 'produceFailed':
      return {...state, outcome: {status: 'failed', message: `The sandbox in this browser could not produce it: ${event.message}`}};
    case 'local':
      return {...state, local: event.local};
    case 'copied':
      return {...state, copied: event.text};
  }
}

/**
 * The edited data and URL, checked field by field: the data against the notification's body schema (through
 * `problems`, the compiled validator), the URL as http(s). The errors map, and the values when it is empty.
 */
export function checkSimulatorInput(
  input: {readonly data: string; readonly notifyUrl: string},
  contract: {readonly eventType: string; readonly now: Date; readonly problems: (notification: unknown) => readonly string[]},
): {readonly errors: Record<string, string>; readonly checked?: {readonly data: unknown; readonly notifyUrl: string}} {
  const errors: Record<string, string> = {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(input.data);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
      errors['data'] = 'The data must be a JSON object, such as the example: { "merchantOrderNo": … }.';
    else {
      const problems = contract.problems({
        notificationId: probeNotificationId,
        eventType: contract.eventType,
        createdAt: contract.now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
        data: parsed,
      });
      if (problems.length) errors['data'] = `The contract refuses this data:\n${problems.map((problem) => `• ${problem}`).join('\n')}`;
    }
  } catch (error) {
    errors['data'] = `The data is not valid JSON: ${errorText(error)}.`;
  }
  const url = input.notifyUrl.trim();
  try {
    if (!/^https?:$/.test(new URL(url).protocol))
      errors['notifyUrl'] = 'The notify URL must start with https:// (or http:// for an endpoint on your machine).';
  } catch {
    errors['notifyUrl'] = 'The notify URL must be a whole URL, such as https://shop.example.com/payments/notify.';
  }
  return Object.keys(errors).length ? {errors} : {errors, checked: {data: parsed, notifyUrl: url}};
}

/** What the view shows of a notification the in-browser sandbox delivered, checked as the reader's endpoint must. */
export function producedOf(found: {
  readonly operationId: string;
  readonly scenario: {readonly name: string; readonly value: unknown};
  readonly checked: {readonly data: unknown; readonly notifyUrl: string};
  readonly simulated: {readonly notificationId: string; readonly eventType: string};
  readonly delivery: InboxEntry;
  readonly signatureVerifies: boolean;
  readonly problems: readonly string[];
  readonly now: Date;
  readonly windowSeconds: number;
  readonly clientId: string;
  readonly localOrigin: string;
}): Produced {
  const {delivery, checked} = found;
  const timestamp = delivery.headers['X-Timestamp'] ?? '';
  const edited = JSON.stringify(checked.data) !== JSON.stringify((found.scenario.value as {data?: unknown}).data);
  const localRequest: LocalRequest = {
    operationId: found.operationId,
    scenario: found.scenario.name,
    notifyUrl: checked.notifyUrl,
    ...(edited ? {data: checked.data} : {}),
  };
  return {
    notificationId: found.simulated.notificationId,
    eventType: found.simulated.eventType,
    notifyUrl: delivery.url,
    rawRequest: rawNotificationRequest(delivery.url, delivery.headers, delivery.body),
    canonical: notificationCanonical(delivery),
    signatureVerifies: found.signatureVerifies,
    timestamp,
    timestampFresh: isTimestampFresh(timestamp, found.now, found.windowSeconds),
    problems: found.problems,
    commands: localSimulateCommands(found.localOrigin, {clientId: found.clientId, ...localRequest}),
    localRequest,
  };
}

/** The local sandbox's answer to the simulate request, and its delivery log, as the view shows them. */
export function localDeliveryOf(
  answer: {readonly ok: boolean; readonly status: number; readonly json: {notificationId?: string; code?: string; message?: string}},
  log: {deliveries?: readonly DeliveryLogEntry[]} | undefined,
): LocalDelivery {
  const {json} = answer;
  if (!answer.ok || !json.notificationId)
    return {
      status: 'failed',
      message: `The local sandbox refused it: ${answer.status} ${json.code ?? ''}: ${json.message ?? 'no notificationId in the answer'}`,
    };
  return {
    status: 'delivered',
    notificationId: json.notificationId,
    entries: (log?.deliveries ?? []).filter((entry) => entry.notificationId === json.notificationId),
  };
}
