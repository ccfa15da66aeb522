/**
 * The published contract shapes a discriminated one-of the way client generators keep: each branch is
 * a schema `allOf: [Common, Variant]`, and the discriminator carries a `mapping` (tag -> variant schema). The
 * portal's own readers want the equivalent factored shape, `allOf: [Common, {oneOf: [Variant, ...]}]`:
 * - Ajv's discriminator (the build's and the sandbox's validators) rejects `mapping` and needs each
 *   one-of branch to name its tag in `properties`, which `Variant` does and `allOf: [Common, Variant]`
 *   does not; with it, an invalid body gets the errors of its own scene only;
 * - the reference pages, the twins and Try it's body form list the common fields once, then each
 *   variant's own fields.
 * oneOf[allOf[C, A], allOf[C, B]] accepts exactly what allOf[C, oneOf[A, B]] accepts, so this is a
 * change of form, not of meaning. Pure (no Node built-ins, no DOM).
 */
import {resolvePointer, type OpenApiDocument, type SchemaObject} from './openapiTypes';

/** `schema` with the first allOf member its one-of branches all share moved out in front of the one-of. */
export function factorSharedParts(schema: SchemaObject, document: OpenApiDocument): SchemaObject {
  if (!schema.discriminator || !schema.oneOf || schema.oneOf.length < 2) return schema;
  // A branch is a named schema (the mapping's target) or inline; either is `allOf: [Common, Variant, ...]`.
  const branches = schema.oneOf.map((branch) => (branch.$ref ? (resolvePointer(document, branch.$ref) as SchemaObject) : branch));
  const shared = branches[0]?.allOf?.[0]?.$ref;
  const factorable =
    shared !== undefined &&
    branches.every(
      (branch) =>
        (branch.allOf?.length ?? 0) >= 2 &&
        branch.allOf?.[0]?.$ref === shared &&
        Object.keys(branch).every((key) => key === 'allOf' || key === 'description'),
    );
  if (!factorable) return schema;
  const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'oneOf' && key !== 'discriminator' && key !== 'allOf'));
  const variants = branches.map((branch) => {
    const own = (branch.allOf ?? []).slice(1);
    return own.length === 1 && own[0] ? own[0] : {allOf: own};
  });
  return {...rest, allOf: [...(schema.allOf ?? []), {$ref: shared}, {oneOf: variants, discriminator: schema.discriminator}]};
}

/** The contract as the portal's validators read it: shared parts factored out, discriminator mappings dropped. */
export function validatorDocument<T extends OpenApiDocument>(document: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    let object = node as Record<string, unknown>;
    if (typeof object['discriminator'] === 'object' && Array.isArray(object['oneOf'])) {
      object = factorSharedParts(object as SchemaObject, document) as Record<string, unknown>;
    }
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(object)) {
      if (key === 'discriminator' && typeof value === 'object' && value !== null) {
        copy[key] = Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'mapping'));
      } else {
        copy[key] = walk(value);
      }
    }
    return copy;
  };
  return walk(document) as T;
}
