/**
 * What the engine needs from the contract (api/openapi.yaml) and the sandbox data (api/sandbox.yaml),
 * extracted once by a pure function: routes with their parameters and schema pointers, the result-code
 * catalogue, the state machines, signing windows, the notification schedule and routing, the rate-limit
 * classes. Both hosts build it the same way (the server from the YAML at start, the browser at build
 * time), so no business rule is copied into the engine's code: it reads them from here.
 */
import {
  deref,
  escapePointerToken,
  listOperations,
  type JsonValue,
  type OpenApiDocument,
  type ParameterObject,
  type SchemaObject,
} from '../../contract/openapiTypes';
import type {SandboxData} from './rules/types';
import {factorSharedParts} from '../../contract/sharedParts';

/** A path or query parameter, with the JSON pointer of its schema for validation. */
export interface ParameterSpec {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  /** JSON pointer (without "#") of the parameter's schema in the contract. */
  readonly schemaPointer: string;
  /** The schema's JSON type, to turn the query text into a value before validation. */
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  /** "date-time" parameters take the API's one timestamp format only, YYYY-MM-DDTHH:MM:SSZ. */
  readonly format?: string;
}

export interface OperationSpec {
  readonly operationId: string;
  readonly method: string;
  /** Full request path template, with the server's base path: "/v1/orders/{merchantOrderNo}". */
  readonly path: string;
  readonly parameters: readonly ParameterSpec[];
  /** JSON pointer of the request body schema; absent when the operation takes no body. */
  readonly bodySchemaPointer?: string;
  /** True when the contract's requestBody is not required: a request with no body is read as `{}`. */
  readonly bodyOptional?: boolean;
  /** The result codes of the operation's own x-result-codes (the common ones apply to all). */
  readonly resultCodes: readonly string[];
  readonly rateClass: string;
}

/** A named example of a notification's body: one scenario the simulator can produce. */
export interface NotificationScenarioSpec {
  readonly name: string;
  readonly summary: string;
  readonly value: JsonValue;
}

/** A notification (a webhook of the contract): what it carries and the scenarios its examples name. */
export interface WebhookSpec {
  /** The webhook's key under `webhooks:`, such as paymentResult. */
  readonly key: string;
  readonly operationId: string;
  readonly summary: string;
  /** The event types its body may carry, from the schema's eventType enum (or const). */
  readonly eventTypes: readonly string[];
  /** JSON pointer of the body schema, for the compiled validator. */
  readonly bodySchemaPointer: string;
  readonly scenarios: readonly NotificationScenarioSpec[];
}

export interface ResultCodeSpec {
  readonly httpStatus: number;
  readonly message: string;
}

export interface StateMachineSpec {
  readonly initial: string;
  readonly terminal: readonly string[];
  /** "FROM>TO" for every declared transition. */
  readonly transitions: readonly string[];
}

export interface EngineSpec {
  /** The server URL's path, "/v1". */
  readonly basePath: string;
  readonly contractVersion: string;
  readonly operations: readonly OperationSpec[];
  /** The notifications the sandbox sends, with their example scenarios (for the notification simulator). */
  readonly webhooks: readonly WebhookSpec[];
  readonly resultCodes: Readonly<Record<string, ResultCodeSpec>>;
  /** State machines by the schema that declares them: OrderStatus, RefundStatus, TransferStatus... */
  readonly stateMachines: Readonly<Record<string, StateMachineSpec>>;
  readonly signing: {readonly timestampWindowSeconds: number; readonly nonceRetentionSeconds: number};
  /** x-time-limits: refund window, expiry range, cashier URL, list range, agreement link and auth code lifetimes. */
  readonly timeLimits: TimeLimits;
  /** The statement file's header row: the column names of api/statement-columns.yaml, in order. */
  readonly statementHeader: string;
  readonly delivery: {
    readonly timeoutSeconds: number;
    readonly retryScheduleSeconds: readonly number[];
    readonly eventRetentionDays: number;
    /** Event type prefixes to the objects whose notifyUrl applies, in order, before the default URL. */
    readonly routing: ReadonlyArray<{readonly prefixes: readonly string[]; readonly sources: readonly NotifySource[]}>;
  };
  readonly rateLimits: ReadonlyArray<{readonly name: string; readonly perSecond: number; readonly operations: readonly string[]}>;
  readonly pageSizeDefault: number;
  /** Create order, DYNAMIC_QR: how long the QR code stays scannable when qrExpiresInSeconds is left out (its schema's default). */
  readonly qrExpiresDefaultSeconds: number;
  /** Create order: the fields each scene requires beyond the common ones (SCENE_PARAMETERS_MISSING). */
  readonly sceneFields: Readonly<Record<string, readonly string[]>>;
  readonly sandbox: SandboxData;
}

/** What the in-browser sandbox loads (written at build time by plugins/content/sandbox-engine). */
export interface BrowserSandboxData {
  readonly spec: EngineSpec;
  readonly providerPrivateKeyPem: string;
  readonly merchantPublicKeyPem: string;
  readonly merchantPrivateKeyPem: string;
}

/** Where a notification's URL may come from, in the order the routing rule names them. */
export type NotifySource = 'order' | 'refund' | 'payout' | 'agreement' | 'default';

export class SpecError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SpecError';
  }
}

function parseDuration(text: string): number {
  const match = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (!match) throw new SpecError(`x-notification-delivery.retrySchedule: "${text}" is not a duration such as 15s, 5m, 1h.`);
  const unit = {s: 1, m: 60, h: 3600, d: 86400}[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}

function schemaFormat(doc: OpenApiDocument, schema: SchemaObject | undefined): string | undefined {
  return schema ? deref(doc, schema).format : undefined;
}

function schemaType(doc: OpenApiDocument, schema: SchemaObject | undefined): ParameterSpec['type'] {
  const resolved = schema ? deref(doc, schema) : undefined;
  const type = Array.isArray(resolved?.type) ? resolved?.type[0] : resolved?.type;
  return type === 'integer' || type === 'number' || type === 'boolean' ? type : 'string';
}

/** The routing rule's "to" text, read as the ordered sources it names ("The refund's notifyUrl, else its order's..."). */
function routingSources(to: string): NotifySource[] {
  const sources: NotifySource[] = [];
  for (const clause of to.split(/,\s*else\s+/i)) {
    const lower = clause.toLowerCase();
    if (lower.includes('default url')) sources.push('default');
    else if (lower.includes('refund')) sources.push('refund');
    else if (lower.includes('payout')) sources.push('payout');
    else if (lower.includes('agreement')) sources.push('agreement');
    else if (lower.includes('order')) sources.push('order');
    else throw new SpecError(`x-notification-delivery.routing: cannot read "${clause}" as a URL source.`);
  }
  return sources;
}

/** The eventType values a notification schema allows: its enum or const, looked for through allOf and $ref. */
function eventTypesOf(doc: OpenApiDocument, schema: SchemaObject | undefined, depth = 0): string[] {
  if (!schema || depth > 8) return [];
  const resolved = deref(doc, schema);
  const property = resolved.properties?.['eventType'];
  const own = property ? deref(doc, property) : undefined;
  const found = [...(own?.enum ?? []), ...(own?.const !== undefined ? [own.const] : [])].filter(
    (value): value is string => typeof value === 'string',
  );
  for (const part of resolved.allOf ?? []) found.push(...eventTypesOf(doc, part, depth + 1));
  return [...new Set(found)];
}

function webhookSpecs(doc: OpenApiDocument): WebhookSpec[] {
  const webhooks: WebhookSpec[] = [];
  for (const location of listOperations(doc)) {
    if (location.kind !== 'webhook') continue;
    const media = location.operation.requestBody?.content?.['application/json'];
    if (!media?.schema) throw new SpecError(`The webhook ${location.key} has no application/json request body schema.`);
    const eventTypes = eventTypesOf(doc, media.schema);
    if (eventTypes.length === 0) throw new SpecError(`The webhook ${location.key}'s body schema names no eventType (enum or const).`);
    const scenarios = Object.entries(media.examples ?? {}).map(([name, example]) => ({
      name,
      summary: example.summary ?? name,
      value: example.value,
    }));
    if (scenarios.length === 0)
      throw new SpecError(`The webhook ${location.key} has no named examples: the simulator has no scenario to produce.`);
    webhooks.push({
      key: location.key,
      operationId: location.operationId,
      summary: location.operation.summary ?? location.operationId,
      eventTypes,
      bodySchemaPointer: `${location.pointer}/requestBody/content/${escapePointerToken('application/json')}/schema`,
      scenarios,
    });
  }
  return webhooks;
}

/** The contract's operations as the engine routes and validates them: path, parameters, body schema, rate class. */
function operationSpecs(doc: OpenApiDocument, basePath: string, classOf: ReadonlyMap<string, string>): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const location of listOperations(doc)) {
    if (location.kind !== 'operation') continue;
    const rateClass = classOf.get(location.operationId);
    if (!rateClass) throw new SpecError(`${location.operationId} is in no class of x-rate-limits.`);
    const parameters: ParameterSpec[] = [];
    (location.operation.parameters ?? []).forEach((raw: ParameterObject, index: number) => {
      const parameter = deref(doc, raw);
      if (parameter.in !== 'path' && parameter.in !== 'query') return; // headers are the signature's
      const pointer = raw.$ref ? `${raw.$ref.slice(1)}/schema` : `${location.pointer}/parameters/${index}/schema`;
      const format = schemaFormat(doc, parameter.schema);
      parameters.push({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required === true,
        schemaPointer: pointer,
        type: schemaType(doc, parameter.schema),
        ...(format ? {format} : {}),
      });
    });
    const media = location.operation.requestBody?.content?.['application/json'];
    operations.push({
      operationId: location.operationId,
      method: location.method.toUpperCase(),
      path: `${basePath}${location.key}`,
      parameters,
      ...(media?.schema
        ? {bodySchemaPointer: `${location.pointer}/requestBody/content/${escapePointerToken('application/json')}/schema`}
        : {}),
      ...(media?.schema && location.operation.requestBody?.required !== true ? {bodyOptional: true} : {}),
      resultCodes: (location.operation as {'x-result-codes'?: string[]})['x-result-codes'] ?? [],
      rateClass,
    });
  }

  return operations;
}

/** Each schema's x-state-machine: its transitions as "FROM>TO", for the guard every status change passes. */
function stateMachineSpecs(doc: OpenApiDocument): Record<string, StateMachineSpec> {
  const stateMachines: Record<string, StateMachineSpec> = {};
  for (const [name, schema] of Object.entries(doc.components?.schemas ?? {})) {
    const machine = schema['x-state-machine'];
    if (!machine) continue;
    stateMachines[name] = {
      initial: machine.initial,
      terminal: machine.states.filter((state) => state.terminal).map((state) => state.name),
      transitions: machine.transitions.map((transition) => `${transition.from}>${transition.to}`),
    };
  }

  return stateMachines;
}

/** Create order's scenes and the fields each needs beyond the common ones (SCENE_PARAMETERS_MISSING). */
function sceneFieldsOf(doc: OpenApiDocument): Record<string, string[]> {
  const sceneFields: Record<string, string[]> = {};
  const createOrder = doc.components?.schemas?.['CreateOrderRequest'];
  for (const part of (createOrder ? factorSharedParts(createOrder, doc) : {}).allOf ?? []) {
    for (const variant of part.oneOf ?? []) {
      const scene = deref(doc, variant);
      const name = scene.properties?.['scene']?.const;
      if (typeof name === 'string') sceneFields[name] = (scene.required ?? []).filter((field) => field !== 'scene');
    }
  }
  if (Object.keys(sceneFields).length === 0)
    throw new SpecError('CreateOrderRequest has no scene variants (a one-of of scenes, each the common fields and those of the scene).');

  return sceneFields;
}

export interface TimeLimits {
  readonly refundWindowDays: number;
  readonly expiryMinSeconds: number;
  readonly expiryMaxDays: number;
  readonly cashierUrlSeconds: number;
  readonly listRangeDays: number;
  readonly agreementLinkSeconds: number;
  readonly authCodeSeconds: number;
}

const timeLimitNames = [
  'refundWindowDays',
  'expiryMinSeconds',
  'expiryMaxDays',
  'cashierUrlSeconds',
  'listRangeDays',
  'agreementLinkSeconds',
  'authCodeSeconds',
] as const;

function timeLimitsOf(doc: OpenApiDocument): TimeLimits {
  const declared = (doc as {'x-time-limits'?: Partial<Record<string, unknown>>})['x-time-limits'] ?? {};
  const limits: Record<string, number> = {};
  for (const name of timeLimitNames) {
    const value = declared[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
      throw new SpecError(`x-time-limits.${name} must be a positive whole number.`);
    limits[name] = value;
  }
  return limits as unknown as TimeLimits;
}

export function buildEngineSpec(
  doc: OpenApiDocument,
  sandbox: SandboxData,
  statementColumns: ReadonlyArray<{readonly name: string}>,
): EngineSpec {
  const server = doc.servers?.[0]?.url;
  if (!server) throw new SpecError('The contract has no servers[0].url.');
  const basePath = new URL(server).pathname.replace(/\/$/, '');

  const rateLimits = (doc['x-rate-limits']?.classes ?? []).map((entry) => ({
    name: entry.name,
    perSecond: entry.sandbox,
    operations: entry.operations,
  }));
  const classOf = new Map<string, string>();
  for (const entry of rateLimits) for (const operationId of entry.operations) classOf.set(operationId, entry.name);

  const operations = operationSpecs(doc, basePath, classOf);

  const resultCodes: Record<string, ResultCodeSpec> = {};
  for (const entry of doc['x-result-codes'] ?? []) resultCodes[entry.code] = {httpStatus: entry.httpStatus, message: entry.message};

  const stateMachines = stateMachineSpecs(doc);

  const signing = (doc as {'x-signature'?: {timestampWindowSeconds?: number; nonceRetentionSeconds?: number}})['x-signature'];
  const delivery = doc['x-notification-delivery'] as
    | (OpenApiDocument['x-notification-delivery'] & {timeoutSeconds?: number; eventRetentionDays?: number})
    | undefined;
  if (!delivery) throw new SpecError('The contract has no x-notification-delivery.');
  const pageSize = deref(doc, doc.components?.parameters?.['PageSize'] ?? ({} as ParameterObject)).schema?.default;
  const qrSchema = doc.components?.schemas?.['DynamicQrScene'] as {properties?: Record<string, {default?: unknown}>} | undefined;
  const qrExpiresDefaultSeconds = qrSchema?.properties?.['qrExpiresInSeconds']?.default;
  if (typeof qrExpiresDefaultSeconds !== 'number')
    throw new SpecError('DynamicQrScene.qrExpiresInSeconds has no default: the sandbox needs it for a QR code created without one.');

  const sceneFields = sceneFieldsOf(doc);

  return {
    basePath,
    contractVersion: doc.info.version,
    sceneFields,
    operations,
    webhooks: webhookSpecs(doc),
    resultCodes,
    stateMachines,
    signing: {timestampWindowSeconds: signing?.timestampWindowSeconds ?? 300, nonceRetentionSeconds: signing?.nonceRetentionSeconds ?? 600},
    timeLimits: timeLimitsOf(doc),
    statementHeader: statementColumns.map((column) => column.name).join(','),
    delivery: {
      timeoutSeconds: delivery.timeoutSeconds ?? 10,
      retryScheduleSeconds: delivery.retrySchedule.map(parseDuration),
      eventRetentionDays: delivery.eventRetentionDays ?? 30,
      routing: (delivery.routing ?? []).map((rule) => ({
        prefixes: rule.events.split(',').map((pattern) => pattern.trim().replace(/\*$/, '')),
        sources: routingSources(rule.to),
      })),
    },
    rateLimits,
    pageSizeDefault: typeof pageSize === 'number' ? pageSize : 20,
    qrExpiresDefaultSeconds,
    sandbox,
  };
}

/** A JSON value's stable text: members sorted, so bodies compare as JSON values (x-idempotency.comparison). */
export function canonicalJson(value: JsonValue | undefined): string {
  if (value === undefined) return '';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  return `{${Object.keys(value)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`)
    .join(',')}}`;
}
