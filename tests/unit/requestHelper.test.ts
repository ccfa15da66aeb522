/**
 * One request helper, defined once and used identically everywhere (issue 19, review D-9): the
 * integration guide defines `createVeloxaClient`, and every `veloxa.get(...)` / `veloxa.post(...)` on
 * any page passes a request target that starts with /v1/ and names an operation of the contract with
 * that method. A page that signs "/orders" or "/v1/v1/orders" fails here, before a reader copies it.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import {loadContract} from '../../src/contract/node/loadContract';
import {readContentFiles} from '../../src/contract/node/contentFiles';
import {matchOperation} from '../../src/sandbox/engine/pipeline/route';
import {repoRoot} from '../support/routeContract';

const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
const files = readContentFiles(repoRoot);

/** The contract's operations as method plus the full path template (with /v1), for the engine's matcher. */
const operations = [...contract.operations.values()].flatMap((location) =>
  location.kind === 'operation' ? [{method: location.method.toUpperCase(), path: `/v1${location.key}`}] : [],
);

export interface HelperCall {
  readonly file: string;
  readonly method: string;
  /** The request target with every interpolation replaced by "x", without the query. */
  readonly target: string;
}

/**
 * Finds `veloxa.get(` and `veloxa.post(` calls whose first argument is a string or template
 * literal, or a name bound earlier in the same file to one (`const orderPath = \`/v1/...\``).
 */
export function helperCalls(file: string, text: string): HelperCall[] {
  const bindings = new Map<string, string>();
  for (const match of text.matchAll(/\b(?:const|let)\s+(\w+)\s*=\s*(['`])([^'`]*)\2/g)) {
    bindings.set(match[1] ?? '', match[3] ?? '');
  }
  const calls: HelperCall[] = [];
  for (const match of text.matchAll(/\bveloxa\.(get|post)(?:<[^>]*>)?\(\s*(?:(['`])([^'`]*)\2|(\w+))/g)) {
    const literal = match[3] ?? bindings.get(match[4] ?? '');
    if (literal === undefined) {
      calls.push({file, method: (match[1] ?? '').toUpperCase(), target: `<unresolved ${match[4] ?? ''}>`});
      continue;
    }
    // A bound prefix such as `${orderPath}/revoke` is expanded once.
    const expanded = literal.replace(/\$\{(\w+)\}/g, (whole, name: string) => bindings.get(name) ?? whole);
    const target = expanded.replace(/\$\{[^}]*\}/g, 'x').split('?')[0] ?? '';
    calls.push({file, method: (match[1] ?? '').toUpperCase(), target});
  }
  return calls;
}

function problemsOf(call: HelperCall): string | undefined {
  if (!call.target.startsWith('/v1/'))
    return `${call.file}: veloxa.${call.method.toLowerCase()}("${call.target}") must pass the full target starting /v1/`;
  const known = matchOperation(operations, call.method, call.target).found;
  return known ? undefined : `${call.file}: ${call.method} ${call.target} is no operation of the contract`;
}

describe('the request helper', () => {
  test('is defined once, in the integration guide', () => {
    const definitions = files.filter((file) => /function createVeloxaClient\b/.test(file.text)).map((file) => file.file);
    assert.deepEqual(definitions, ['docs/general/integration-guide.mdx']);
  });

  test('no page builds its own `veloxa` client', () => {
    assert.equal(/\b(?:const|let|var)\s+veloxa\s*=\s*(?!\s|createVeloxaClient\()/.test('const veloxa = axios.create()'), true);
    const own = files
      .filter((file) => /\b(?:const|let|var)\s+veloxa\s*=\s*(?!\s|createVeloxaClient\()/.test(file.text))
      .map((file) => file.file);
    assert.deepEqual(own, []);
  });

  const calls = files.flatMap((file) => helperCalls(file.file, file.text));
  test('pages call it', () => {
    assert.ok(calls.length >= 15, `only ${calls.length} calls found: the scan is broken`);
  });

  test('every call passes a /v1/ target of a contract operation, with the right method', () => {
    assert.deepEqual(calls.map(problemsOf).filter(Boolean), []);
  });

  test('the check fails for the mistakes the review found', () => {
    const bad = [
      ...helperCalls('a.md', "await veloxa.get('/balances?currency=EUR');"),
      ...helperCalls('b.md', 'await veloxa.post(`/v1/v1/orders`, body);'),
      ...helperCalls('c.md', "await veloxa.post('/v1/balances', body);"),
      ...helperCalls('d.md', 'await veloxa.get(somewhere);'),
    ];
    assert.equal(bad.length, 4);
    assert.equal(bad.filter((call) => problemsOf(call) !== undefined).length, 4);
    const good = helperCalls('e.md', 'const orderPath = `/v1/orders/${no}`;\nawait veloxa.post(`${orderPath}/revoke`, {});');
    assert.deepEqual(good.map(problemsOf), [undefined]);
  });
});
