/**
 * What the Try it panel knows about each operation, built from the contract at build time by the
 * sandbox-engine plugin (@generated/sandbox-engine/tryit.json) and read by the panel when a reader opens
 * it; and the pure helpers the panel uses. Isomorphic, no DOM.
 */
import type {JsonValue, StateMachine} from './openapiTypes';
import {encodeTargetComponent} from './samples/types';

export interface TryItParameter {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly description: string;
  readonly type: string;
  readonly enum?: readonly string[];
  readonly example?: string;
  /** JSON pointer of its schema in the contract, for the compiled validator. */
  readonly schemaPointer: string;
}

export interface TryItExample {
  readonly name: string;
  readonly summary: string;
  readonly value: JsonValue;
}

export interface TryItOperation {
  readonly operationId: string;
  readonly summary: string;
  readonly method: string;
  /** Path template after the server URL, such as /orders/{merchantOrderNo}. */
  readonly path: string;
  readonly parameters: readonly TryItParameter[];
  readonly examples: readonly TryItExample[];
  readonly bodyPointer?: string;
  /** Schema pointers of the success (2xx) and error responses, for validating what came back. */
  readonly successPointer?: string;
  readonly errorPointer?: string;
  /** Names of the state machines (x-state-machine) of the objects it returns. */
  readonly machines: readonly string[];
}

export interface TryItData {
  /** The server URL's path, "/v1": every request target starts with it. */
  readonly basePath: string;
  /** Test cards the shopper actions use, from the sandbox data: one that pays by the amount endings, one declined. */
  readonly cards: {readonly pays: string; readonly declined: string};
  readonly operations: readonly TryItOperation[];
  readonly machines: Readonly<Record<string, StateMachine>>;
}

/** The request target for the given parameter values: /v1, the path with its parameters, and the query of the non-empty ones. */
export function requestTarget(basePath: string, operation: TryItOperation, values: Readonly<Record<string, string>>): string {
  let path = operation.path;
  const query: string[] = [];
  for (const parameter of operation.parameters) {
    const value = values[parameter.name] ?? '';
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeTargetComponent(value));
    else if (value !== '') query.push(`${encodeTargetComponent(parameter.name)}=${encodeTargetComponent(value)}`);
  }
  return `${basePath}${path}${query.length ? `?${query.join('&')}` : ''}`;
}

/** Where an object of the response stands: the first object (breadth first) whose status is a state of one of the machines. */
export function currentState(data: unknown, machines: readonly {name: string; machine: StateMachine}[]): {machine: string; state: string} | undefined {
  const queue: unknown[] = [data];
  for (let seen = 0; queue.length > 0 && seen < 50; seen += 1) {
    const value = queue.shift();
    if (value === null || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      queue.push(...value.slice(0, 5));
      continue;
    }
    const status = (value as Record<string, unknown>)['status'];
    if (typeof status === 'string') {
      const found = machines.find((candidate) => candidate.machine.states.some((state) => state.name === status));
      if (found) return {machine: found.name, state: status};
    }
    queue.push(...Object.values(value));
  }
  return undefined;
}

/** Where `npm run sandbox` listens by default: Try it's local target, allowed by the Content-Security-Policy. */
export const localSandboxOrigin = 'http://127.0.0.1:4010';
