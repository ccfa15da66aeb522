/**
 * Where each operation's code samples live as modules of their own. The plugin writes one JSON module per
 * operation and language under the site's generated files; an API page ships its first language's code inline
 * and imports the others with import() (remarkApiReference), so webpack makes each a chunk that loads when
 * its tab is shown.
 */
import path from 'node:path';

/** The module's path under the generated files directory. */
export function sampleModuleFile(operationId: string, language: string): string {
  return path.join('openapi-contract', 'samples', operationId, `${language}.json`);
}

/** The same module as the bundler resolves it. */
export function sampleModuleSpecifier(operationId: string, language: string): string {
  return `@generated/openapi-contract/samples/${operationId}/${language}.json`;
}
