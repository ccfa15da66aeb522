/**
 * Checks the JSON a page shows against the contract: every fenced `json` block that is an API response (an
 * envelope with `code` and `requestId`), a notification (`notificationId`, `eventType`, `data`) or a bare order
 * must validate against a schema of the contract that can hold it, so a hand-written example cannot drift (issue
 * 29, I-5: five scene guides showed orders without the required `updatedAt`). Request bodies and fragments are
 * not checked here: guides render the full examples from the contract with <ApiExample>. Part of
 * checkContent (npm run check:content and the content unit test). Node only.
 */
import path from 'node:path';
import {createContractValidator, pointerSegment} from '../../src/contract/validator';
import type {JsonValue, ResponseObject} from '../../src/contract/openapiTypes';
import {contractRelativePath, loadContract, type LoadedContract} from '../../src/contract/node/loadContract';
import {readContentFiles} from '../../src/contract/node/contentFiles';

export interface JsonExampleProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export type JsonExampleKind = 'response' | 'notification' | 'order';

/** Fenced `json` blocks of a page: their text and the line of their opening fence (1-based). */
export function jsonBlocks(text: string): Array<{readonly line: number; readonly source: string}> {
  const blocks: Array<{line: number; source: string}> = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const open = /^(\s*)(`{3,})json\b/.exec(lines[index] ?? '');
    if (!open) continue;
    const [, indent = '', fence = '```'] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length && !(lines[end] ?? '').startsWith(`${indent}${fence}`); end += 1)
      body.push((lines[end] ?? '').slice(indent.length));
    blocks.push({line: index + 1, source: body.join('\n')});
    index = end;
  }
  return blocks;
}

const isObject = (value: unknown): value is Record<string, JsonValue> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What a parsed block is, by the members only that kind of object has; undefined for anything else. */
export function exampleKind(value: unknown): JsonExampleKind | undefined {
  if (!isObject(value)) return undefined;
  if (typeof value['code'] === 'string' && typeof value['requestId'] === 'string') return 'response';
  if (typeof value['notificationId'] === 'string' && typeof value['eventType'] === 'string' && 'data' in value) return 'notification';
  if (typeof value['orderId'] === 'string' && typeof value['merchantOrderNo'] === 'string' && typeof value['status'] === 'string')
    return 'order';
  return undefined;
}

const json = 'application/json';

/** The schema pointers of the contract that a kind of example may match. */
function candidatePointers(contract: LoadedContract): Record<JsonExampleKind, Array<{label: string; pointer: string; success?: boolean}>> {
  const responses: Array<{label: string; pointer: string; success: boolean}> = [];
  const notifications: Array<{label: string; pointer: string}> = [];
  for (const location of contract.operations.values()) {
    if (location.kind === 'webhook') {
      if (location.operation.requestBody?.content?.[json]?.schema)
        notifications.push({
          label: location.operationId,
          pointer: `${location.pointer}/requestBody/content/${pointerSegment(json)}/schema`,
        });
      continue;
    }
    for (const [status, response] of Object.entries(location.operation.responses ?? {})) {
      const base = response.$ref ? response.$ref.slice(1) : `${location.pointer}/responses/${pointerSegment(status)}`;
      const resolved = response.$ref
        ? (contract.document.components?.responses?.[response.$ref.split('/').pop() ?? ''] as ResponseObject | undefined)
        : response;
      if (!resolved?.content?.[json]?.schema) continue;
      responses.push({
        label: `${location.operationId} ${status}`,
        pointer: `${base}/content/${pointerSegment(json)}/schema`,
        success: /^2/.test(status),
      });
    }
  }
  return {response: responses, notification: notifications, order: [{label: 'Order', pointer: '/components/schemas/Order'}]};
}

/** Checks the JSON examples of pages against one contract; built once, used for every page. */
export function jsonExampleChecker(
  contract: LoadedContract,
): (file: string, text: string) => {problems: JsonExampleProblem[]; checked: number} {
  const validator = createContractValidator(contract.document);
  const candidates = candidatePointers(contract);
  return (file, text) => {
    const problems: JsonExampleProblem[] = [];
    let checked = 0;
    for (const block of jsonBlocks(text)) {
      let value: unknown;
      try {
        value = JSON.parse(block.source);
      } catch {
        continue; // a fragment or an annotated sketch, not an example of a whole object
      }
      const kind = exampleKind(value);
      if (!kind) continue;
      checked += 1;
      const success = isObject(value) && value['code'] === 'SUCCESS';
      const pool = candidates[kind].filter((candidate) => candidate.success === undefined || candidate.success === success);
      let nearest: {label: string; problems: string[]} | undefined;
      let matched = false;
      for (const candidate of pool) {
        const found = validator.problems(candidate.pointer, value);
        if (found.length === 0) {
          matched = true;
          break;
        }
        if (!nearest || found.length < nearest.problems.length) nearest = {label: candidate.label, problems: found};
      }
      if (!matched) {
        const detail = nearest ? `; nearest, ${nearest.label}: ${nearest.problems.slice(0, 3).join('; ')}` : '';
        problems.push({
          file,
          line: block.line,
          message: `this ${kind} example matches no schema of the contract${detail}. Render it from the contract with <ApiExample operationId="..." example="..." />`,
        });
      }
    }
    return {problems, checked};
  };
}

/** Every response, notification and order shown as JSON in the content, checked against the contract. */
export function checkJsonExamples(siteDir: string): {problems: JsonExampleProblem[]; checked: number} {
  const check = jsonExampleChecker(loadContract(path.join(siteDir, contractRelativePath)));
  const problems: JsonExampleProblem[] = [];
  let checked = 0;
  for (const {file, text} of readContentFiles(siteDir)) {
    const result = check(file, text);
    problems.push(...result.problems);
    checked += result.checked;
  }
  return {problems, checked};
}
