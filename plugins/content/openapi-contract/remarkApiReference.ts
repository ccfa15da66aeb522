/**
 * Remark plugin for API pages. Replaces
 *   <ApiOperation operationId="createOrder" />
 *   <ResponseCodeCatalogue />
 *   <StatementColumns />
 *   <IdempotencyRules />
 *   <RateLimits />
 *   <ApiExample operationId="createOrder" example="ewallet" response="200" />
 * with the reference sections built from the contract: real Markdown headings
 * (so the table of contents and search see them), Mermaid state diagrams, and
 * components whose data is inlined into the page at compile time. Only the
 * page that uses a component imports it, so other pages ship none of this.
 * ApiExample becomes a plain `json` code block holding one of the contract's
 * examples (the request body's, or a response's when `response` names a status),
 * so a guide shows exactly what the contract defines and never drifts from it.
 * Unknown operation IDs and examples fail the build with the file named.
 */
import path from 'node:path';
import type {Expression, ObjectExpression, Program} from 'estree';
import type {Heading, Nodes, Root, RootContent} from 'mdast';
import type {MdxJsxFlowElement, MdxjsEsm} from 'mdast-util-mdx';
// Its type declarations add `hProperties` (the heading's HTML id) to mdast's node data.
import type {} from 'mdast-util-to-hast';
import {valueToEstree} from 'estree-util-value-to-estree';
import {buildOperationView, pageOperationView, type StateMachineView} from '../../../src/contract/apiModel';
import {resolvePointer, type JsonValue, type ResponseObject} from '../../../src/contract/openapiTypes';
import {renderSamples, sampleInputFor, type RenderedSample} from '../../../src/lib/samples';
import {checkApiPages, scanApiPages} from '../../../src/contract/node/apiPages';
import {contractRelativePath, loadContract, type LoadedContract} from '../../../src/contract/node/loadContract';
import {renderMarkdown} from './markdown';
import {sampleModuleSpecifier} from './sampleModules';

export interface RemarkApiReferenceOptions {
  /** The site directory; the contract is read from api/openapi.yaml in it. */
  readonly siteDir: string;
}

const componentModules = {
  ApiReference: '@site/src/components/api/ApiReference',
  OperationHeader: '@site/src/components/api/OperationHeader',
  ApiRequest: '@site/src/components/api/ApiRequest',
  ApiResponses: '@site/src/components/api/ApiResponses',
  NotificationDelivery: '@site/src/components/api/NotificationDelivery',
  StateMachineTable: '@site/src/components/api/StateMachineTable',
  ResultCodeTable: '@site/src/components/api/ResultCodeTable',
  CodeSamples: '@site/src/components/api/CodeSamples',
  ResponseCodeCatalogue: '@site/src/components/api/ResponseCodeCatalogue',
  StatementColumns: '@site/src/components/api/StatementColumns',
  IdempotencyRules: '@site/src/components/api/IdempotencyRules',
  RateLimits: '@site/src/components/api/RateLimits',
  Fold: '@site/src/components/ui/Fold',
} as const;
type ComponentName = keyof typeof componentModules;

function program(body: Program['body']): Program {
  return {type: 'Program', sourceType: 'module', body};
}

function esm(value: string, estree: Program): MdxjsEsm {
  return {type: 'mdxjsEsm', value, data: {estree}};
}

function importNode(name: ComponentName): MdxjsEsm {
  return esm(
    `import ${name} from '${componentModules[name]}';`,
    program([
      {
        type: 'ImportDeclaration',
        specifiers: [{type: 'ImportDefaultSpecifier', local: {type: 'Identifier', name}}],
        source: {type: 'Literal', value: componentModules[name]},
        attributes: [],
      },
    ]),
  );
}

function exportConst(name: string, value: unknown, expression = valueToEstree(value) as Expression): MdxjsEsm {
  return esm(
    `export const ${name} = ${JSON.stringify(value)};`,
    program([
      {
        type: 'ExportNamedDeclaration',
        declaration: {
          type: 'VariableDeclaration',
          kind: 'const',
          declarations: [{type: 'VariableDeclarator', id: {type: 'Identifier', name}, init: expression}],
        },
        specifiers: [],
        attributes: [],
      },
    ]),
  );
}

/** `name.a.b[2]` as an ESTree expression. */
function memberPath(root: string, ...keys: Array<string | number>): {code: string; expression: Expression} {
  let expression: Expression = {type: 'Identifier', name: root};
  let code = root;
  for (const key of keys) {
    const computed = typeof key === 'number';
    expression = {
      type: 'MemberExpression',
      object: expression,
      property: computed ? {type: 'Literal', value: key} : {type: 'Identifier', name: key},
      computed,
      optional: false,
    };
    code += computed ? `[${key}]` : `.${key}`;
  }
  return {code, expression};
}

function element(
  name: ComponentName,
  props: Record<string, {code: string; expression: Expression}>,
  children: MdxJsxFlowElement['children'] = [],
): MdxJsxFlowElement {
  return {
    type: 'mdxJsxFlowElement',
    name,
    attributes: Object.entries(props).map(([prop, value]) => ({
      type: 'mdxJsxAttribute',
      name: prop,
      value: {
        type: 'mdxJsxAttributeValueExpression',
        value: value.code,
        data: {estree: program([{type: 'ExpressionStatement', expression: value.expression}])},
      },
    })),
    children,
  };
}

/** A JSON value as a JSX attribute expression. */
function literal(value: unknown): {code: string; expression: Expression} {
  return {code: JSON.stringify(value), expression: valueToEstree(value) as Expression};
}

function heading(text: string, id: string, depth: Heading['depth'] = 2): Heading {
  return {type: 'heading', depth, children: [{type: 'text', value: text}], data: {hProperties: {id}}};
}

/**
 * One named example of an operation in the contract: its request body's, or that of the response with the given
 * status. Throws, naming what exists, when there is no such example.
 */
export function contractExample(contract: LoadedContract, operationId: string, name: string, response?: string): JsonValue {
  const location = contract.operations.get(operationId);
  if (!location) throw new Error(`no operation ${operationId} in ${contractRelativePath}`);
  let examples: Record<string, {value?: JsonValue}> | undefined;
  if (response === undefined) {
    examples = location.operation.requestBody?.content?.['application/json']?.examples as typeof examples;
  } else {
    const raw = location.operation.responses?.[response];
    const resolved = raw?.$ref ? (resolvePointer(contract.document, raw.$ref) as ResponseObject) : raw;
    examples = resolved?.content?.['application/json']?.examples as typeof examples;
  }
  const example = examples?.[name];
  if (example?.value === undefined) {
    const where = response === undefined ? 'request body' : `response ${response}`;
    throw new Error(
      `${operationId} has no ${where} example "${name}" in ${contractRelativePath} (it has: ${Object.keys(examples ?? {}).join(', ') || 'none'})`,
    );
  }
  return example.value;
}

/** The code-block meta that tells the diagram plugin to hand a phone the transitions table instead of the drawing. */
export const phoneTransitionsMeta = 'phone=transitions';

/** Mermaid source of a state machine. */
export function stateDiagram(machine: StateMachineView): string {
  const lines = ['stateDiagram-v2', `  [*] --> ${machine.initial}`];
  for (const transition of machine.transitions) {
    // The short label (an event name, or the trigger's first words); the table under the diagram has the full trigger.
    lines.push(`  ${transition.from} --> ${transition.to}: ${transition.label.replace(/[:;]/g, ',')}`);
  }
  for (const state of machine.states.filter((candidate) => candidate.terminal)) {
    lines.push(`  ${state.name} --> [*]`);
  }
  return lines.join('\n');
}

/**
 * Why x-idempotency or x-rate-limits cannot be rendered, or undefined: every text must be
 * non-empty, every list non-empty, and every rate limit a positive integer.
 */
function referenceDataProblem(data: unknown, at = ''): string | undefined {
  if (typeof data === 'string') return data.trim() === '' ? `has an empty text at ${at}` : undefined;
  if (typeof data === 'number') return Number.isInteger(data) && data > 0 ? undefined : `has ${data} at ${at}, not a positive integer`;
  if (Array.isArray(data)) {
    if (data.length === 0) return `has an empty list at ${at}`;
    return data.map((item, index) => referenceDataProblem(item, `${at}[${index}]`)).find(Boolean);
  }
  if (typeof data !== 'object' || data === null) return at === '' ? 'is missing' : `has no value at ${at}`;
  return Object.entries(data)
    .map(([name, value]) => referenceDataProblem(value, at === '' ? name : `${at}.${name}`))
    .find(Boolean);
}

function stringAttribute(node: MdxJsxFlowElement, name: string): string | undefined {
  const attribute = node.attributes.find((candidate) => candidate.type === 'mdxJsxAttribute' && candidate.name === name);
  return typeof attribute?.value === 'string' ? attribute.value : undefined;
}

/**
 * The purpose of an operation in one line: the first sentence of its contract description, cut before a
 * list that follows a colon ("Creates a payment order ... needs next: a cashier URL, ..." -> "... needs next.").
 */
export function purposeLine(description: string): string {
  const flat = description.replace(/\s+/g, ' ').trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(flat)?.[0] ?? flat;
  const beforeList = sentence.replace(/:\s.*$/, '.');
  return beforeList.replace(/[.!?]?$/, (end) => end || '.');
}

/**
 * An operation's samples as its page ships them (src/components/api/CodeSamples/pageSample.tsx): the first
 * language, which readers see unless they chose another, with its code; every other language with its line
 * count and `load`, the page's one loader of the module holding their code (sampleModules.ts), a chunk of its own.
 */
export function pageSamplesExpression(samples: readonly RenderedSample[], loaderName: string): Expression {
  const items = samples.map(({code, ...rest}, index) => ({
    ...rest,
    lines: code.replace(/\n$/, '').split('\n').length,
    ...(index === 0 ? {code} : {}),
  }));
  const array = valueToEstree(items) as Expression;
  if (array.type !== 'ArrayExpression') throw new Error('pageSamplesExpression: expected an array expression');
  array.elements.slice(1).forEach((element) => {
    if (element?.type !== 'ObjectExpression') return;
    element.properties.push({
      type: 'Property',
      key: {type: 'Identifier', name: 'load'},
      value: {type: 'Identifier', name: loaderName},
      kind: 'init',
      method: false,
      shorthand: false,
      computed: false,
    });
  });
  return array;
}

/** `export const name = () => import('specifier');` */
function exportLoader(name: string, specifier: string): MdxjsEsm {
  return esm(
    `export const ${name} = () => import(${JSON.stringify(specifier)});`,
    program([
      {
        type: 'ExportNamedDeclaration',
        declaration: {
          type: 'VariableDeclaration',
          kind: 'const',
          declarations: [
            {
              type: 'VariableDeclarator',
              id: {type: 'Identifier', name},
              init: {
                type: 'ArrowFunctionExpression',
                params: [],
                body: {type: 'ImportExpression', source: {type: 'Literal', value: specifier}},
                expression: true,
                async: false,
                generator: false,
              },
            },
          ],
        },
        specifiers: [],
        attributes: [],
      },
    ]),
  );
}

interface OperationReference {
  /** The page's data (operation view, samples) and the loader of its other samples, exported at the top of the MDX module. */
  readonly data: readonly MdxjsEsm[];
  readonly dataName: string;
  readonly scenarios: readonly string[];
  readonly purposeHtml: string;
  readonly nodes: RootContent[];
}

function operationSections(contract: LoadedContract, operationId: string, file: string, used: Set<ComponentName>): OperationReference {
  const location = contract.operations.get(operationId);
  if (!location) {
    throw new Error(`${file}: <ApiOperation operationId="${operationId}" /> names no operation or webhook of ${contractRelativePath}.`);
  }
  const operation = buildOperationView(contract.document, location, renderMarkdown);
  const samples = renderSamples(sampleInputFor(contract.document, location));
  const dataName = `apiReference_${operationId}`;
  const op = memberPath(dataName, 'operation');
  const isWebhook = operation.kind === 'webhook';
  const nodes: RootContent[] = [];
  const add = (name: ComponentName, props: Record<string, {code: string; expression: Expression}>) => {
    used.add(name);
    nodes.push(element(name, props));
  };

  add('OperationHeader', {operation: op});
  nodes.push(heading(isWebhook ? 'Notification' : 'Request', 'api-request'));
  add('ApiRequest', {operation: op});
  nodes.push(heading(isWebhook ? 'Acknowledgement' : 'Response', 'api-response'));
  add('ApiResponses', {operation: op});
  if (isWebhook) {
    nodes.push(heading('Delivery and retries', 'api-delivery'));
    add('NotificationDelivery', {operation: op});
  }
  operation.stateMachines.forEach((machine, index) => {
    nodes.push(heading(`States of ${machine.schemaName}`, `api-states-${machine.schemaName.toLowerCase()}`));
    // On a phone the drawing gives way to the transitions table below it (see MermaidDiagram's `phone`).
    nodes.push({type: 'code', lang: 'mermaid', meta: phoneTransitionsMeta, value: stateDiagram(machine)});
    add('StateMachineTable', {machine: memberPath(dataName, 'operation', 'stateMachines', index)});
  });
  if (!isWebhook) {
    nodes.push(heading('Response codes', 'api-response-codes'));
    add('ResultCodeTable', {codes: memberPath(dataName, 'operation', 'resultCodes')});
  }
  nodes.push(heading('Code samples', 'api-code-samples'));
  add('CodeSamples', {samples: memberPath(dataName, 'samples'), kind: literal(isWebhook ? 'notification' : 'request')});
  const scenarios = isWebhook ? Object.keys(location.operation.requestBody?.content?.['application/json']?.examples ?? {}) : [];
  const purposeHtml = renderMarkdown(purposeLine(location.operation.description ?? operation.summary)).replace(/^<p>|<\/p>\s*$/g, '');
  const loaderName = `apiSampleCode_${operationId}`;
  const data: ObjectExpression = {
    type: 'ObjectExpression',
    properties: [
      {
        type: 'Property',
        key: {type: 'Identifier', name: 'operation'},
        value: valueToEstree(pageOperationView(operation)) as Expression,
        kind: 'init',
        method: false,
        shorthand: false,
        computed: false,
      },
      {
        type: 'Property',
        key: {type: 'Identifier', name: 'samples'},
        value: pageSamplesExpression(samples, loaderName),
        kind: 'init',
        method: false,
        shorthand: false,
        computed: false,
      },
    ],
  };
  return {
    data: [exportLoader(loaderName, sampleModuleSpecifier(operationId)), exportConst(dataName, {operation, samples}, data)],
    dataName,
    scenarios,
    purposeHtml,
    nodes,
  };
}

/** The ids of the reference sections a reader comes to the page for, open by default (and foldable). */
const openByDefault = new Set(['api-request', 'api-response', 'api-code-samples']);

/** A heading's text, without its markup. */
function headingText(node: RootContent): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as RootContent[]).map(headingText).join('');
  return '';
}

/**
 * Long explanations fold: the body of every level-2 section after the first (which the first screen shows) goes
 * into a <Fold> under its heading, which stays outside it, so the table of contents and #fragment links still
 * land on the heading. The prose sections and the long reference tables (states, response codes, delivery)
 * start folded; the request, the response and the code samples start open. Nodes before the first
 * heading, the first section and the endpoint header are left as they are.
 */
function foldSections(nodes: RootContent[], used: Set<ComponentName>): RootContent[] {
  const out: RootContent[] = [];
  let seenSections = 0;
  let body: RootContent[] | undefined;
  let title = '';
  let id = '';
  const close = () => {
    if (!body) return;
    used.add('Fold');
    const props = {title: literal(title), defaultOpen: literal(openByDefault.has(id))};
    out.push(element('Fold', props, body as MdxJsxFlowElement['children']));
    body = undefined;
  };
  for (const node of nodes) {
    // The endpoint header opens the reference: it ends the prose section before it and stays unfolded.
    if (node.type === 'mdxJsxFlowElement' && node.name === 'OperationHeader') {
      close();
      out.push(node);
      continue;
    }
    if (node.type === 'heading' && node.depth === 2) {
      close();
      seenSections += 1;
      out.push(node);
      if (seenSections > 1) {
        body = [];
        title = headingText(node);
        const hProperties = node.data?.hProperties as {id?: unknown} | undefined;
        id = typeof hProperties?.id === 'string' ? hProperties.id : '';
      }
      continue;
    }
    if (body) body.push(node);
    else out.push(node);
  }
  close();
  return out;
}

/**
 * Wraps the whole page (its prose and the reference sections) in <ApiReference>: the endpoint block and
 * Try it (or the simulator) at the top, and on wide screens the example pane beside the text. The data
 * export stays at the top level of the module, where MDX wants ESM.
 */
function wrapPage(tree: Root, reference: OperationReference, used: Set<ComponentName>): void {
  used.add('ApiReference');
  const esmNodes = tree.children.filter((node) => node.type === 'mdxjsEsm');
  const content = foldSections(
    tree.children.filter((node) => node.type !== 'mdxjsEsm'),
    used,
  );
  const wrapper = element(
    'ApiReference',
    {
      operation: memberPath(reference.dataName, 'operation'),
      samples: memberPath(reference.dataName, 'samples'),
      purposeHtml: literal(reference.purposeHtml),
      scenarios: literal(reference.scenarios),
    },
    content as MdxJsxFlowElement['children'],
  );
  tree.children = [...esmNodes, ...reference.data, wrapper];
}

export default function remarkApiReference(options: RemarkApiReferenceOptions) {
  const contractPath = path.join(options.siteDir, contractRelativePath);
  return (tree: Root, vfile: {path?: string}): void => {
    const file = vfile.path ? path.relative(options.siteDir, vfile.path) : '(unknown file)';
    const used = new Set<ComponentName>();
    let reference: OperationReference | undefined;
    let contract: LoadedContract | undefined;
    const getContract = () => (contract ??= loadContract(contractPath));

    const transform = (parent: Nodes): void => {
      if (!('children' in parent)) return;
      const children: Nodes[] = parent.children;
      for (let index = 0; index < children.length; index += 1) {
        const node = children[index];
        if (!node) continue;
        if (node.type !== 'mdxJsxFlowElement') {
          transform(node);
          continue;
        }
        const jsx = node;
        let replacement: RootContent[] | undefined;
        if (jsx.name === 'ApiOperation') {
          const operationId = stringAttribute(jsx, 'operationId');
          if (!operationId)
            throw new Error(`${file}: <ApiOperation> needs a literal operationId attribute, such as operationId="createOrder".`);
          if (reference) throw new Error(`${file}: a page holds one <ApiOperation>; this one has a second, ${operationId}.`);
          reference = operationSections(getContract(), operationId, file, used);
          replacement = reference.nodes;
        } else if (jsx.name === 'ResponseCodeCatalogue') {
          const current = getContract();
          const pages = checkApiPages(current, scanApiPages(options.siteDir));
          const codes = [...current.resultCodes.values()].map((code) => ({
            ...code,
            returnedBy:
              code.scope === 'common'
                ? []
                : [...current.operations.values()]
                    .filter((location) => location.operation['x-result-codes']?.includes(code.code))
                    .map((location) => ({
                      operationId: location.operationId,
                      summary: location.operation.summary ?? location.operationId,
                      url: pages.get(location.operationId)?.url ?? '',
                    })),
          }));
          used.add('ResponseCodeCatalogue');
          replacement = [
            exportConst('responseCodeCatalogue', codes),
            element('ResponseCodeCatalogue', {codes: memberPath('responseCodeCatalogue')}),
          ];
        } else if (jsx.name === 'ApiExample') {
          const operationId = stringAttribute(jsx, 'operationId');
          const example = stringAttribute(jsx, 'example');
          if (!operationId || !example)
            throw new Error(
              `${file}: <ApiExample> needs literal operationId and example attributes, such as operationId="createOrder" example="ewallet".`,
            );
          let value: JsonValue;
          try {
            value = contractExample(getContract(), operationId, example, stringAttribute(jsx, 'response'));
          } catch (error) {
            throw new Error(`${file}: <ApiExample>: ${(error as Error).message}.`);
          }
          replacement = [{type: 'code', lang: 'json', value: JSON.stringify(value, null, 2)}];
        } else if (jsx.name === 'StatementColumns') {
          used.add('StatementColumns');
          replacement = [
            exportConst('statementColumns', getContract().statementColumns),
            element('StatementColumns', {columns: memberPath('statementColumns')}),
          ];
        } else if (jsx.name === 'IdempotencyRules' || jsx.name === 'RateLimits') {
          // x-idempotency and x-rate-limits, on /docs/idempotency and /docs/rate-limits.
          const document = getContract().document;
          const [key, data, prop] =
            jsx.name === 'IdempotencyRules'
              ? (['x-idempotency', document['x-idempotency'], 'rules'] as const)
              : (['x-rate-limits', document['x-rate-limits'], 'limits'] as const);
          const problem = referenceDataProblem(data);
          if (problem) throw new Error(`${file}: <${jsx.name} /> renders ${key} of ${contractRelativePath}, which ${problem}.`);
          const dataName = jsx.name === 'IdempotencyRules' ? 'idempotencyRules' : 'rateLimits';
          used.add(jsx.name);
          replacement = [exportConst(dataName, data), element(jsx.name, {[prop]: memberPath(dataName)})];
        }
        if (replacement) {
          children.splice(index, 1, ...replacement);
          index += replacement.length - 1;
        } else {
          transform(node);
        }
      }
    };

    transform(tree);
    if (reference) wrapPage(tree, reference, used);
    if (used.size > 0) {
      tree.children.unshift(...[...used].map(importNode));
    }
  };
}
