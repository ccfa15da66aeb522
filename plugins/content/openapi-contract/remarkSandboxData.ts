/**
 * Remark plugin that hands the sandbox data (api/sandbox.yaml) to the components of
 * src/components/sandboxData/, the way remarkApiReference hands the contract to the API components:
 * inlined into the page at MDX compile time, so nothing is fetched in the browser and a page ships
 * only the sections its components use.
 *
 * A page imports the components it wants and writes them without data:
 *
 *   import SandboxWallets from '@site/src/components/sandboxData/SandboxWallets';
 *   <SandboxWallets />
 *   The wallet's PIN is <SandboxValue path="wallets.0.pin" />.
 *
 * The plugin adds `data={sandboxData}` to each of them and one `export const sandboxData = {...}`
 * holding the top-level sections those components read (sandboxComponentSections). It loads the data
 * with loadSandboxData, so a broken data file, or one naming a code the contract lacks, stops the
 * build with the entry named. A component given its own `data`, or a SandboxValue whose path is not
 * in the data, fails the build with the page named.
 */
import path from 'node:path';
import type {Expression, Program} from 'estree';
import type {Nodes, Root} from 'mdast';
import type {MdxJsxFlowElement, MdxJsxTextElement, MdxjsEsm} from 'mdast-util-mdx';
import {valueToEstree} from 'estree-util-value-to-estree';
import {valueAtPath} from '../../../src/lib/sandboxDataText';
import type {OperationRef, SandboxData} from '../../../src/sandbox/engine/rules/types';
import {checkApiPages, scanApiPages} from '../../../src/contract/node/apiPages';
import {contractRelativePath, loadContract, type LoadedContract} from '../../../src/contract/node/loadContract';
import {loadSandboxData, sandboxRelativePath} from '../../../src/contract/node/sandboxData';

export interface RemarkSandboxDataOptions {
  /** The site directory; the data is read from api/sandbox.yaml in it. */
  readonly siteDir: string;
}

/** The top-level sections of the data each component reads (SandboxValue's come from its path). */
export const sandboxComponentSections = {
  SandboxMerchant: ['merchant', 'clientReadTimeoutSeconds'],
  SandboxScenes: ['payments'],
  SandboxWallets: ['wallets', 'walletRules'],
  SandboxPayerCredentials: ['paymentCodes', 'agreementTokens', 'walletAuthCodes', 'wallets'],
  SandboxCards: ['cards'],
  SandboxEndings: ['payments', 'refunds', 'payouts', 'clientReadTimeoutSeconds'],
  SandboxBankAccounts: ['bankAccounts'],
  SandboxVirtualAccounts: ['virtualAccounts'],
  SandboxPayoutCards: ['payoutCards'],
  SandboxRetrySchedule: ['notifications'],
  SandboxChargebacks: ['chargebacks'],
  SandboxCurrencies: ['currencies', 'merchant'],
  SandboxPricing: ['pricing', 'currencies'],
  SandboxTestValues: ['wallets', 'cards', 'payments', 'refunds', 'payouts', 'bankAccounts', 'virtualAccounts', 'payoutCards'],
  SandboxValue: [],
} as const satisfies Record<string, ReadonlyArray<keyof SandboxData>>;

type ComponentName = keyof typeof sandboxComponentSections;
const isSandboxComponent = (name: string | null | undefined): name is ComponentName =>
  name !== null && name !== undefined && Object.hasOwn(sandboxComponentSections, name);

const dataName = 'sandboxData';

/** Every operationId the data names (in `operation`, `operations` and the payout products). */
export function operationIdsIn(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => operationIdsIn(item, into));
  else if (typeof node === 'object' && node !== null) {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'operation' && typeof value === 'string') into.add(value);
      else if (key === 'operations' && Array.isArray(value)) value.forEach((id) => typeof id === 'string' && into.add(id));
      else operationIdsIn(value, into);
    }
  }
  return into;
}

/** Summary and reference page of each operation the data names, for the components' links. */
export function operationRefs(contract: LoadedContract, siteDir: string, ids: ReadonlySet<string>): Record<string, OperationRef> {
  const pages = checkApiPages(contract, scanApiPages(siteDir));
  return Object.fromEntries(
    [...ids].sort().flatMap((id) => {
      const location = contract.operations.get(id);
      return location ? [[id, {summary: location.operation.summary ?? id, url: pages.get(id)?.url ?? ''}]] : [];
    }),
  );
}

function program(body: Program['body']): Program {
  return {type: 'Program', sourceType: 'module', body};
}

function exportConst(name: string, value: unknown): MdxjsEsm {
  return {
    type: 'mdxjsEsm',
    value: `export const ${name} = ${JSON.stringify(value)};`,
    data: {
      estree: program([
        {
          type: 'ExportNamedDeclaration',
          declaration: {
            type: 'VariableDeclaration',
            kind: 'const',
            declarations: [{type: 'VariableDeclarator', id: {type: 'Identifier', name}, init: valueToEstree(value) as Expression}],
          },
          specifiers: [],
          attributes: [],
        },
      ]),
    },
  };
}

function stringAttribute(node: MdxJsxFlowElement | MdxJsxTextElement, name: string): string | undefined {
  const attribute = node.attributes.find((candidate) => candidate.type === 'mdxJsxAttribute' && candidate.name === name);
  return typeof attribute?.value === 'string' ? attribute.value : undefined;
}

export default function remarkSandboxData(options: RemarkSandboxDataOptions) {
  const sandboxPath = path.join(options.siteDir, sandboxRelativePath);
  const contractPath = path.join(options.siteDir, contractRelativePath);
  return (tree: Root, vfile: {path?: string}): void => {
    const file = vfile.path ? path.relative(options.siteDir, vfile.path) : '(unknown file)';
    const elements: Array<MdxJsxFlowElement | MdxJsxTextElement> = [];
    const visit = (node: Nodes): void => {
      if ((node.type === 'mdxJsxFlowElement' || node.type === 'mdxJsxTextElement') && isSandboxComponent(node.name)) elements.push(node);
      if ('children' in node) for (const child of node.children) visit(child);
    };
    visit(tree);
    if (elements.length === 0) return;

    const contract = loadContract(contractPath);
    const data = loadSandboxData(sandboxPath, contract);
    const sections = new Set<keyof SandboxData>();
    for (const element of elements) {
      const name = element.name as ComponentName;
      if (element.attributes.some((attribute) => attribute.type === 'mdxJsxAttribute' && attribute.name === 'data')) {
        throw new Error(`${file}: <${name}> gets its data from ${sandboxRelativePath} at compile time; remove its data attribute.`);
      }
      if (name === 'SandboxValue') {
        const dotted = stringAttribute(element, 'path');
        if (!dotted) throw new Error(`${file}: <SandboxValue> needs a literal path attribute, such as path="wallets.0.pin".`);
        const value = valueAtPath(data, dotted);
        if (value === undefined || (typeof value === 'object' && value !== null)) {
          throw new Error(
            `${file}: <SandboxValue path="${dotted}" /> names ${value === undefined ? 'nothing' : 'a list or a section, not a value'} in ${sandboxRelativePath}.`,
          );
        }
        sections.add(dotted.split('.')[0] as keyof SandboxData);
      }
      for (const section of sandboxComponentSections[name]) sections.add(section);
      element.attributes.push({
        type: 'mdxJsxAttribute',
        name: 'data',
        value: {
          type: 'mdxJsxAttributeValueExpression',
          value: dataName,
          data: {estree: program([{type: 'ExpressionStatement', expression: {type: 'Identifier', name: dataName}}])},
        },
      });
    }
    const picked: Record<string, unknown> = Object.fromEntries([...sections].sort().map((section) => [section, data[section]]));
    picked.operations = operationRefs(contract, options.siteDir, operationIdsIn(data));
    tree.children.unshift(exportConst(dataName, picked));
  };
}
