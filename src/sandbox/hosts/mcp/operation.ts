/**
 * get_operation's answer: the slice of the contract one operation (or webhook) needs, with $refs resolved
 * so a reader (or a model) does not have to chase them, and its code sample in one language, rendered by
 * the same templates as the API pages (so it is the sample tests/samples runs).
 */
import type {LoadedContract} from '../../../contract/node/loadContract';
import {buildOperationView} from '../../../contract/apiModel';
import {
  deref,
  requestParameters,
  resolvePointer,
  type JsonValue,
  type OpenApiDocument,
  type SchemaObject,
} from '../../../contract/openapiTypes';
import {renderSamples, sampleInputFor, sampleLanguages, type SampleLanguage} from '../../../lib/samples';
import {closest} from './docs';
import {ToolInputError} from './toolError';

/** Inlines local $refs up to `depth` levels; deeper ones (and loops) stay as {$ref}. */
function resolveRefs(doc: OpenApiDocument, value: unknown, depth = 6, seen: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(doc, item, depth, seen));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const ref = object['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/')) {
    if (depth <= 0 || seen.includes(ref)) return {$ref: ref};
    const siblings = Object.fromEntries(Object.entries(object).filter(([key]) => key !== '$ref'));
    const target = resolvePointer(doc, ref) as Record<string, unknown>;
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
    return {
      ...(name ? {title: name} : {}),
      ...(resolveRefs(doc, target, depth - 1, [...seen, ref]) as object),
      ...(resolveRefs(doc, siblings, depth, seen) as object),
    };
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolveRefs(doc, item, depth, seen)]));
}

/** Field names a schema declares at any depth (through $refs), to find the idempotency key a body carries. */
function propertyNames(doc: OpenApiDocument, schema: SchemaObject | undefined, found = new Set<string>(), depth = 0): Set<string> {
  if (!schema || depth > 8) return found;
  const resolved = schema.$ref ? (deref(doc, schema) as SchemaObject) : schema;
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    found.add(name);
    propertyNames(doc, property, found, depth + 1);
  }
  for (const part of [...(resolved.allOf ?? []), ...(resolved.oneOf ?? []), ...(resolved.anyOf ?? [])])
    propertyNames(doc, part, found, depth + 1);
  return found;
}

export function operationIds(contract: LoadedContract): string[] {
  return [...contract.operations.keys()].sort();
}

export function isSampleLanguage(language: string): language is SampleLanguage {
  return (sampleLanguages as readonly string[]).includes(language);
}

export function operationSlice(
  contract: LoadedContract,
  operationId: string,
  language: string,
): {slice: Record<string, unknown>; sample: {language: string; fileName: string; code: string}} {
  const location = contract.operations.get(operationId);
  if (!location) {
    const near = closest(operationId, operationIds(contract), 3);
    throw new ToolInputError(
      `${operationId.slice(0, 80)} is not an operationId of the contract${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}. The operationIds are: ${operationIds(contract).join(', ')}.`,
    );
  }
  if (!isSampleLanguage(language))
    throw new ToolInputError(`language must be one of ${sampleLanguages.join(', ')}; got "${language.slice(0, 40)}".`);
  const doc = contract.document;
  // The view model's Markdown renderer is the identity: descriptions stay Markdown, which is what a client wants.
  const view = buildOperationView(doc, location, (markdown) => markdown);
  const {operation} = location;
  const serverPath = doc.servers?.[0]?.url ? new URL(doc.servers[0].url).pathname.replace(/\/$/, '') : '';
  const body = operation.requestBody?.content['application/json'];
  const bodyFields = propertyNames(doc, body?.schema);
  const idempotency = doc['x-idempotency'];
  const idempotencyKeys = (idempotency?.namespaces ?? []).filter(
    (namespace) => bodyFields.has(namespace.field) && location.method === 'post',
  );
  const rateClass = doc['x-rate-limits']?.classes.find((candidate) => candidate.operations.includes(operationId));
  const samples = renderSamples(sampleInputFor(doc, location));
  const sample = samples.find((candidate) => candidate.language === language) ?? samples[0];
  if (!sample) throw new ToolInputError(`${operationId} has no code sample.`);
  const slice: Record<string, unknown> = {
    operationId,
    kind: location.kind,
    method: view.method,
    path: location.kind === 'operation' ? `${serverPath}${location.key}` : location.key,
    summary: view.summary,
    tag: view.tag,
    description: operation.description ?? '',
    servers: view.servers,
    parameters: requestParameters(doc, location).map((parameter) => resolveRefs(doc, parameter)),
    ...(body
      ? {
          requestBody: {
            required: operation.requestBody?.required === true,
            schema: resolveRefs(doc, body.schema),
            examples: Object.fromEntries(Object.entries(body.examples ?? {}).map(([name, example]) => [name, example.value as JsonValue])),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(operation.responses ?? {}).map(([status, response]) => {
        const resolved = deref(doc, response);
        const media = resolved.content?.['application/json'];
        return [
          status,
          {
            description: resolved.description,
            ...(resolved.headers ? {headers: Object.keys(resolved.headers)} : {}),
            ...(media?.schema ? {schema: resolveRefs(doc, media.schema, 4)} : {}),
          },
        ];
      }),
    ),
    resultCodes: view.resultCodes.map(({code, httpStatus, meaning, retry, action, common}) => ({
      code,
      httpStatus,
      meaning,
      retry,
      action,
      common,
    })),
    ...(idempotencyKeys.length && idempotency
      ? {idempotency: {keys: idempotencyKeys, scope: idempotency.scope, replay: idempotency.replay, conflict: idempotency.conflict}}
      : {}),
    ...(rateClass
      ? {
          rateLimit: {
            class: rateClass.name,
            sandboxPerSecond: rateClass.sandbox,
            productionPerSecond: rateClass.production,
            unit: doc['x-rate-limits']?.unit,
          },
        }
      : {}),
    ...(view.stateMachines.length ? {stateMachines: view.stateMachines} : {}),
    ...(view.delivery ? {notificationDelivery: view.delivery} : {}),
    signing:
      location.kind === 'operation'
        ? 'Every request is signed (X-Client-Id, X-Timestamp, X-Nonce, X-Signature); see /docs/general/integration-guide.'
        : 'The provider signs every notification; verify it before acting on it.',
  };
  return {slice, sample: {language: sample.language, fileName: sample.fileName, code: sample.code}};
}
