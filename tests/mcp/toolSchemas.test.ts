/**
 * Tool-schema portability (the MCP Inspector's `--strict` warnings): no `type` given as an array, and no
 * schema without a validation keyword (`{}` accepts anything; clients that map tool schemas onto a
 * single-type dialect, such as Gemini function declarations, reject or drop them). Walks every tool's
 * input schema as the server lists it.
 */
import assert from 'node:assert/strict';
import {after, before, test} from 'node:test';
import type {Client} from '@modelcontextprotocol/sdk/client/index.js';
import {connect} from './connect';

/** Keywords that constrain an instance; a schema with none of them accepts any value. */
const validationKeywords = new Set([
  'type',
  'enum',
  'const',
  '$ref',
  'anyOf',
  'oneOf',
  'allOf',
  'not',
  'if',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'items',
  'prefixItems',
  'contains',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);
/** Keywords whose value is one subschema, or a map or list of them. */
const oneSchema = [
  'additionalProperties',
  'items',
  'not',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'unevaluatedProperties',
  'unevaluatedItems',
];
const schemaMaps = ['properties', 'patternProperties', '$defs', 'definitions'];
const schemaLists = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Every unportable spot of `schema`, as "path: problem". Boolean schemas (additionalProperties: true) are fine. */
function portabilityProblems(schema: unknown, at = ''): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return [];
  const node = schema as Record<string, unknown>;
  const problems: string[] = [];
  if (Array.isArray(node.type))
    problems.push(`${at || '/'}: type is an array (${JSON.stringify(node.type)}); use anyOf with one type each`);
  if (!Object.keys(node).some((key) => validationKeywords.has(key)))
    problems.push(`${at || '/'}: no validation keyword (it accepts any value); declare its type`);
  for (const key of oneSchema) if (key in node) problems.push(...portabilityProblems(node[key], `${at}/${key}`));
  for (const key of schemaMaps) {
    for (const [name, child] of Object.entries((node[key] as Record<string, unknown> | undefined) ?? {}))
      problems.push(...portabilityProblems(child, `${at}/${key}/${name}`));
  }
  for (const key of schemaLists) {
    if (Array.isArray(node[key]))
      (node[key] as unknown[]).forEach((child, index) => problems.push(...portabilityProblems(child, `${at}/${key}/${index}`)));
  }
  return problems;
}

let client: Client;
let close: () => Promise<void>;

before(async () => {
  ({client, close} = await connect());
});

after(async () => {
  await close();
});

test('the portability check finds both patterns the Inspector warns about (the schemas the tools had before)', () => {
  const before = {
    type: 'object',
    properties: {
      query: {type: 'object', additionalProperties: {type: ['string', 'number', 'boolean']}},
      body: {anyOf: [{type: 'string'}, {type: 'object', additionalProperties: {}}, {type: 'array', items: {}}]},
    },
  };
  assert.deepEqual(
    portabilityProblems(before).map((problem) => problem.split(':')[0]),
    ['/properties/query/additionalProperties', '/properties/body/anyOf/1/additionalProperties', '/properties/body/anyOf/2/items'],
  );
  assert.deepEqual(portabilityProblems({type: 'object', additionalProperties: true, properties: {a: {type: 'string'}}}), []);
});

test("every tool's input schema is portable: no type arrays, no schema without a validation keyword", async () => {
  const {tools} = await client.listTools();
  assert.ok(tools.length >= 9, `the server lists its tools (got ${tools.length})`);
  const problems = tools.flatMap((tool) => portabilityProblems(tool.inputSchema).map((problem) => `${tool.name} inputSchema${problem}`));
  assert.deepEqual(problems, []);
});

test('sandbox_request spells body as text or a free-form object, and query values as text', async () => {
  const {tools} = await client.listTools();
  const request = tools.find((tool) => tool.name === 'sandbox_request');
  assert.deepEqual((request?.inputSchema.properties as Record<string, unknown> | undefined)?.body, {
    anyOf: [{type: 'string'}, {type: 'object', properties: {}, additionalProperties: true}],
  });
  assert.deepEqual((request?.inputSchema.properties as Record<string, unknown> | undefined)?.query, {
    type: 'object',
    propertyNames: {type: 'string'},
    additionalProperties: {type: 'string'},
  });
});
