/**
 * Every Mermaid diagram the site draws, page by page: a page's own ```mermaid
 * blocks and, on an API page, its operation's state machines, which the API
 * reference plugin adds. Used by `npm run diagrams`, by the unit test that
 * keeps static/diagrams complete and by the end-to-end test that counts each
 * page's diagrams.
 */
import path from 'node:path';
import type {Root} from 'mdast';
import type {MdxJsxFlowElement} from 'mdast-util-mdx';
import {fromMarkdown} from 'mdast-util-from-markdown';
import {mdxFromMarkdown} from 'mdast-util-mdx';
import {mdxjs} from 'micromark-extension-mdxjs';
import {buildOperationView} from '../../../src/contract/apiModel';
import {readContentFiles, type ContentFile} from '../../../src/contract/node/contentFiles';
import {contractRelativePath, loadContract, type LoadedContract} from '../../../src/contract/node/loadContract';
import {stateDiagram} from '../openapi-contract/remarkApiReference';
import {findMermaidBlocks} from './remarkMermaidDiagrams';

export interface DiagramSource {
  readonly source: string;
  readonly where: string;
}

/** A page's syntax tree as the site's build reads it (every page is compiled as MDX). */
function parsePage(text: string): Root {
  return fromMarkdown(text, {extensions: [mdxjs()], mdastExtensions: [mdxFromMarkdown()]});
}

/** The operation IDs of a page's `<ApiOperation operationId="..." />` elements. */
function renderedOperations(tree: Root): string[] {
  const found: string[] = [];
  const walk = (node: Root | Root['children'][number]): void => {
    if (node.type === 'mdxJsxFlowElement' && node.name === 'ApiOperation') {
      const attribute = (node as MdxJsxFlowElement).attributes.find(
        (candidate) => candidate.type === 'mdxJsxAttribute' && candidate.name === 'operationId',
      );
      if (typeof attribute?.value === 'string') found.push(attribute.value);
    }
    if ('children' in node) node.children.forEach(walk);
  };
  walk(tree);
  return found;
}

/** The diagrams one page shows, in page order: its own blocks, then its operation's state machines. */
export function pageDiagrams(page: ContentFile, contract: LoadedContract): DiagramSource[] {
  const tree = parsePage(page.text);
  const own = findMermaidBlocks(tree).map(({node}) => ({source: node.value, where: `${page.file}:${node.position?.start.line ?? '?'}`}));
  const fromContract = renderedOperations(tree).flatMap((operationId) => {
    const location = contract.operations.get(operationId);
    if (!location) return [];
    return buildOperationView(contract.document, location, (markdown) => markdown).stateMachines.map((machine) => ({
      source: stateDiagram(machine),
      where: `${contractRelativePath}: ${operationId} ${machine.schemaName} (on ${page.file})`,
    }));
  });
  return [...own, ...fromContract];
}

/** Every diagram of every content page. */
export function collectDiagrams(siteDir: string): DiagramSource[] {
  const contract = loadContract(path.join(siteDir, contractRelativePath));
  return readContentFiles(siteDir).flatMap((page) => pageDiagrams(page, contract));
}
