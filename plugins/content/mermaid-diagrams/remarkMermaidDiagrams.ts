/**
 * Replaces every ```mermaid code block with <MermaidDiagram>: two prerendered
 * SVG images (light and dark) and the source as a text version. Runs after the
 * API reference plugin, so the contract's state machines are drawn the same way.
 */
import path from 'node:path';
import type {Program} from 'estree';
import type {Code, Nodes, Parent, Root} from 'mdast';
import type {MdxJsxAttribute, MdxjsEsm} from 'mdast-util-mdx';
import {describeDiagram, storeDiagrams} from './diagramStore';
import {sequenceFontSize} from './sequenceLayout';

export interface RemarkMermaidDiagramsOptions {
  readonly siteDir: string;
}

const componentModule = '@site/src/components/ui/MermaidDiagram';

function importNode(): MdxjsEsm {
  const estree: Program = {
    type: 'Program',
    sourceType: 'module',
    body: [
      {
        type: 'ImportDeclaration',
        specifiers: [{type: 'ImportDefaultSpecifier', local: {type: 'Identifier', name: 'MermaidDiagram'}}],
        source: {type: 'Literal', value: componentModule},
        attributes: [],
      },
    ],
  };
  return {type: 'mdxjsEsm', value: `import MermaidDiagram from '${componentModule}';`, data: {estree}};
}

export interface MermaidBlock {
  readonly parent: Parent;
  readonly index: number;
  readonly node: Code;
}

/** The ```mermaid code blocks of a page, in document order: what "a page's diagrams" means everywhere (see collectDiagrams). */
export function findMermaidBlocks(tree: Nodes): MermaidBlock[] {
  const found: MermaidBlock[] = [];
  const walk = (parent: Nodes): void => {
    if (!('children' in parent)) return;
    parent.children.forEach((child, index) => {
      if (child.type === 'code' && child.lang === 'mermaid') found.push({parent, index, node: child});
      else walk(child);
    });
  };
  walk(tree);
  return found;
}

export default function remarkMermaidDiagrams(options: RemarkMermaidDiagramsOptions) {
  return async (tree: Root, vfile: {path?: string}): Promise<void> => {
    const found = findMermaidBlocks(tree);
    if (found.length === 0) return;
    const file = vfile.path ? path.relative(options.siteDir, vfile.path) : '(unknown file)';
    const sources = found.map(({node}) => ({
      source: node.value,
      where: `${file}:${node.position?.start.line ?? '?'}`,
    }));
    const stored = await storeDiagrams(options.siteDir, sources);
    found.forEach(({parent, index, node}, position) => {
      const diagram = stored[position];
      if (!diagram) return;
      const attribute = (name: string, value: string): MdxJsxAttribute => ({type: 'mdxJsxAttribute', name, value});
      parent.children[index] = {
        type: 'mdxJsxFlowElement',
        name: 'MermaidDiagram',
        attributes: [
          attribute('light', diagram.light.file),
          attribute('dark', diagram.dark.file),
          attribute('width', String(diagram.light.width)),
          attribute('height', String(diagram.light.height)),
          attribute('alt', describeDiagram(node.value)),
          attribute('source', node.value.trim()),
          // `phone=transitions` (the contract's state diagrams): below 600 px the transitions table under it stands in.
          ...(node.meta?.split(/\s+/).includes('phone=transitions') ? [attribute('phone', 'transitions')] : []),
          // A sequence diagram shrinks no further than 12 px text (minWidth) and otherwise scrolls sideways in its own box.
          ...(/^\s*sequenceDiagram\b/.test(node.value)
            ? [attribute('phone', 'scroll'), attribute('minWidth', String(Math.ceil((diagram.light.width * 12) / sequenceFontSize)))]
            : []),
        ],
        children: [],
      };
    });
    tree.children.unshift(importNode());
  };
}
