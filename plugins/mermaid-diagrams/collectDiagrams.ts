/**
 * Every Mermaid diagram the site draws: the ```mermaid blocks of the content
 * folders and the contract's state machines, which each API page adds. Used by
 * `npm run diagrams` and by the unit test that keeps static/diagrams complete.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {fromMarkdown} from 'mdast-util-from-markdown';
import {mdxFromMarkdown} from 'mdast-util-mdx';
import {mdxjs} from 'micromark-extension-mdxjs';
import {buildOperationView} from '../../src/lib/apiModel';
import {contractRelativePath, loadContract} from '../openapi-contract/loadContract';
import {stateDiagram} from '../openapi-contract/remarkApiReference';

export const contentFolders = ['docs', 'demos', 'blog', 'src/pages'] as const;

interface MdNode {
  type: string;
  lang?: string | null;
  value?: string;
  position?: {start: {line: number}};
  children?: MdNode[];
}

function mermaidBlocks(node: MdNode, found: MdNode[]): void {
  if (node.type === 'code' && node.lang === 'mermaid') found.push(node);
  node.children?.forEach((child) => mermaidBlocks(child, found));
}

export interface DiagramSource {
  readonly source: string;
  readonly where: string;
}

export function collectDiagrams(siteDir: string): DiagramSource[] {
  const diagrams: DiagramSource[] = [];
  for (const folder of contentFolders) {
    const root = path.join(siteDir, folder);
    for (const relative of readdirSync(root, {recursive: true, encoding: 'utf8'})) {
      if (!/\.mdx?$/.test(relative)) continue;
      const file = path.join(folder, relative);
      const tree = fromMarkdown(readFileSync(path.join(siteDir, file), 'utf8'), {extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()]}) as MdNode;
      const found: MdNode[] = [];
      mermaidBlocks(tree, found);
      for (const node of found) diagrams.push({source: node.value ?? '', where: `${file}:${node.position?.start.line ?? '?'}`});
    }
  }
  const contract = loadContract(path.join(siteDir, contractRelativePath));
  for (const location of contract.operations.values()) {
    for (const machine of buildOperationView(contract.document, location, (markdown) => markdown).stateMachines) {
      diagrams.push({source: stateDiagram(machine), where: `${contractRelativePath}: ${location.operationId} ${machine.schemaName}`});
    }
  }
  return diagrams;
}
