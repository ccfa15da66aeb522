/**
 * The parts of an OpenAPI 3.1 document this portal reads, typed loosely where
 * JSON Schema allows anything. Pure types: shared by the build-time plugin,
 * the view-model builder and, later, the in-browser sandbox.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | {[key: string]: JsonValue};

export interface SchemaObject {
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  allOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  anyOf?: SchemaObject[];
  not?: SchemaObject;
  enum?: JsonValue[];
  const?: JsonValue;
  default?: JsonValue;
  examples?: JsonValue[];
  format?: string;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  additionalProperties?: boolean | SchemaObject;
  unevaluatedProperties?: boolean | SchemaObject;
  propertyNames?: SchemaObject;
  discriminator?: {propertyName: string; mapping?: Record<string, string>};
  'x-state-machine'?: StateMachine;
}

export interface StateMachine {
  initial: string;
  states: Array<{name: string; description: string; terminal: boolean}>;
  transitions: Array<{from: string; to: string; trigger: string}>;
}

export interface ExampleObject {
  summary?: string;
  description?: string;
  value: JsonValue;
}

export interface MediaTypeObject {
  schema?: SchemaObject;
  examples?: Record<string, ExampleObject>;
}

export interface ParameterObject {
  $ref?: string;
  name: string;
  in: 'header' | 'path' | 'query' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: SchemaObject;
  example?: JsonValue;
}

export interface HeaderObject {
  $ref?: string;
  description?: string;
  schema?: SchemaObject;
}

export interface ResponseObject {
  $ref?: string;
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, MediaTypeObject>;
}

export interface OperationObject {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  parameters?: ParameterObject[];
  requestBody?: {required?: boolean; description?: string; content: Record<string, MediaTypeObject>};
  responses?: Record<string, ResponseObject>;
  'x-result-codes'?: string[];
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof httpMethods)[number];
export type PathItemObject = Partial<Record<HttpMethod, OperationObject>>;

export interface ResultCode {
  code: string;
  httpStatus: number;
  message: string;
  meaning: string;
  retry: boolean;
  action: string;
  scope?: 'common';
}

export interface NotificationDelivery {
  acknowledgement: string;
  retrySchedule: string[];
  summary: string;
  /** Which URL each group of event types goes to ("ORDER.*" or a comma-separated list of such patterns). */
  routing?: Array<{events: string; to: string}>;
  withoutUrl?: string;
}

/** A column of the reconciliation statement file (api/statement-columns.yaml), beside the contract. */
export interface StatementColumn {
  readonly name: string;
  readonly type: string;
  readonly example: string;
  readonly meaning: string;
}

/** x-idempotency: how merchant numbers make writes idempotent (rendered on /docs/idempotency). */
export interface IdempotencyRules {
  readonly namespaces: ReadonlyArray<{readonly field: string; readonly covers: string}>;
  readonly scope: string;
  readonly comparison: string;
  readonly acceptedOnly: string;
  readonly replay: string;
  readonly conflict: string;
  readonly tombstone: string;
  readonly withoutKey: string;
}

/** x-rate-limits: requests per second per operation class, and the headers that report them (rendered on /docs/rate-limits). */
export interface RateLimits {
  readonly unit: string;
  readonly classes: ReadonlyArray<{
    readonly name: string;
    readonly production: number;
    readonly sandbox: number;
    readonly covers: string;
    readonly operations: readonly string[];
  }>;
  readonly headers: ReadonlyArray<{readonly name: string; readonly meaning: string}>;
}

export interface OpenApiDocument {
  openapi: string;
  info: {title: string; version: string; description?: string};
  servers?: Array<{url: string; description?: string}>;
  paths?: Record<string, PathItemObject>;
  webhooks?: Record<string, PathItemObject>;
  components?: {
    schemas?: Record<string, SchemaObject>;
    parameters?: Record<string, ParameterObject>;
    headers?: Record<string, HeaderObject>;
    responses?: Record<string, ResponseObject>;
    securitySchemes?: Record<string, {description?: string}>;
  };
  /** Request signing (not an OpenAPI security scheme); requestHeaders are the headers every operation's request carries. */
  'x-signature'?: {
    description?: string;
    requestHeaders?: ParameterObject[];
    timestampWindowSeconds?: number;
    nonceRetentionSeconds?: number;
  };
  'x-result-codes'?: ResultCode[];
  'x-notification-delivery'?: NotificationDelivery;
  'x-idempotency'?: IdempotencyRules;
  'x-rate-limits'?: RateLimits;
}

/** Where an operation lives in the document. */
export interface OperationLocation {
  readonly operationId: string;
  readonly kind: 'operation' | 'webhook';
  /** Path template for operations, webhook name for webhooks. */
  readonly key: string;
  readonly method: HttpMethod;
  /** JSON pointer to the operation object. */
  readonly pointer: string;
  readonly operation: OperationObject;
}

/**
 * An operation's parameters as a request carries them: for operations (not webhooks), the signing headers of
 * x-signature.requestHeaders first, which the contract states once rather than on every operation.
 */
export function requestParameters(doc: OpenApiDocument, location: OperationLocation): ParameterObject[] {
  const signing = location.kind === 'operation' ? (doc['x-signature']?.requestHeaders ?? []) : [];
  return [...signing, ...(location.operation.parameters ?? [])].map((parameter) => deref(doc, parameter));
}

export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function listOperations(doc: OpenApiDocument): OperationLocation[] {
  const found: OperationLocation[] = [];
  for (const [kind, section] of [
    ['operation', doc.paths],
    ['webhook', doc.webhooks],
  ] as const) {
    const root = kind === 'operation' ? 'paths' : 'webhooks';
    for (const [key, item] of Object.entries(section ?? {})) {
      for (const method of httpMethods) {
        const operation = item[method];
        if (operation) {
          found.push({
            operationId: operation.operationId ?? '',
            kind,
            key,
            method,
            pointer: `/${root}/${escapePointerToken(key)}/${method}`,
            operation,
          });
        }
      }
    }
  }
  return found;
}

/** Resolves a local `#/...` reference; throws naming the reference when it dangles. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) {
    throw new Error(`only local references are supported, got "${ref}"`);
  }
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(token in node)) {
      throw new Error(`reference "${ref}" does not resolve (no "${token}")`);
    }
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** Follows `$ref` chains on parameters, headers and responses. */
export function deref<T extends {$ref?: string}>(doc: OpenApiDocument, value: T): T {
  let current: T = value;
  for (let depth = 0; current.$ref !== undefined; depth += 1) {
    if (depth > 10) throw new Error(`reference loop at "${current.$ref}"`);
    current = resolvePointer(doc, current.$ref) as T;
  }
  return current;
}
