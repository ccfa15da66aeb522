/** How many Mermaid diagrams each docs and demos page shows (its own plus the contract's), by URL. */
import path from 'node:path';
import {docsSections} from '../../src/contentSections';
import {docUrl} from '../../src/contract/node/docRoutes';
import {pageDiagrams} from '../../plugins/content/mermaid-diagrams/collectDiagrams';
import {contractRelativePath, loadContract} from '../../src/contract/node/loadContract';
import {readContentFiles} from '../../src/contract/node/contentFiles';
import {repoRoot} from './routeContract';

export function mermaidBlocksByUrl(): Map<string, number> {
  const contract = loadContract(path.join(repoRoot, contractRelativePath));
  const found = new Map<string, number>();
  for (const page of readContentFiles(repoRoot, docsSections)) {
    const count = pageDiagrams(page, contract).length;
    if (count > 0) found.set(docUrl(page.section.routeBasePath, page), count);
  }
  return found;
}
