/**
 * The contract's schemas, checked in the browser by the Ajv standalone validators the sandbox-engine plugin
 * compiles at build time (no eval). Its own module so that a page can check a request or a response without
 * loading the sandbox engine: Try it does so before it sends to a local or hosted sandbox.
 */
import {byPointer} from '@generated/sandbox-engine/validators.js';
import {describeSchemaError} from '../../../contract/schemaErrors';

/** The compiled validators by pointer, for the checks that read them directly (notification checks). */
export {byPointer};

/** The schema problems of a value, one line each, by the compiled validator of its pointer in the contract. */
export function schemaProblems(pointer: string, value: unknown): string[] {
  const validate = byPointer[pointer];
  if (!validate) throw new Error(`No compiled validator for ${pointer}: rebuild the site.`);
  return validate(value) ? [] : (validate.errors ?? []).map(describeSchemaError);
}
