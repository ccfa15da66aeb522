/**
 * The one operation matcher (src/sandbox/engine/pipeline/route.ts) that the engine, the local server, the
 * MCP server and the tests share: templates, encoded segments, no match, a method mismatch, and every
 * operation of the contract found from its own path.
 */
import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import {matchOperation, pathOf} from '../../src/sandbox/engine/pipeline/route';
import {sandboxFiles} from '../../src/sandbox/hosts/server/loadEngine';

const routes = [
  {method: 'POST', path: '/v1/bank-transfers/quotes', id: 'quote'},
  {method: 'GET', path: '/v1/bank-transfers/{merchantTransferNo}', id: 'queryBank'},
  {method: 'GET', path: '/v1/orders/{merchantOrderNo}', id: 'query'},
  {method: 'POST', path: '/v1/orders/{merchantOrderNo}/refund', id: 'refund'},
  {method: 'GET', path: '/v1/a.b', id: 'dotted'},
];

describe('matchOperation', () => {
  test('fills a template parameter from its segment, and ignores the query', () => {
    const match = matchOperation(routes, 'GET', '/v1/orders/ORD-1?x=2');
    assert.ok(match.found);
    assert.equal(match.operation.id, 'query');
    assert.deepEqual(match.pathParams, {merchantOrderNo: 'ORD-1'});
  });

  test('decodes percent-encoded segments, and refuses bad encoding by naming the parameter', () => {
    const match = matchOperation(routes, 'POST', '/v1/orders/A%2FB%20C/refund');
    assert.ok(match.found);
    assert.deepEqual(match.pathParams, {merchantOrderNo: 'A/B C'});
    const bad = matchOperation(routes, 'GET', '/v1/orders/%E0%A4');
    assert.deepEqual(bad, {found: false, reason: 'encoding', operation: routes[2], parameter: 'merchantOrderNo'});
  });

  test('a parameter is one whole segment, and literal segments match exactly', () => {
    assert.deepEqual(matchOperation(routes, 'GET', '/v1/orders/a/b'), {found: false, reason: 'path'});
    assert.deepEqual(matchOperation(routes, 'GET', '/v1/orders/'), {found: false, reason: 'path'});
    assert.deepEqual(matchOperation(routes, 'GET', '/v1/aXb'), {found: false, reason: 'path'}, 'a dot is not a wildcard');
    assert.deepEqual(matchOperation(routes, 'GET', '/v2/orders/1'), {found: false, reason: 'path'});
  });

  test('a known path with another method names the methods it takes', () => {
    assert.deepEqual(matchOperation(routes, 'DELETE', '/v1/orders/1'), {found: false, reason: 'method', methods: ['GET']});
    // A literal path and a template both match: the method picks, in route order.
    const quote = matchOperation(routes, 'POST', '/v1/bank-transfers/quotes');
    assert.ok(quote.found && quote.operation.id === 'quote');
    const query = matchOperation(routes, 'GET', '/v1/bank-transfers/quotes');
    assert.ok(query.found && query.operation.id === 'queryBank');
    assert.deepEqual(matchOperation(routes, 'PUT', '/v1/bank-transfers/quotes'), {
      found: false,
      reason: 'method',
      methods: ['POST', 'GET'],
    });
  });

  test('methods compare without regard to case', () => {
    assert.ok(matchOperation(routes, 'get', '/v1/orders/1').found);
  });

  test('every contract operation is found from its own path, with its parameters', () => {
    const {spec} = sandboxFiles();
    assert.ok(spec.operations.length >= 30);
    for (const operation of spec.operations) {
      const target = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(`${name} #1`));
      const match = matchOperation(spec.operations, operation.method, target);
      assert.ok(match.found, `${operation.operationId}: ${target}`);
      assert.equal(match.operation.operationId, operation.operationId);
      for (const [name, value] of Object.entries(match.pathParams)) assert.equal(value, `${name} #1`);
    }
  });

  test('routes tried only among those with as many segments find what trying every route finds, in route order', () => {
    const {spec} = sandboxFiles();
    // The reference: every route's template tried in order, with no index.
    const templates = spec.operations.map((operation) => ({
      operation,
      regex: new RegExp(`^${operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
    const everyRoute = (method: string, path: string) => {
      const hits = templates.filter((template) => template.regex.test(path)).map((template) => template.operation);
      return hits.find((operation) => operation.method === method)?.operationId ?? (hits.length ? 'method' : 'path');
    };
    const segments = [...new Set(spec.operations.flatMap((operation) => operation.path.split('/')))].map((segment) =>
      segment.startsWith('{') ? 'X-1' : segment,
    );
    for (let index = 0; index < 400; index += 1) {
      const length = 2 + (index % 5);
      const path = `/${Array.from({length}, (_, at) => segments[(index * 7 + at * 13 + at * index) % segments.length]).join('/')}`;
      for (const method of ['GET', 'POST']) {
        const match = matchOperation(spec.operations, method, path);
        assert.equal(match.found ? match.operation.operationId : match.reason, everyRoute(method, path), `${method} ${path}`);
      }
    }
    for (const operation of spec.operations) {
      const path = operation.path.replace(/\{[^}]+\}/g, 'X-1');
      const match = matchOperation(spec.operations, operation.method, path);
      assert.equal(match.found ? match.operation.operationId : match.reason, everyRoute(operation.method, path));
    }
  });

  test('pathOf cuts the query', () => {
    assert.equal(pathOf('/v1/orders?pageNo=2'), '/v1/orders');
    assert.equal(pathOf('/v1/orders'), '/v1/orders');
  });
});
