/**
 * What the Try it panel knows about each operation, built from the contract at build time by the
 * sandbox-engine plugin (@generated/sandbox-engine/tryit.json) and read by the panel when a reader opens
 * it; and the pure helpers the panel uses. Isomorphic, no DOM.
 */
import type {JsonValue, StateMachine} from '../contract/openapiTypes';
import {encodeTargetComponent} from './samples/types';
import {downloads, downloadsPath} from './downloads';

export interface TryItParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description: string;
  readonly type: string;
  readonly enum?: readonly string[];
  readonly example?: string;
  /** JSON pointer of its schema in the contract, for the compiled validator. */
  readonly schemaPointer: string;
}

export interface TryItExample {
  readonly name: string;
  readonly summary: string;
  readonly value: JsonValue;
}

/** A field of a request body, for the panel's form: a value to type, a choice, or an object of more fields. */
export interface TryItField {
  readonly name: string;
  readonly required: boolean;
  /** string, integer, number or boolean for a value; object for nested fields; other (arrays, maps) for the JSON editor only. */
  readonly type: string;
  readonly enum?: readonly string[];
  readonly hint?: string;
  readonly fields?: readonly TryItField[];
  /** Variants of an object told apart by one field's constant value (scene, payeeType, accountType). */
  readonly variants?: readonly TryItVariant[];
}

export interface TryItVariant {
  /** The field that names the variant, and its value for this one. */
  readonly discriminator: string;
  readonly tag: string;
  readonly fields: readonly TryItField[];
}

export interface TryItBodyForm {
  readonly fields: readonly TryItField[];
  readonly variants?: readonly TryItVariant[];
}

export interface TryItOperation {
  readonly operationId: string;
  /** The URL path of the operation's API page, where its Try it panel opens. */
  readonly page?: string;
  readonly summary: string;
  readonly method: string;
  /** Path template after the server URL, such as /orders/{merchantOrderNo}. */
  readonly path: string;
  readonly parameters: readonly TryItParameter[];
  readonly examples: readonly TryItExample[];
  readonly bodyPointer?: string;
  /** The body's fields, for the form beside the JSON editor. */
  readonly bodyForm?: TryItBodyForm;
  /** Schema pointers of the success (2xx) and error responses, for validating what came back. */
  readonly successPointer?: string;
  readonly errorPointer?: string;
  /** Names of the state machines (x-state-machine) of the objects it returns. */
  readonly machines: readonly string[];
}

/** A state machine and the files of its state diagram (light and dark), as drawn at build time under /diagrams/. */
export interface TryItMachine extends StateMachine {
  readonly diagram?: {readonly light: string; readonly dark: string};
}

export interface TryItData {
  /** The server URL's path, "/v1": every request target starts with it. */
  readonly basePath: string;
  /** Test cards the shopper actions use, from the sandbox data: one that pays by the amount endings, one declined. */
  readonly cards: {readonly pays: string; readonly declined: string};
  /** When a finished day's statement becomes ready, as HH:MM:SS UTC the next day (the sandbox data's statements.readyAfterUtc). */
  readonly statementReadyAfterUtc: string;
  readonly operations: readonly TryItOperation[];
  readonly machines: Readonly<Record<string, TryItMachine>>;
}

/** The request target for the given parameter values: /v1, the path with its parameters, and the query of the non-empty ones. */
export function requestTarget(basePath: string, operation: TryItOperation, values: Readonly<Record<string, string>>): string {
  let path = operation.path;
  const query: string[] = [];
  for (const parameter of operation.parameters) {
    const value = values[parameter.name] ?? '';
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeTargetComponent(value));
    else if (value !== '') query.push(`${encodeTargetComponent(parameter.name)}=${encodeTargetComponent(value)}`);
  }
  return `${basePath}${path}${query.length ? `?${query.join('&')}` : ''}`;
}

/** Where an object of the response stands: the first object (breadth first) whose status is a state of one of the machines. */
export function currentState(
  data: unknown,
  machines: readonly {name: string; machine: StateMachine}[],
): {machine: string; state: string} | undefined {
  const queue: unknown[] = [data];
  for (let seen = 0; queue.length > 0 && seen < 50; seen += 1) {
    const value = queue.shift();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      queue.push(...value.slice(0, 5));
      continue;
    }
    const status = (value as Record<string, unknown>)['status'];
    if (typeof status === 'string') {
      const found = machines.find((candidate) => candidate.machine.states.some((state) => state.name === status));
      if (found) return {machine: found.name, state: status};
    }
    queue.push(...Object.values(value));
  }
  return undefined;
}

/** Where the local sandbox listens by default: Try it's local target, allowed by the Content-Security-Policy. */
export const localSandboxOrigin = 'http://127.0.0.1:4010';

/** How a reader starts the downloaded local sandbox (/docs/local-sandbox) where Try it and the simulators call it. */
export const localSandboxStart = `node ${downloads.sandbox.file} --port ${new URL(localSandboxOrigin).port}`;

/** What Try it and the notification simulator say when nothing answers at the local sandbox's origin. */
export const localSandboxMissing = (retry: string): string =>
  `Nothing answered at ${localSandboxOrigin}: start the local sandbox with ${localSandboxStart} (download it from ${downloadsPath}${downloads.sandbox.file}; /docs/local-sandbox says how), then ${retry}.`;

type JsonRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is JsonRecord => value !== null && typeof value === 'object' && !Array.isArray(value);

/** One input of the body form: where its value lives in the JSON, and what it accepts. */
export interface FormRow {
  readonly path: readonly string[];
  readonly field: TryItField;
  /** The choices of a select: the enum, or the variant tags of a discriminator. */
  readonly options?: readonly string[];
  /** Set when choosing another value switches the variant of the object at this path's parent. */
  readonly switchesVariant?: readonly TryItVariant[];
  /** The current value as text ('' when the JSON leaves it out). */
  readonly value: string;
}

const leafTypes = new Set(['string', 'integer', 'number', 'boolean']);

/**
 * The inputs of the body form for the body as it stands: every field the schema names, nested objects
 * flattened (amount.value), and of a one-of object only the variant its discriminator currently names,
 * so changing the scene changes the fields. Arrays and free-form maps are left to the JSON editor.
 */
export function formRows(form: TryItBodyForm, body: unknown): FormRow[] {
  const rows: FormRow[] = [];
  const visit = (
    fields: readonly TryItField[],
    variants: readonly TryItVariant[] | undefined,
    value: unknown,
    prefix: readonly string[],
  ) => {
    const object = isRecord(value) ? value : {};
    const discriminator = variants?.[0]?.discriminator;
    const addLeaf = (field: TryItField, options?: readonly string[], switchesVariant?: readonly TryItVariant[]) => {
      const current = object[field.name];
      rows.push({
        path: [...prefix, field.name],
        field,
        ...(options ? {options} : field.enum ? {options: field.enum} : field.type === 'boolean' ? {options: ['true', 'false']} : {}),
        ...(switchesVariant ? {switchesVariant} : {}),
        value: current === undefined || current === null ? '' : typeof current === 'string' ? current : JSON.stringify(current),
      });
    };
    const names = new Set(fields.map((field) => field.name));
    for (const field of fields) {
      if (field.name === discriminator && variants)
        addLeaf(
          field,
          variants.map((variant) => variant.tag),
          variants,
        );
      else if (field.fields || field.variants) visit(field.fields ?? [], field.variants, object[field.name], [...prefix, field.name]);
      else if (leafTypes.has(field.type)) addLeaf(field);
    }
    if (!variants || !discriminator) return;
    if (!names.has(discriminator))
      addLeaf(
        {name: discriminator, required: true, type: 'string'},
        variants.map((variant) => variant.tag),
        variants,
      );
    const chosen = variants.find((variant) => variant.tag === object[discriminator]);
    if (chosen)
      visit(
        chosen.fields.filter((field) => field.name !== discriminator && !names.has(field.name)),
        undefined,
        object,
        prefix,
      );
  };
  visit(form.fields, form.variants, body, []);
  return rows;
}

/** The value typed into a form input, as JSON: a number for a numeric field that reads as one, true or false, or the text. */
function typedValue(field: TryItField, text: string): unknown {
  if ((field.type === 'integer' || field.type === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text.trim());
  if (field.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * The body with one form input changed: an empty input removes the field (the validator then names a
 * required one); a new discriminator value drops the fields of the variant it replaces.
 */
export function setFormValue(body: unknown, row: FormRow, text: string): JsonRecord {
  const root: JsonRecord = isRecord(body) ? structuredClone(body) : {};
  let object = root;
  for (const name of row.path.slice(0, -1)) {
    if (!isRecord(object[name])) object[name] = {};
    object = object[name] as JsonRecord;
  }
  const name = row.path[row.path.length - 1] as string;
  if (row.switchesVariant) {
    const old = row.switchesVariant.find((variant) => variant.tag === object[name]);
    const next = row.switchesVariant.find((variant) => variant.tag === text);
    const kept = new Set(next?.fields.map((field) => field.name));
    for (const field of old?.fields ?? []) if (!kept.has(field.name)) Reflect.deleteProperty(object, field.name);
  }
  if (text === '') Reflect.deleteProperty(object, name);
  else object[name] = typedValue(row.field, text);
  return root;
}

/**
 * Which form input a validator problem is about, as its dotted path ("amount.value"), or undefined when it
 * is about the body as a whole. Reads the wording of src/contract/schemaErrors.ts: "/amount/value must
 * be >= 1", "(top level) must have required property 'returnUrl'".
 */
export function problemField(problem: string): string | undefined {
  const match = /^(\(top level\)|\/\S*) (.*)$/.exec(problem);
  if (!match) return undefined;
  const path =
    match[1] === '(top level)'
      ? []
      : (match[1] as string)
          .slice(1)
          .split('/')
          .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  const required = /^must have required property '([^']+)'/.exec(match[2] as string);
  if (required) path.push(required[1] as string);
  return path.length ? path.join('.') : undefined;
}

/**
 * Prefilled values for an operation's path parameters (and a body's quoteId) from the newest objects in
 * the reader's sandbox: Retrieve order detail opens on the order just created. Payout numbers go to the
 * operations of their own kind, told apart by the path.
 */
export function latestValues(operation: TryItOperation, latest: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const kind = operation.path.startsWith('/card-payouts')
    ? 'CARD'
    : operation.path.startsWith('/bank-transfers')
      ? 'BANK'
      : operation.path.startsWith('/transfers')
        ? 'WALLET'
        : undefined;
  const values: Record<string, string> = {};
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path') continue;
    const value = parameter.name === 'merchantTransferNo' ? (kind ? latest[kind] : undefined) : latest[parameter.name];
    if (value) values[parameter.name] = value;
  }
  return values;
}

/**
 * The newest day, as YYYY-MM-DD, whose statement can be downloaded at `now`: a day's statement is ready
 * `readyAfterUtc` (HH:MM:SS) after the day ends, so just after midnight UTC it is still the day before yesterday.
 */
export function newestStatementDay(now: number, readyAfterUtc: string): string {
  const readyAfterMs = Date.parse(`1970-01-01T${readyAfterUtc}Z`);
  if (Number.isNaN(readyAfterMs)) throw new Error(`statements.readyAfterUtc must be HH:MM:SS, not ${readyAfterUtc}`);
  return new Date(now - readyAfterMs - 86_400_000).toISOString().slice(0, 10);
}

/**
 * A list's creation-time range as the panel prefills it: the last seven days up to an hour ahead, so the
 * list shows what the reader just made (the examples' dates are long past). Undefined for other parameters.
 */
export function creationWindow(name: string, now: number): string | undefined {
  const at = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  if (name === 'createdFrom') return at(now - 7 * 86_400_000);
  if (name === 'createdTo') return at(now + 3_600_000);
  return undefined;
}
