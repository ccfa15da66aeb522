import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {Root, RootContent} from 'mdast';
import type {MdxJsxFlowElement} from 'mdast-util-mdx';
import type {ArrayExpression, Literal, ObjectExpression, Property} from 'estree';
import remarkApiReference, {
  pageSamplesExpression,
  purposeLine,
  stateDiagram,
} from '../../plugins/content/openapi-contract/remarkApiReference';
import type {RenderedSample} from '../../src/lib/samples';
import {repoRoot} from '../support/routeContract';

function page(...children: RootContent[]): Root {
  return {type: 'root', children};
}

function apiOperation(operationId: string | undefined): MdxJsxFlowElement {
  return {
    type: 'mdxJsxFlowElement',
    name: 'ApiOperation',
    attributes: operationId === undefined ? [] : [{type: 'mdxJsxAttribute', name: 'operationId', value: operationId}],
    children: [],
  };
}

const transform = remarkApiReference({siteDir: repoRoot});

/** The page inside the <ApiReference> wrapper the plugin puts around it. */
function wrapped(tree: Root): {wrapper: MdxJsxFlowElement; children: RootContent[]} {
  const last = tree.children[tree.children.length - 1];
  assert.ok(last?.type === 'mdxJsxFlowElement' && last.name === 'ApiReference', 'the page ends in one <ApiReference> around it');
  return {wrapper: last, children: last.children as RootContent[]};
}

describe('remarkApiReference', () => {
  test('replaces <ApiOperation> with headings, diagrams and data-fed components, the page wrapped in <ApiReference>', () => {
    const tree = page({type: 'paragraph', children: [{type: 'text', value: 'Prose.'}]}, apiOperation('createOrder'));
    transform(tree, {path: `${repoRoot}/docs/createorder.md`});
    const {children} = wrapped(tree);
    assert.equal(children[0]?.type, 'paragraph', 'the prose stays first, inside the wrapper');
    const headings = children.flatMap((node) => (node.type === 'heading' ? [node.data?.hProperties?.id] : []));
    assert.deepEqual(headings, ['api-request', 'api-response', 'api-states-orderstatus', 'api-response-codes', 'api-code-samples']);
    // The states section's body is folded (ui/Fold): look for the drawing below the top level too.
    const descendants = (nodes: readonly RootContent[]): RootContent[] =>
      nodes.flatMap((node) => [node, ...('children' in node ? descendants(node.children as RootContent[]) : [])]);
    assert.ok(
      descendants(children).some((node) => node.type === 'code' && node.lang === 'mermaid' && node.value.includes('PENDING --> PAID')),
    );
    const imports = tree.children.flatMap((node) => (node.type === 'mdxjsEsm' && node.value.startsWith('import') ? [node.value] : []));
    assert.ok(imports.includes("import CodeSamples from '@site/src/components/api/CodeSamples';"));
    assert.ok(imports.includes("import ApiReference from '@site/src/components/api/ApiReference';"));
    assert.ok(
      tree.children.slice(0, -1).every((node) => node.type === 'mdxjsEsm'),
      'imports and the data export stay at the top level',
    );
    const elementNames = descendants(children).flatMap((node) => (node.type === 'mdxJsxFlowElement' ? [node.name] : []));
    assert.ok(!elementNames.includes('ApiOperation'), 'the placeholder element is gone');
    assert.equal(elementNames[0], 'OperationHeader');
    assert.equal(elementNames[elementNames.length - 1], 'CodeSamples');
    assert.ok(elementNames.includes('Fold'), 'the sections after the first are folded');
  });

  test('a page ships the code of its first sample language and, for the others, their line counts and the loader of their module', () => {
    const sample = (language: RenderedSample['language'], code: string): RenderedSample => ({
      language,
      label: language,
      highlight: language,
      fileName: `x.${language}`,
      code,
    });
    const expression = pageSamplesExpression(
      [sample('curl', 'curl -X POST\nhttps://a\n'), sample('python', 'import os\nprint(1)\nprint(2)')],
      'load_x',
    );
    assert.equal(expression.type, 'ArrayExpression');
    const items = (expression as ArrayExpression).elements.map((element) =>
      Object.fromEntries(
        (element as ObjectExpression).properties.map((property) => {
          const {key, value} = property as Property;
          const shown = value.type === 'Literal' ? value.value : value.type === 'Identifier' ? `identifier ${value.name}` : value.type;
          return [key.type === 'Identifier' ? key.name : (key as Literal).value, shown];
        }),
      ),
    );
    assert.equal(items[0]?.code, 'curl -X POST\nhttps://a\n', 'the first language: its code inline');
    assert.equal(items[0]?.lines, 2, 'a last newline is no line');
    assert.equal(items[0]?.load, undefined);
    assert.equal(items[1]?.code, undefined, 'another language: no code');
    assert.equal(items[1]?.lines, 3);
    assert.equal(items[1]?.load, 'identifier load_x');
  });

  test('the wrapper carries the purpose line and, on a notification page, its scenario names', () => {
    const attribute = (wrapper: MdxJsxFlowElement, name: string) => {
      const found = wrapper.attributes.find((candidate) => candidate.type === 'mdxJsxAttribute' && candidate.name === name);
      return typeof found?.value === 'object' ? found.value?.value : undefined;
    };
    const operation = page(apiOperation('createOrder'));
    transform(operation, {path: `${repoRoot}/docs/page.md`});
    assert.equal(
      attribute(wrapped(operation).wrapper, 'purposeHtml'),
      JSON.stringify('Creates a payment order for any checkout scene and returns what the scene needs next.'),
    );
    assert.equal(attribute(wrapped(operation).wrapper, 'scenarios'), '[]');
    const webhook = page(apiOperation('paymentResultNotification'));
    transform(webhook, {path: `${repoRoot}/docs/page.md`});
    assert.equal(attribute(wrapped(webhook).wrapper, 'scenarios'), '["paid","paymentFailed","expired"]');
  });

  test('a second <ApiOperation> on one page fails with the file named', () => {
    assert.throws(
      () => transform(page(apiOperation('createOrder'), apiOperation('refundOrder')), {path: `${repoRoot}/docs/x.md`}),
      /docs\/x\.md: a page holds one <ApiOperation>/,
    );
  });

  test('the purpose line is the first sentence, cut before a list after a colon', () => {
    assert.equal(
      purposeLine('Creates a payment order and returns what comes next: a URL, a string.\nMore.'),
      'Creates a payment order and returns what comes next.',
    );
    assert.equal(purposeLine('Returns the `order` as it stands. Then more.'), 'Returns the `order` as it stands.');
    assert.equal(purposeLine('No full stop'), 'No full stop.');
  });

  test('an unknown operation fails with the file named', () => {
    assert.throws(
      () => transform(page(apiOperation('createOrdr')), {path: `${repoRoot}/docs/createorder.md`}),
      /docs\/createorder\.md: <ApiOperation operationId="createOrdr" \/> names no operation or webhook/,
    );
  });

  test('a missing operationId fails with the file named', () => {
    assert.throws(
      () => transform(page(apiOperation(undefined)), {path: `${repoRoot}/docs/x.md`}),
      /docs\/x\.md: <ApiOperation> needs a literal operationId/,
    );
  });

  test('state diagrams start at the initial state and end at the final ones', () => {
    const diagram = stateDiagram({
      schemaName: 'RefundStatus',
      initial: 'PROCESSING',
      states: [
        {name: 'PROCESSING', description: '', terminal: false},
        {name: 'SUCCEEDED', description: '', terminal: true},
      ],
      transitions: [{from: 'PROCESSING', to: 'SUCCEEDED', trigger: 'The provider confirms it, after checks', label: 'Confirmed: done'}],
    });
    assert.equal(diagram, 'stateDiagram-v2\n  [*] --> PROCESSING\n  PROCESSING --> SUCCEEDED: Confirmed, done\n  SUCCEEDED --> [*]');
  });
});
