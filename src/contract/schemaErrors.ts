/**
 * How a JSON Schema error reads to a person. Kept apart from the validator so code that runs
 * validators compiled at build time (the in-browser sandbox) can word errors without loading Ajv.
 */
import type {ErrorObject} from 'ajv';

/** One Ajv error as a person reads it: where, what, and the offending name or allowed values. */
export function describeSchemaError(error: ErrorObject): string {
  const at = error.instancePath === '' ? '(top level)' : error.instancePath;
  const params = error.params as {additionalProperty?: string; unevaluatedProperty?: string; allowedValues?: unknown[]};
  const extra =
    error.keyword === 'additionalProperties' || error.keyword === 'unevaluatedProperties'
      ? ` ("${String(params.additionalProperty ?? params.unevaluatedProperty)}")`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify(params.allowedValues)})`
        : '';
  return `${at} ${error.message ?? 'is invalid'}${extra}`;
}
