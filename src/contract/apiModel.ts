/**
 * Turns one operation or webhook of the contract into a serialisable view
 * model that the API page components render: nested field tables, examples,
 * response codes and state machines. Pure: Markdown is rendered by a function
 * the caller passes in (the build uses remark; a future browser sandbox can
 * pass its own).
 */
import {
  deref,
  escapePointerToken,
  requestParameters,
  resolvePointer,
  type JsonValue,
  type MediaTypeObject,
  type OpenApiDocument,
  type OperationLocation,
  type ParameterObject,
  type ResultCode,
  type SchemaObject,
  type StateMachine,
} from './openapiTypes';
import {factorSharedParts} from './sharedParts';
import {contractEventTypes, transitionLabel} from './transitionLabels';

export type RenderMarkdown = (markdown: string) => string;

export interface FieldView {
  readonly name: string;
  readonly required: boolean;
  /** Display type, e.g. "string", "integer", "object", "array of object". */
  readonly type: string;
  /** Component schema the field's type comes from, e.g. "Money". */
  readonly typeName?: string;
  readonly descriptionHtml?: string;
  readonly constraints: readonly string[];
  readonly enumValues?: readonly string[];
  readonly constValue?: string;
  readonly defaultValue?: string;
  readonly fields?: readonly FieldView[];
  readonly variants?: readonly VariantView[];
}

export interface VariantView {
  readonly title: string;
  readonly descriptionHtml?: string;
  readonly fields: readonly FieldView[];
}

export interface BodyView {
  readonly descriptionHtml?: string;
  readonly fields: readonly FieldView[];
  readonly variants?: readonly VariantView[];
}

export interface ExampleView {
  readonly name: string;
  readonly summary: string;
  readonly json: string;
  readonly value: JsonValue;
}

export interface ResponseView {
  readonly status: string;
  readonly descriptionHtml: string;
  readonly body?: BodyView;
  readonly examples: readonly ExampleView[];
  /** On `default` only: the 4xx/5xx statuses the operation declares with a shared error response, shown here once. */
  readonly sharedErrorStatuses?: readonly string[];
}

export interface ResultCodeView extends ResultCode {
  readonly common: boolean;
}

export interface StateMachineView extends StateMachine {
  readonly schemaName: string;
  /** Each transition with its short edge label for the diagram (transitionLabels.ts). */
  transitions: Array<StateMachine['transitions'][number] & {readonly label: string}>;
}

export interface OperationView {
  readonly operationId: string;
  readonly kind: 'operation' | 'webhook';
  readonly method: string;
  /** Path template relative to the server URL, or the webhook name. */
  readonly path: string;
  readonly summary: string;
  readonly descriptionHtml: string;
  readonly tag: string;
  readonly servers: ReadonlyArray<{url: string; description: string}>;
  readonly headerParameters: readonly FieldView[];
  readonly pathParameters: readonly FieldView[];
  readonly queryParameters: readonly FieldView[];
  readonly requestBody?: BodyView;
  readonly requestExamples: readonly ExampleView[];
  readonly responses: readonly ResponseView[];
  readonly resultCodes: readonly ResultCodeView[];
  readonly stateMachines: readonly StateMachineView[];
  readonly delivery?: {
    readonly acknowledgement: string;
    readonly retrySchedule: readonly string[];
    readonly summary: string;
    /** Where this notification is sent, from x-notification-delivery.routing. */
    readonly route?: string;
    readonly withoutUrl?: string;
  };
}

const refName = (ref: string): string | undefined => /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];

interface Walker {
  readonly doc: OpenApiDocument;
  readonly md: RenderMarkdown;
  readonly machines: Map<string, StateMachineView>;
}

/** Follows a schema's $ref, keeping the first component name met and the nearest description. */
function resolveSchema(w: Walker, schema: SchemaObject): {schema: SchemaObject; name?: string; description?: string} {
  let current = schema;
  let name: string | undefined;
  const description = schema.description;
  for (let depth = 0; current.$ref !== undefined; depth += 1) {
    if (depth > 10) throw new Error(`reference loop at ${current.$ref}`);
    name ??= refName(current.$ref);
    const target = resolvePointer(w.doc, current.$ref) as SchemaObject;
    const machine = target['x-state-machine'];
    const targetName = refName(current.$ref);
    if (machine && targetName && !w.machines.has(targetName)) {
      const events = contractEventTypes(w.doc);
      const transitions = machine.transitions.map((transition) => ({
        ...transition,
        label: transitionLabel(targetName, transition, events),
      }));
      w.machines.set(targetName, {...machine, transitions, schemaName: targetName});
    }
    current = target;
  }
  return {schema: current, name, description: description ?? current.description};
}

function show(value: JsonValue | undefined): string | undefined {
  return value === undefined ? undefined : typeof value === 'string' ? value : JSON.stringify(value);
}

function constraintsOf(schema: SchemaObject): string[] {
  const out: string[] = [];
  if (schema.format) out.push(`format: ${schema.format}`);
  if (schema.minLength !== undefined && schema.maxLength !== undefined) out.push(`${schema.minLength} to ${schema.maxLength} characters`);
  else if (schema.maxLength !== undefined) out.push(`at most ${schema.maxLength} characters`);
  else if (schema.minLength !== undefined) out.push(`at least ${schema.minLength} characters`);
  if (schema.minimum !== undefined && schema.maximum !== undefined) out.push(`${schema.minimum} to ${schema.maximum}`);
  else if (schema.minimum !== undefined) out.push(`minimum ${schema.minimum}`);
  else if (schema.maximum !== undefined) out.push(`maximum ${schema.maximum}`);
  if (schema.maxItems !== undefined) out.push(`at most ${schema.maxItems} items`);
  if (schema.maxProperties !== undefined) out.push(`at most ${schema.maxProperties} keys`);
  if (schema.pattern) out.push(`pattern: ${schema.pattern}`);
  return out;
}

interface ObjectShape {
  properties: Array<[string, SchemaObject]>;
  required: Set<string>;
  variants: VariantView[];
  description?: string;
}

/** Merges allOf parts and collects oneOf/anyOf variants of an object-like schema. */
function objectShape(w: Walker, schema: SchemaObject, stack: readonly string[]): ObjectShape {
  const {schema: found, description} = resolveSchema(w, schema);
  const resolved = factorSharedParts(found, w.doc);
  const shape: ObjectShape = {properties: [], required: new Set(resolved.required ?? []), variants: [], description};
  // Later parts refine earlier ones (allOf of an envelope and its data, for example).
  const addProperty = (name: string, property: SchemaObject) => {
    const existing = shape.properties.find(([known]) => known === name);
    if (existing) existing[1] = {...existing[1], ...property};
    else shape.properties.push([name, property]);
  };
  for (const part of resolved.allOf ?? []) {
    const inner = objectShape(w, part, stack);
    for (const [name, property] of inner.properties) addProperty(name, property);
    inner.required.forEach((name) => shape.required.add(name));
    shape.variants.push(...inner.variants);
    shape.description ??= inner.description;
  }
  for (const [name, property] of Object.entries(resolved.properties ?? {})) addProperty(name, property);
  for (const option of resolved.oneOf ?? resolved.anyOf ?? []) {
    const {schema: variant, name} = resolveSchema(w, option);
    const inner = objectShape(w, option, stack);
    const discriminator = inner.properties.find(([, property]) => property.const !== undefined);
    shape.variants.push({
      title: variant.title ?? show(discriminator?.[1].const) ?? name ?? 'Variant',
      descriptionHtml: variant.description ? w.md(variant.description) : undefined,
      fields: fieldsOf(w, inner, stack),
    });
  }
  return shape;
}

function fieldsOf(w: Walker, shape: ObjectShape, stack: readonly string[]): FieldView[] {
  return shape.properties.map(([name, property]) => fieldView(w, name, shape.required.has(name), property, stack));
}

function fieldView(w: Walker, name: string, required: boolean, schema: SchemaObject, stack: readonly string[]): FieldView {
  const {schema: resolved, name: typeName, description} = resolveSchema(w, schema);
  const merged: SchemaObject = {...resolved, ...Object.fromEntries(Object.entries(schema).filter(([key]) => key !== '$ref'))};
  const base = {
    name,
    required,
    typeName,
    descriptionHtml: description ? w.md(description) : undefined,
    constraints: constraintsOf(merged),
    enumValues: merged.enum?.map((value) => show(value) ?? ''),
    constValue: show(merged.const),
    defaultValue: show(merged.default),
  };
  if (typeName && stack.includes(typeName)) {
    return {...base, type: 'object'};
  }
  const nextStack = typeName ? [...stack, typeName] : stack;
  const isObject = merged.type === 'object' || merged.properties !== undefined || merged.allOf !== undefined || merged.oneOf !== undefined;
  if (merged.type === 'array' && merged.items) {
    const item = resolveSchema(w, merged.items);
    const itemShape =
      item.schema.type === 'object' || item.schema.properties || item.schema.allOf ? objectShape(w, merged.items, nextStack) : undefined;
    return {
      ...base,
      type: `array of ${item.name ?? (Array.isArray(item.schema.type) ? item.schema.type.join(' or ') : (item.schema.type ?? 'values'))}`,
      fields: itemShape ? fieldsOf(w, itemShape, nextStack) : undefined,
      variants: itemShape?.variants.length ? itemShape.variants : undefined,
    };
  }
  if (isObject) {
    const shape = objectShape(w, schema, nextStack);
    const additional = merged.additionalProperties;
    const mapNote = shape.properties.length === 0 && typeof additional === 'object' ? [`map of ${additional.type ?? 'values'}`] : [];
    return {
      ...base,
      type: 'object',
      constraints: [...base.constraints, ...mapNote],
      fields: shape.properties.length ? fieldsOf(w, shape, nextStack) : undefined,
      variants: shape.variants.length ? shape.variants : undefined,
    };
  }
  const type = Array.isArray(merged.type)
    ? merged.type.join(' or ')
    : (merged.type ?? (merged.const !== undefined ? typeof merged.const : 'any'));
  return {...base, type};
}

function bodyView(w: Walker, schema: SchemaObject): BodyView {
  const shape = objectShape(w, schema, []);
  return {
    descriptionHtml: shape.description ? w.md(shape.description) : undefined,
    fields: fieldsOf(w, shape, []),
    variants: shape.variants.length ? shape.variants : undefined,
  };
}

function examplesOf(media: {examples?: Record<string, {summary?: string; value: JsonValue}>} | undefined): ExampleView[] {
  return Object.entries(media?.examples ?? {}).map(([name, example]) => ({
    name,
    summary: example.summary ?? name,
    json: JSON.stringify(example.value, null, 2),
    value: example.value,
  }));
}

function parameterView(w: Walker, parameter: ParameterObject): FieldView {
  const field = fieldView(
    w,
    parameter.name,
    parameter.required === true,
    {...(parameter.schema ?? {}), description: parameter.description},
    [],
  );
  const example = parameter.example ?? parameter.schema?.examples?.[0];
  return example === undefined ? field : {...field, constraints: [...field.constraints, `example: ${show(example)}`]};
}

/** An example as an API page ships it to the browser: its JSON text, not the parsed value the build and the tools use. */
export type PageExampleView = Pick<ExampleView, 'name' | 'summary' | 'json'>;

export interface PageResponseView extends Omit<ResponseView, 'examples'> {
  readonly examples: readonly PageExampleView[];
}

/** An operation as its API page ships it (remarkApiReference): what the page's components render, nothing else. */
export interface PageOperationView extends Omit<OperationView, 'requestExamples' | 'responses'> {
  readonly requestExamples: readonly PageExampleView[];
  readonly responses: readonly PageResponseView[];
}

/**
 * The page's copy of an operation: examples without their parsed values (the JSON text holds the same), and
 * no keys without a value (each would be an `undefined` in the page's JavaScript).
 */
export function pageOperationView(operation: OperationView): PageOperationView {
  const examples = (list: readonly ExampleView[]): PageExampleView[] => list.map(({name, summary, json}) => ({name, summary, json}));
  const view: PageOperationView = {
    ...operation,
    requestExamples: examples(operation.requestExamples),
    responses: operation.responses.map((response) => ({...response, examples: examples(response.examples)})),
  };
  return JSON.parse(JSON.stringify(view)) as PageOperationView;
}

export function buildOperationView(doc: OpenApiDocument, location: OperationLocation, md: RenderMarkdown): OperationView {
  const w: Walker = {doc, md, machines: new Map()};
  const {operation} = location;
  const parameters = requestParameters(doc, location);
  const byPlace = (place: ParameterObject['in']) => parameters.filter((p) => p.in === place).map((p) => parameterView(w, p));

  const jsonBody = operation.requestBody?.content['application/json'];
  // The explicit error statuses point at shared components.responses that all carry the error envelope: one
  // `default` block names them instead of repeating the same envelope once per status on every page.
  const entries = Object.entries(operation.responses ?? {});
  const isSharedError = ([status, response]: (typeof entries)[number]) =>
    /^[45]\d\d$/.test(status) && (response.$ref ?? '').startsWith('#/components/responses/') && 'default' in (operation.responses ?? {});
  const sharedErrorStatuses = entries.filter(isSharedError).map(([status]) => status);
  const responses: ResponseView[] = entries
    .filter((entry) => !isSharedError(entry))
    .map(([status, response]) => {
      const resolved = deref(doc, response);
      const media = resolved.content?.['application/json'];
      return {
        status,
        descriptionHtml: md(resolved.description),
        body: media?.schema ? bodyView(w, media.schema) : undefined,
        examples: examplesOf(media),
        ...(status === 'default' && sharedErrorStatuses.length > 0 ? {sharedErrorStatuses} : {}),
      };
    });

  const catalogue = doc['x-result-codes'] ?? [];
  const specific = new Set(operation['x-result-codes'] ?? []);
  const resultCodes: ResultCodeView[] =
    location.kind === 'webhook'
      ? []
      : catalogue
          .filter((code) => code.scope === 'common' || specific.has(code.code))
          .map((code) => ({...code, common: code.scope === 'common'}));

  const policy = location.kind === 'webhook' ? doc['x-notification-delivery'] : undefined;
  const delivery = policy && {
    acknowledgement: policy.acknowledgement,
    retrySchedule: policy.retrySchedule,
    summary: policy.summary,
    route: routeOf(policy.routing ?? [], eventTypesOf(jsonBody)),
    withoutUrl: policy.withoutUrl,
  };
  return {
    operationId: location.operationId,
    kind: location.kind,
    method: location.method.toUpperCase(),
    path: location.key,
    summary: operation.summary ?? location.operationId,
    descriptionHtml: md(operation.description ?? ''),
    tag: operation.tags?.[0] ?? '',
    servers: (doc.servers ?? []).map((server) => ({url: server.url, description: server.description ?? ''})),
    headerParameters: byPlace('header'),
    pathParameters: byPlace('path'),
    queryParameters: byPlace('query'),
    requestBody: jsonBody?.schema ? bodyView(w, jsonBody.schema) : undefined,
    requestExamples: examplesOf(jsonBody),
    responses,
    resultCodes,
    stateMachines: [...w.machines.values()],
    delivery,
  };
}

/** The event types a webhook's examples send, such as ORDER.PAID. */
function eventTypesOf(media: MediaTypeObject | undefined): string[] {
  return Object.values(media?.examples ?? {}).flatMap((example: {value?: unknown}) => {
    const value = example.value;
    const type = typeof value === 'object' && value !== null ? (value as {eventType?: unknown}).eventType : undefined;
    return typeof type === 'string' ? [type] : [];
  });
}

/** The routing rule whose patterns ("ORDER.*") cover the webhook's event types. */
export function routeOf(routing: ReadonlyArray<{events: string; to: string}>, eventTypes: readonly string[]): string | undefined {
  const covers = (patterns: string, type: string) =>
    patterns.split(',').some((pattern) => {
      const trimmed = pattern.trim();
      return trimmed.endsWith('.*') ? type.startsWith(trimmed.slice(0, -1)) : type === trimmed;
    });
  return routing.find((rule) => eventTypes.length > 0 && eventTypes.every((type) => covers(rule.events, type)))?.to;
}

/** JSON pointer of an operation, for error messages. */
export function operationPointer(location: OperationLocation): string {
  return `/${location.kind === 'webhook' ? 'webhooks' : 'paths'}/${escapePointerToken(location.key)}/${location.method}`;
}
