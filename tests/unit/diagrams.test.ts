import assert from 'node:assert/strict';
import {mkdtempSync, readdirSync, readFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import path from 'node:path';
import {test} from 'node:test';
import type {Root} from 'mdast';
import {collectDiagrams} from '../../plugins/content/mermaid-diagrams/collectDiagrams';
import {
  describeDiagram,
  diagramDirectory,
  diagramFileName,
  diagramThemes,
  storeDiagrams,
} from '../../plugins/content/mermaid-diagrams/diagramStore';
import remarkMermaidDiagrams from '../../plugins/content/mermaid-diagrams/remarkMermaidDiagrams';

const siteDir = path.resolve(__dirname, '..', '..');
const diagrams = collectDiagrams(siteDir);
const stored = new Set(readdirSync(path.join(siteDir, diagramDirectory)));

test('the content and the contract have diagrams to draw', () => {
  assert.ok(diagrams.length > 40, `only ${diagrams.length} diagrams found`);
  assert.ok(
    diagrams.some(({where}) => where.startsWith('api/openapi.yaml')),
    'the contract state machines are missing',
  );
});

test('every diagram is drawn in both colour modes, so a fresh checkout builds without a browser', () => {
  const missing = diagrams.flatMap(({source, where}) =>
    diagramThemes.filter((theme) => !stored.has(diagramFileName(source, theme))).map((theme) => `${where} (${theme})`),
  );
  assert.deepEqual(missing, [], 'run npm run diagrams (needs Chromium) and commit static/diagrams');
});

test('static/diagrams holds no file that no diagram uses', () => {
  const used = new Set(diagrams.flatMap(({source}) => diagramThemes.map((theme) => diagramFileName(source, theme))));
  assert.deepEqual(
    [...stored].filter((file) => !used.has(file)),
    [],
    'run npm run diagrams to remove unused files',
  );
});

test('stored drawings are standalone SVG with a pixel size', () => {
  for (const file of stored) {
    const svg = readFileSync(path.join(siteDir, diagramDirectory, file), 'utf8');
    assert.match(svg, /^<svg[^>]*\swidth="\d+" height="\d+">/, file);
    assert.doesNotMatch(svg, /<script/i, file);
  }
});

test('a file name changes with the source and the theme', () => {
  const source = 'sequenceDiagram\n  A->>B: hello';
  assert.notEqual(diagramFileName(source, 'light'), diagramFileName(source, 'dark'));
  assert.notEqual(diagramFileName(source, 'light'), diagramFileName(`${source}!`, 'light'));
  assert.equal(diagramFileName(`${source}\n`, 'light'), diagramFileName(source, 'light'));
});

test('text alternatives name the participants or the states', () => {
  assert.equal(
    describeDiagram('sequenceDiagram\n  participant C as Customer\n  participant V as Veloxa Pay\n  actor M\n  C->>V: pays'),
    'Sequence diagram between Customer, Veloxa Pay and M.',
  );
  assert.equal(describeDiagram('stateDiagram-v2\n  [*] --> OPEN\n  OPEN --> WON: won\n  WON --> [*]'), 'State diagram of OPEN and WON.');
});

test('the remark plugin swaps a stored diagram for <MermaidDiagram> with both files and its text', async () => {
  const [first] = diagrams;
  assert.ok(first);
  const {source} = first;
  const tree: Root = {
    type: 'root',
    children: [{type: 'code', lang: 'mermaid', value: source, position: {start: {line: 3, column: 1}, end: {line: 5, column: 4}}}],
  };
  await remarkMermaidDiagrams({siteDir})(tree, {path: path.join(siteDir, 'docs', 'example.md')});
  const [importNode, element] = tree.children;
  assert.equal(importNode?.type, 'mdxjsEsm');
  assert.ok(element?.type === 'mdxJsxFlowElement', 'the code block became a JSX element');
  assert.equal(element.name, 'MermaidDiagram');
  const attributes = Object.fromEntries(
    element.attributes.flatMap((attribute) => (attribute.type === 'mdxJsxAttribute' ? [[attribute.name, attribute.value]] : [])),
  );
  assert.equal(attributes.light, diagramFileName(source, 'light'));
  assert.equal(attributes.dark, diagramFileName(source, 'dark'));
  assert.ok(Number(attributes.width) > 0 && Number(attributes.height) > 0);
  assert.equal(attributes.source, source.trim());
});

test('a diagram that is not drawn yet and cannot be drawn fails with its place and the reason', async () => {
  const emptySite = mkdtempSync(path.join(tmpdir(), 'diagrams-'));
  const previous = process.env.CHROME_PATH;
  process.env.CHROME_PATH = path.join(emptySite, 'no-such-chromium');
  try {
    await assert.rejects(
      storeDiagrams(emptySite, [{source: 'sequenceDiagram\n  A->>B: new step', where: 'docs/new-page.md:12'}]),
      /^Error: docs\/new-page\.md:12: this Mermaid diagram is not drawn yet .*CHROME_PATH is set to/,
    );
  } finally {
    if (previous === undefined) delete process.env.CHROME_PATH;
    else process.env.CHROME_PATH = previous;
  }
});
