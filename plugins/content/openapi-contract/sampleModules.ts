/**
 * Where each operation's code samples live as a module of their own. The plugin writes one JSON module per
 * operation holding the code of every language but the first, by language; an API page ships its first
 * language's code inline and imports this module with import() (remarkApiReference), so webpack makes it one
 * chunk per operation that loads when another language's tab is first shown. One chunk per operation, not
 * per language: each async chunk costs every page a line in the runtime's chunk map.
 */
import path from 'node:path';

/** The module's path under the generated files directory. */
export function sampleModuleFile(operationId: string): string {
  return path.join('openapi-contract', 'samples', `${operationId}.json`);
}

/** The same module as the bundler resolves it. */
export function sampleModuleSpecifier(operationId: string): string {
  return `@generated/openapi-contract/samples/${operationId}.json`;
}
