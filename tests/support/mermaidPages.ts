/** How many Mermaid diagrams each docs and demos page shows (its own plus the contract's), by URL. */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {docUrl} from '../../src/lib/docRoutes';
import {buildOperationView} from '../../src/lib/apiModel';
import {loadContract} from '../../plugins/openapi-contract/loadContract';
import {repoRoot} from './routeContract';

/** State diagrams the contract adds to an API page. */
function contractDiagrams(text: string): number {
  const operationId = /<ApiOperation\s+operationId="([^"]+)"/.exec(text)?.[1];
  if (!operationId) return 0;
  const contract = loadContract(path.join(repoRoot, 'api', 'openapi.yaml'));
  const location = contract.operations.get(operationId);
  return location ? buildOperationView(contract.document, location, (markdown) => markdown).stateMachines.length : 0;
}

export function mermaidBlocksByUrl(): Map<string, number> {
  const found = new Map<string, number>();
  for (const [folder, base] of [['docs', 'docs'], ['demos', 'demos']] as const) {
    for (const relative of readdirSync(path.join(repoRoot, folder), {recursive: true, encoding: 'utf8'})) {
      if (!/\.mdx?$/.test(relative)) continue;
      const text = readFileSync(path.join(repoRoot, folder, relative), 'utf8');
      const blocks = (text.match(/^```mermaid\s*$/gm) ?? []).length + contractDiagrams(text);
      if (blocks > 0) found.set(docUrl(base, {relativePath: relative.split(path.sep).join('/'), text}), blocks);
    }
  }
  return found;
}
