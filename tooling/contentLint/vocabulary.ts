/** The names and values of the contract that content may cite, globally and per API page. */
import type {ContractVocabulary} from './contentLint';
import {deref, type OpenApiDocument, type SchemaObject} from '../../src/contract/openapiTypes';
import type {ApiPage} from '../../src/contract/node/apiPages';
import type {LoadedContract} from '../../src/contract/node/loadContract';

function collect(doc: OpenApiDocument, node: unknown, names: Set<string>, values: Set<string>, seen: Set<unknown>): void {
  if (typeof node !== 'object' || node === null || seen.has(node)) return;
  seen.add(node);
  if (Array.isArray(node)) {
    node.forEach((item) => collect(doc, item, names, values, seen));
    return;
  }
  const record = node as Record<string, unknown> & SchemaObject;
  if (typeof record.$ref === 'string') collect(doc, deref(doc, record), names, values, seen);
  if (record.properties && typeof record.properties === 'object') Object.keys(record.properties).forEach((name) => names.add(name));
  if (Array.isArray(record.enum)) record.enum.forEach((value) => typeof value === 'string' && values.add(value));
  if (typeof record.const === 'string') values.add(record.const);
  if (typeof record.name === 'string' && typeof record.in === 'string') names.add(record.name);
  if (typeof record.operationId === 'string') names.add(record.operationId);
  for (const [key, value] of Object.entries(record)) {
    if (key === 'examples' || key === 'example') continue;
    collect(doc, value, names, values, seen);
  }
}

export function contractVocabulary(contract: LoadedContract, pages: readonly ApiPage[]): ContractVocabulary {
  const names = new Set<string>();
  const values = new Set<string>(contract.resultCodes.keys());
  collect(contract.document, contract.document, names, values, new Set());
  const byPage = new Map<string, {names: Set<string>; values: Set<string>}>();
  for (const page of pages) {
    const location = contract.operations.get(page.operationId);
    if (!location) continue;
    const own = {names: new Set<string>(), values: new Set<string>(location.operation['x-result-codes'] ?? [])};
    collect(contract.document, location.operation, own.names, own.values, new Set());
    byPage.set(page.url, own);
  }
  return {names, values, byPage};
}
