import {describe, test} from 'node:test';
import assert from 'node:assert/strict';
import type {Root, RootContent} from 'mdast';
import type {MdxJsxFlowElement} from 'mdast-util-mdx';
import remarkApiReference, {stateDiagram} from '../../plugins/content/openapi-contract/remarkApiReference';
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

describe('remarkApiReference', () => {
  test('replaces <ApiOperation> with headings, diagrams and data-fed components', () => {
    const tree = page({type: 'paragraph', children: [{type: 'text', value: 'Prose.'}]}, apiOperation('createOrder'));
    transform(tree, {path: `${repoRoot}/docs/createorder.md`});
    const children = tree.children;
    const headings = children.flatMap((node) => (node.type === 'heading' ? [node.data?.hProperties?.id] : []));
    assert.deepEqual(headings, ['api-request', 'api-response', 'api-states-orderstatus', 'api-response-codes', 'api-code-samples']);
    assert.ok(children.some((node) => node.type === 'code' && node.lang === 'mermaid' && node.value.includes('PENDING --> PAID')));
    const imports = children.flatMap((node) => (node.type === 'mdxjsEsm' && node.value.startsWith('import') ? [node.value] : []));
    assert.ok(imports.includes("import CodeSamples from '@site/src/components/api/CodeSamples';"));
    const elementNames = children.flatMap((node) => (node.type === 'mdxJsxFlowElement' ? [node.name] : []));
    assert.ok(!elementNames.includes('ApiOperation'), 'the placeholder element is gone');
    assert.equal(elementNames[elementNames.length - 1], 'CodeSamples');
    assert.equal(children[children.length - 1]?.type, 'mdxJsxFlowElement', 'the code samples come last');
  });

  test('an operation page gets Try it after its header; a notification page gets the simulator instead, with its scenario names', () => {
    const names = (operationId: string) => {
      const tree = page(apiOperation(operationId));
      transform(tree, {path: `${repoRoot}/docs/page.md`});
      return tree.children.flatMap((node) => (node.type === 'mdxJsxFlowElement' ? [node] : []));
    };
    const operation = names('createOrder').map((node) => node.name);
    assert.deepEqual(operation.slice(0, 2), ['OperationHeader', 'TryIt']);
    assert.ok(!operation.includes('NotificationSimulator'));
    const webhook = names('paymentResultNotification');
    assert.deepEqual(webhook.slice(0, 2).map((node) => node.name), ['OperationHeader', 'NotificationSimulator']);
    assert.ok(!webhook.some((node) => node.name === 'TryIt'));
    const scenarios = webhook[1]?.attributes.find((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'scenarios');
    assert.equal(typeof scenarios?.value === 'object' ? scenarios.value?.value : undefined, '["paid","paymentFailed","expired"]');
  });

  test('an unknown operation fails with the file named', () => {
    assert.throws(
      () => transform(page(apiOperation('createOrdr')), {path: `${repoRoot}/docs/createorder.md`}),
      /docs\/createorder\.md: <ApiOperation operationId="createOrdr" \/> names no operation or webhook/,
    );
  });

  test('a missing operationId fails with the file named', () => {
    assert.throws(() => transform(page(apiOperation(undefined)), {path: `${repoRoot}/docs/x.md`}), /docs\/x\.md: <ApiOperation> needs a literal operationId/);
  });

  test('state diagrams start at the initial state and end at the final ones', () => {
    const diagram = stateDiagram({
      schemaName: 'RefundStatus',
      initial: 'PROCESSING',
      states: [
        {name: 'PROCESSING', description: '', terminal: false},
        {name: 'SUCCEEDED', description: '', terminal: true},
      ],
      transitions: [{from: 'PROCESSING', to: 'SUCCEEDED', trigger: 'Confirmed: done'}],
    });
    assert.equal(diagram, 'stateDiagram-v2\n  [*] --> PROCESSING\n  PROCESSING --> SUCCEEDED: Confirmed, done\n  SUCCEEDED --> [*]');
  });
});
