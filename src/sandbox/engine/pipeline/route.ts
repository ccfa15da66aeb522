/**
 * Step 1 of the request pipeline, and the one matcher of method plus path template that the engine, the
 * local server, the MCP server and the tests share: "/v1/orders/{merchantOrderNo}" matches one segment per
 * parameter, each percent-decoded. Routes are tried in the order given, so a literal path declared before a
 * template wins as it does in the contract.
 */
import type {EngineSpec, OperationSpec} from '../spec';
import {reject} from '../tx';

/** Anything routed by method and path template: a contract operation, a control endpoint. */
export interface Routable {
  readonly method: string;
  readonly path: string;
}

export type OperationMatch<T extends Routable> =
  | {readonly found: true; readonly operation: T; readonly pathParams: Readonly<Record<string, string>>}
  /** No route has this path. */
  | {readonly found: false; readonly reason: 'path'}
  /** Routes have this path, with other methods (in route order). */
  | {readonly found: false; readonly reason: 'method'; readonly methods: readonly string[]}
  /** The route matched, but a parameter's segment is not valid percent-encoding. */
  | {readonly found: false; readonly reason: 'encoding'; readonly operation: T; readonly parameter: string};

interface CompiledRoute<T extends Routable> {
  readonly route: T;
  readonly regex: RegExp;
  readonly names: readonly string[];
}

/** A route list compiled, by the number of "/" in the path: no segment matches a "/", so only routes with as many can match. */
type CompiledRoutes<T extends Routable> = ReadonlyMap<number, readonly CompiledRoute<T>[]>;

const slashes = (path: string): number => path.split('/').length - 1;

function compile<T extends Routable>(route: T): CompiledRoute<T> {
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const parameter = /^\{([^}]+)\}$/.exec(segment);
      if (!parameter) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(parameter[1] ?? '');
      return '([^/]+)';
    })
    .join('/');
  return {route, regex: new RegExp(`^${source}$`), names};
}

function decodeSegment(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The path of a request target: everything before "?". */
export function pathOf(target: string): string {
  const queryAt = target.indexOf('?');
  return queryAt === -1 ? target : target.slice(0, queryAt);
}

/** Compiled once per route list: the engine routes every call, and the lists never change after start-up. */
const compiled = new WeakMap<readonly Routable[], CompiledRoutes<Routable>>();

function compileAll<T extends Routable>(routes: readonly T[]): CompiledRoutes<T> {
  const bySlashes = new Map<number, CompiledRoute<T>[]>();
  for (const route of routes) {
    const count = slashes(route.path);
    bySlashes.set(count, [...(bySlashes.get(count) ?? []), compile(route)]);
  }
  return bySlashes;
}

/**
 * The route a method and request target name (any query is ignored), with its path parameters decoded.
 * Methods compare without regard to case, as the engine always has.
 */
export function matchOperation<T extends Routable>(routes: readonly T[], method: string, target: string): OperationMatch<T> {
  let byCount = compiled.get(routes) as CompiledRoutes<T> | undefined;
  if (!byCount) {
    byCount = compileAll(routes);
    compiled.set(routes, byCount);
  }
  const path = pathOf(target);
  // In route order still: each bucket keeps the order of the list.
  const candidates = (byCount.get(slashes(path)) ?? []).filter((candidate) => candidate.regex.test(path));
  if (candidates.length === 0) return {found: false, reason: 'path'};
  const wanted = method.toUpperCase();
  const hit = candidates.find((candidate) => candidate.route.method.toUpperCase() === wanted);
  if (!hit) return {found: false, reason: 'method', methods: candidates.map((candidate) => candidate.route.method)};
  const segments = hit.regex.exec(path) ?? [];
  const pathParams: Record<string, string> = {};
  for (const [index, name] of hit.names.entries()) {
    const decoded = decodeSegment(segments[index + 1] ?? '');
    if (decoded === undefined) return {found: false, reason: 'encoding', operation: hit.route, parameter: name};
    pathParams[name] = decoded;
  }
  return {found: true, operation: hit.route, pathParams};
}

/**
 * The pipeline's route step: the operation a request names, its decoded path parameters and its query,
 * or a rejection that says what the paths are.
 */
export function routeRequest(
  spec: EngineSpec,
  method: string,
  target: string,
): {operation: OperationSpec; pathParams: Record<string, string>; query: URLSearchParams} {
  if (!target.startsWith('/'))
    reject('INVALID_PARAMETER', `The request target must be a path starting with ${spec.basePath}/, got "${target.slice(0, 80)}".`);
  const path = pathOf(target);
  const query = new URLSearchParams(target.slice(path.length + 1));
  const match = matchOperation(spec.operations, method, path);
  if (match.found) return {operation: match.operation, pathParams: {...match.pathParams}, query};
  if (match.reason === 'path')
    return reject(
      'INVALID_PARAMETER',
      `No operation at ${path.slice(0, 120)}: paths start with ${spec.basePath}/, as on the API reference pages.`,
    );
  if (match.reason === 'method')
    return reject('INVALID_PARAMETER', `${path} takes ${match.methods.join(' or ')}, not ${method.slice(0, 10)}.`);
  return reject('INVALID_PARAMETER', `The path parameter ${match.parameter} is not valid percent-encoding.`);
}
