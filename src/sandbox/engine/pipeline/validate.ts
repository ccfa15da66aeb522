/**
 * Step 4: the request against the contract. Path and query parameters are typed by their schemas (unknown
 * or repeated query parameters refused), and the body must be a JSON object valid against the operation's
 * schema; a known scene without its fields is named as SCENE_PARAMETERS_MISSING first.
 */
import type {RequestValidator} from '../api';
import type {EngineSpec, OperationSpec} from '../spec';
import type {Json, JsonObject} from '../state';
import {reject} from '../tx';
import {hasForbiddenMember, isObject, isRealTimestamp} from '../values';

/** One parameter's raw text as the JSON value its schema types, or a rejection naming it. */
function typedValue(name: string, type: string | undefined, raw: string): Json {
  if (type === 'integer' || type === 'number') {
    if (!/^-?\d+(\.\d+)?$/.test(raw)) reject('INVALID_PARAMETER', `${name} must be a number, got "${raw.slice(0, 40)}".`);
    const value = Number(raw);
    if (!Number.isFinite(value) || (type === 'integer' && !Number.isSafeInteger(value)))
      reject('INVALID_PARAMETER', `${name} is out of range.`);
    return value;
  }
  if (type === 'boolean') {
    if (raw !== 'true' && raw !== 'false') reject('INVALID_PARAMETER', `${name} must be true or false.`);
    return raw === 'true';
  }
  return raw;
}

export function parseParameters(
  validator: RequestValidator,
  operation: OperationSpec,
  pathParams: Record<string, string>,
  query: URLSearchParams,
): Record<string, Json> {
  const values: Record<string, Json> = {};
  const known = new Set(operation.parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name));
  for (const name of query.keys()) {
    if (!known.has(name))
      reject(
        'INVALID_PARAMETER',
        `Unknown query parameter "${name.slice(0, 40)}"; ${operation.operationId} takes ${[...known].join(', ') || 'none'}.`,
      );
    if (query.getAll(name).length > 1) reject('INVALID_PARAMETER', `The query parameter ${name} is given more than once.`);
  }
  for (const parameter of operation.parameters) {
    const raw = parameter.in === 'path' ? pathParams[parameter.name] : (query.get(parameter.name) ?? undefined);
    if (raw === undefined) {
      if (parameter.required) reject('INVALID_PARAMETER', `The ${parameter.in} parameter ${parameter.name} is required.`);
      continue;
    }
    const value = typedValue(parameter.name, parameter.type, raw);
    const problems = validator.problems(parameter.schemaPointer, value);
    if (problems.length > 0) reject('INVALID_PARAMETER', `${parameter.name}: ${problems.join('; ').replace(/^\(top level\) /, '')}`);
    if (parameter.format === 'date-time' && !isRealTimestamp(raw))
      reject('INVALID_PARAMETER', `${parameter.name} must be YYYY-MM-DDTHH:MM:SSZ, got "${raw.slice(0, 40)}".`);
    values[parameter.name] = value;
  }
  return values;
}

export function parseBody(spec: EngineSpec, validator: RequestValidator, operation: OperationSpec, raw: string): JsonObject | undefined {
  if (!operation.bodySchemaPointer) {
    if (raw !== '') reject('INVALID_PARAMETER', `${operation.operationId} takes no body.`);
    return undefined;
  }
  let parsed: unknown;
  try {
    parsed = raw === '' && operation.bodyOptional ? {} : JSON.parse(raw);
  } catch {
    return reject('INVALID_PARAMETER', 'The body is not valid JSON.');
  }
  if (!isObject(parsed)) reject('INVALID_PARAMETER', 'The body must be a JSON object.');
  if (hasForbiddenMember(parsed)) reject('INVALID_PARAMETER', 'The body carries a member named "__proto__", which no request takes.');
  const body = parsed as JsonObject;
  if (operation.operationId === 'createOrder') checkSceneFields(spec, body);
  const problems = validator.problems(operation.bodySchemaPointer, body);
  if (problems.length > 0) reject('INVALID_PARAMETER', problems.slice(0, 5).join('; '));
  return body;
}

/** A known scene without its own fields is SCENE_PARAMETERS_MISSING, named, rather than a schema error. */
function checkSceneFields(spec: EngineSpec, body: JsonObject): void {
  const scene = body['scene'];
  if (typeof scene !== 'string') return;
  const required = spec.sceneFields[scene];
  if (!required) return;
  const missing = required.filter((field) => body[field] === undefined);
  if (missing.length > 0) reject('SCENE_PARAMETERS_MISSING', `Scene ${scene} needs ${missing.join(', ')}.`);
}
