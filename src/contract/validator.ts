/**
 * The one JSON Schema validator of the contract: the build checks every example
 * with it, the stub API checks request bodies with it, and the planned
 * in-browser sandbox will too. Pure (no Node built-ins, no DOM).
 *
 * The whole OpenAPI document is added once, under a key rather than a made-up
 * `$id`, so a schema is addressed by its JSON pointer in the document and its
 * `$ref`s ("#/components/schemas/Money") resolve against the document itself.
 * Ajv compiles each schema to a function on first use (with `new Function`, so
 * not under a CSP without 'unsafe-eval').
 */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type {OpenApiDocument} from './openapiTypes';
import {describeSchemaError} from './schemaErrors';
import {validatorDocument} from './sharedParts';

export {describeSchemaError};

const documentKey = 'contract';

export interface ContractValidator {
  /** True when the document has a schema at `pointer` (compiling it on first use). */
  hasSchema(pointer: string): boolean;
  /**
   * What is wrong with `value` against the schema at `pointer`, one line per
   * problem ("/amount/value must be integer"); empty when it is valid. Throws
   * when there is no schema at `pointer`.
   */
  problems(pointer: string, value: unknown): string[];
}

/** A JSON pointer segment: "~" and "/" escaped (RFC 6901), e.g. for the media type "application/json". */
export function pointerSegment(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function createContractValidator(document: OpenApiDocument): ContractValidator {
  // strict: false, because OpenAPI adds keywords JSON Schema does not know (discriminator, x-*);
  // validateSchema: false, because the document is not itself a schema.
  const ajv = new Ajv2020({strict: false, allErrors: true, validateSchema: false, discriminator: true});
  addFormats(ajv);
  ajv.addSchema(validatorDocument(document) as object, documentKey);
  const schemaAt = (pointer: string) => ajv.getSchema(`${documentKey}#${pointer}`);
  return {
    hasSchema: (pointer) => schemaAt(pointer) !== undefined,
    problems(pointer, value) {
      const validate = schemaAt(pointer);
      if (!validate) throw new Error(`The contract has no schema at ${pointer}.`);
      return validate(value) ? [] : (validate.errors ?? []).map(describeSchemaError);
    },
  };
}
