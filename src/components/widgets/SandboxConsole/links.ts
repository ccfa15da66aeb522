/**
 * Where each object of the console opens in Try it: the contract's read operation for its collection (GET
 * <collection>/{id}), on that operation's page with the ID prefilled; events open List events filtered by
 * their type, the one read the contract has for them. Pure: the operations come in from tryit.json, so
 * tests/unit/sandboxConsoleLinks.test.ts checks every link against the real contract.
 */
import type {TryItOperation} from '@site/src/lib/tryIt';
import {tryItLink} from '../TryItPanel/prefillFromUrl';

/** The collections the console lists, by the path the contract gives them. */
export const consoleCollections = {
  orders: '/orders',
  refunds: '/refunds',
  WALLET: '/transfers',
  BANK: '/bank-transfers',
  CARD: '/card-payouts',
  events: '/events',
} as const;

export type ConsoleCollection = keyof typeof consoleCollections;

type Operations = readonly Pick<TryItOperation, 'operationId' | 'method' | 'path' | 'parameters' | 'page' | 'summary'>[];

/** The operation that reads one object of a collection: GET <collection>/{param} with that one path parameter. */
export function readOperation(operations: Operations, collection: string): Operations[number] | undefined {
  return operations.find(
    (operation) =>
      operation.method === 'GET' &&
      /^\/\{[A-Za-z]+\}$/.test(operation.path.slice(collection.length)) &&
      operation.path.startsWith(collection),
  );
}

/** The operation that lists a collection: GET <collection>. */
export function listOperation(operations: Operations, collection: string): Operations[number] | undefined {
  return operations.find((operation) => operation.method === 'GET' && operation.path === collection);
}

export interface OpenLink {
  readonly href: string;
  /** What it opens, for the link's accessible name: "Retrieve order detail". */
  readonly summary: string;
}

/**
 * The link that opens one object in Try it, or undefined when the object has no ID the read takes (a refund
 * Revoke order made has no merchantRefundNo) or the build has no page for the operation.
 */
export function openLink(
  operations: Operations,
  collection: ConsoleCollection,
  object: Readonly<Record<string, unknown>>,
): OpenLink | undefined {
  const path = consoleCollections[collection];
  const operation = collection === 'events' ? listOperation(operations, path) : readOperation(operations, path);
  if (!operation) return undefined;
  const values: Record<string, string> = {};
  const wanted =
    collection === 'events'
      ? operation.parameters.filter((parameter) => parameter.name === 'eventType')
      : operation.parameters.filter((parameter) => parameter.in === 'path');
  for (const parameter of wanted) {
    const value = object[parameter.name];
    if (typeof value !== 'string' || value === '') return undefined;
    values[parameter.name] = value;
  }
  const href = tryItLink(operation, {values});
  return href === undefined ? undefined : {href, summary: operation.summary};
}
