/**
 * What the console needs only once the sandbox is open, loaded beside the engine rather than with the
 * console's first draw: reading the state into rows (view.ts), Try it's operations for the "Open in Try it"
 * links (tryit.json, the largest part) and the notification checks. The console's own chunk then holds
 * what draws it.
 */
import tryItJson from '@generated/sandbox-engine/tryit.json';
import type {TryItData} from '@site/src/lib/tryIt';
import {loadCheckers, readConsole, type Checkers, type ConsoleView} from './view';

// The wildcard @generated/* declaration types it any; this is its shape (the same file Try it reads).
const operations = (tryItJson as TryItData).operations;

export {loadCheckers};

/** readConsole with Try it's operations for the links. */
export function read(sandbox: Parameters<typeof readConsole>[0], wanted: string, checkers: Checkers): Promise<ConsoleView> {
  return readConsole(sandbox, wanted, checkers, operations);
}
