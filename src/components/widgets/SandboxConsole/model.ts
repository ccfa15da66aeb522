/**
 * The sandbox console's state and decisions, apart from its view: what it shows (the read-out of the
 * sandbox, the status line, the field errors, how many rows of the long lists), how the seconds field is
 * read against the one clock-step limit, and the sentences each action ends with. Pure (no React, no
 * engine): the component runs the effects and dispatches what they found (tests/unit/widgetModels.test.ts).
 * What the sandbox holds is read by view.ts.
 */
import {clockStepLimitSeconds} from '../../../sandbox/clockStep';
import type {ConsoleView} from './view';

/** Rows a long list shows at first, and how many more each "Show more" adds. */
export const pageRows = 20;

/** The clock steps offered as buttons. */
export const advanceSteps = [
  {label: '1 hour', seconds: 3_600},
  {label: '1 day', seconds: 86_400},
  {label: '7 days', seconds: 604_800},
] as const;

export type Status =
  | {readonly kind: 'idle'}
  | {readonly kind: 'busy'; readonly text: string}
  | {readonly kind: 'done'; readonly text: string};

export interface ConsoleState {
  /** The sandbox as last read; undefined until it has started. */
  readonly view?: ConsoleView;
  readonly loadError?: string;
  /** The merchant shown. */
  readonly clientId: string;
  readonly status: Status;
  readonly seconds: string;
  readonly secondsError?: string;
  readonly importError?: string;
  readonly confirmingReset: boolean;
  readonly ledgerShown: number;
  readonly inboxShown: number;
}

export type ConsoleEvent =
  | {readonly type: 'read'; readonly view: ConsoleView}
  | {readonly type: 'loadFailed'; readonly message: string}
  | {readonly type: 'busy'; readonly text: string}
  /** An action ended: with its sentence, or quietly (its own field says what happened). */
  | {readonly type: 'done'; readonly text?: string}
  | {readonly type: 'secondsEdited'; readonly seconds: string}
  | {readonly type: 'secondsError'; readonly message?: string}
  | {readonly type: 'importError'; readonly message?: string}
  | {readonly type: 'confirmReset'; readonly open: boolean}
  | {readonly type: 'moreLedger'}
  | {readonly type: 'moreInbox'}
  /** Another merchant, an import or a reset: the long lists start short again. */
  | {readonly type: 'listsReset'};

export const initialConsoleState: ConsoleState = {
  clientId: '',
  status: {kind: 'idle'},
  seconds: '',
  confirmingReset: false,
  ledgerShown: pageRows,
  inboxShown: pageRows,
};

export function consoleReducer(state: ConsoleState, event: ConsoleEvent): ConsoleState {
  switch (event.type) {
    case 'read':
      return {...state, view: event.view, clientId: event.view.clientId};
    case 'loadFailed':
      return {
        ...state,
        loadError: `The sandbox in this browser could not start: ${event.message}. IndexedDB may be off (a private window in some browsers).`,
      };
    case 'busy':
      return {...state, status: {kind: 'busy', text: event.text}};
    case 'done':
      return {...state, status: event.text === undefined ? {kind: 'idle'} : {kind: 'done', text: event.text}};
    case 'secondsEdited':
      return {...state, seconds: event.seconds};
    case 'secondsError':
      return {...state, secondsError: event.message};
    case 'importError':
      return {...state, importError: event.message};
    case 'confirmReset':
      return {...state, confirmingReset: event.open};
    case 'moreLedger':
      return {...state, ledgerShown: state.ledgerShown + pageRows};
    case 'moreInbox':
      return {...state, inboxShown: state.inboxShown + pageRows};
    case 'listsReset':
      return {...state, ledgerShown: pageRows, inboxShown: pageRows};
  }
}

/** The seconds field as a clock step: a whole number from 1 to the sandbox's one limit, with its label; or the sentence saying what to give. */
export function readSeconds(
  text: string,
): {readonly ok: true; readonly seconds: number; readonly label: string} | {readonly ok: false; readonly message: string} {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || value < 1 || value > clockStepLimitSeconds)
    return {ok: false, message: `Give a whole number of seconds from 1 to ${clockStepLimitSeconds} (a year).`};
  return {ok: true, seconds: value, label: `${value} ${value === 1 ? 'second' : 'seconds'}`};
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export const says = {
  advancing: (label: string) => `Advancing the clock by ${label}…`,
  advanced: (label: string, {jobsRun, now}: {jobsRun: number; now: string}) =>
    `Advanced the clock by ${label}: ${plural(jobsRun, 'job', 'jobs')} ran. Sandbox time is now ${now}.`,
  exportFileName: (exportedAt: string) => `veloxa-sandbox-${exportedAt.slice(0, 10)}.json`,
  exported: (records: number, notifications: number, fileName: string) =>
    `Exported ${records} records and ${notifications} notifications to ${fileName}.`,
  importing: (fileName: string) => `Importing ${fileName}…`,
  notJson: (fileName: string, reason: string) =>
    `${fileName} is not JSON (${reason}). Choose a file the Export button saved. Nothing was changed.`,
  notImported: (fileName: string, message: string) => `${fileName} was not imported: ${message} Nothing was changed.`,
  imported: (fileName: string, {merchants, records, notifications}: {merchants: number; records: number; notifications: number}) =>
    `Imported ${fileName}: ${plural(merchants, 'merchant', 'merchants')}, ${records} records, ${notifications} notifications.`,
  reset: 'The sandbox was reset: the test merchant starts again with its opening balances, and the inbox is empty.',
  readingHosted: (clientId: string) => `Reading ${clientId} from the hosted sandbox…`,
  readHosted: (clientId: string, origin: string) =>
    `Showing ${clientId} as the hosted sandbox at ${origin} exported it just now, signed by your key. Refresh reads it again.`,
  hostedUnreadable: (reason: string) => `The hosted sandbox's export could not be read: ${reason}`,
  failed: (error: unknown) => `That did not work: ${error instanceof Error ? error.message : String(error)}`,
} as const;
