/**
 * Local plugin that prepares the in-browser sandbox at build time, so the browser never parses YAML
 * or compiles a schema:
 * - `@generated/sandbox-engine/spec.json`: the EngineSpec (src/sandbox/engine/spec.ts) built from the
 *   contract and the sandbox data, and the published test keys the engine signs and verifies with;
 * - `@generated/sandbox-engine/validators.js`: Ajv's standalone code for every parameter and request
 *   body schema the engine checks, keyed by JSON pointer. Compiled here, so the page's
 *   Content-Security-Policy needs no 'unsafe-eval' (Ajv otherwise compiles with `new Function`).
 * - `@generated/sandbox-engine/tryit.json`: what the Try it panel needs of each operation (parameters,
 *   examples, schema pointers, state machines); its validators.js also holds the responses' schemas.
 * - `@generated/sandbox-engine/notifications.json`: the notifications and their example scenarios, for the
 *   notification simulator on each notification page; its validators are in validators.js too.
 * All are imported only by code a page loads on demand (the in-browser sandbox, the Try it panel): they
 * are never part of a page's first load.
 */
import {existsSync} from 'node:fs';
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone';
import {validatorDocument} from '../../../src/contract/sharedParts';
import {buildOperationView, type BodyView, type FieldView} from '../../../src/contract/apiModel';
import {deref, listOperations, type OpenApiDocument} from '../../../src/contract/openapiTypes';
import type {NotificationSimulatorData} from '../../../src/lib/notificationCatalogue';
import type {TryItBodyForm, TryItData, TryItField, TryItMachine, TryItOperation, TryItVariant} from '../../../src/lib/tryIt';
import {buildEngineSpec, type BrowserSandboxData, type EngineSpec} from '../../../src/sandbox/engine/spec';
import {diagramDirectory, diagramFileName} from '../mermaid-diagrams/diagramStore';
import {contractRelativePath, loadContract} from '../../../src/contract/node/loadContract';
import {stateDiagram} from '../openapi-contract/remarkApiReference';
import {loadSandboxData, sandboxRelativePath} from '../../../src/contract/node/sandboxData';
import {scanApiPages} from '../../../src/contract/node/apiPages';

/** Every schema the engine validates a request against (parameters and bodies), and the responses Try it checks. */
export function validatedPointers(spec: EngineSpec, responsePointers: readonly string[] = []): string[] {
  const pointers = new Set<string>(responsePointers);
  for (const operation of spec.operations) {
    for (const parameter of operation.parameters) pointers.add(parameter.schemaPointer);
    if (operation.bodySchemaPointer) pointers.add(operation.bodySchemaPointer);
  }
  // Notification bodies: the simulator checks a reader's edited data before anything is signed.
  for (const webhook of spec.webhooks) pointers.add(webhook.bodySchemaPointer);
  return [...pointers].sort();
}

/** CommonJS module exporting `byPointer`: each pointer's compiled validation function. */
export function standaloneValidators(document: object, pointers: readonly string[]): string {
  // The same options as src/contract/validator.ts, plus source code for the standalone module.
  const ajv = new Ajv2020({strict: false, allErrors: true, validateSchema: false, discriminator: true, code: {source: true}});
  addFormats(ajv);
  ajv.addSchema(validatorDocument(document as OpenApiDocument), 'contract');
  const exports: Record<string, string> = {};
  pointers.forEach((pointer, index) => {
    if (!ajv.getSchema(`contract#${pointer}`)) throw new Error(`sandbox-engine: the contract has no schema at ${pointer}.`);
    exports[`v${index}`] = `contract#${pointer}`;
  });
  const table = pointers.map((pointer, index) => `${JSON.stringify(pointer)}: exports.v${index}`).join(',\n  ');
  return `${standaloneCode(ajv, exports)}\nexports.byPointer = {\n  ${table}\n};\n`;
}

/** A JSON pointer token: "~" and "/" escaped. */
const token = (text: string) => text.replace(/~/g, '~0').replace(/\//g, '~1');

/** The first sentence of a field's description, as plain text: the form's hint. */
function hintOf(field: FieldView): string | undefined {
  const text = field.descriptionHtml
    ?.replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!text) return undefined;
  return /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
}

function formField(field: FieldView): TryItField {
  const variants = field.variants ? formVariants(field.variants) : undefined;
  const hint = hintOf(field);
  return {
    name: field.name,
    required: field.required,
    type:
      field.fields || field.variants ? 'object' : ['string', 'integer', 'number', 'boolean'].includes(field.type) ? field.type : 'other',
    ...(field.enumValues ? {enum: field.enumValues} : {}),
    ...(hint ? {hint} : {}),
    ...(field.fields ? {fields: field.fields.map(formField)} : {}),
    ...(variants ? {variants} : {}),
  };
}

/** One-of variants as the form switches them: by the field each gives a constant value. */
function formVariants(variants: NonNullable<BodyView['variants']>): TryItVariant[] | undefined {
  const result: TryItVariant[] = [];
  for (const variant of variants) {
    const discriminator = variant.fields.find((field) => field.constValue !== undefined);
    // A one-of without a constant to tell its variants apart stays in the JSON editor.
    if (!discriminator?.constValue) return undefined;
    result.push({discriminator: discriminator.name, tag: discriminator.constValue, fields: variant.fields.map(formField)});
  }
  return result;
}

export function bodyForm(body: BodyView): TryItBodyForm {
  const variants = body.variants ? formVariants(body.variants) : undefined;
  return {fields: body.fields.map(formField), ...(variants ? {variants} : {})};
}

/** What the Try it panel needs of every operation (not webhooks), from the contract and the engine spec. */
export function tryItData(document: OpenApiDocument, spec: EngineSpec, siteDir?: string): TryItData {
  const machines: Record<string, TryItMachine> = {};
  const operations: TryItOperation[] = [];
  // Each operation's page, so a link can open Try it there (the console's objects, prefillFromUrl).
  const pages = new Map(siteDir === undefined ? [] : scanApiPages(siteDir).map((page) => [page.operationId, page.url]));
  for (const location of listOperations(document)) {
    if (location.kind !== 'operation') continue;
    const engineOperation = spec.operations.find((candidate) => candidate.operationId === location.operationId);
    if (!engineOperation) throw new Error(`sandbox-engine: the engine has no operation ${location.operationId}.`);
    const view = buildOperationView(document, location, (markdown) => markdown);
    for (const machine of view.stateMachines) {
      // The diagram the operation page shows, drawn at build time; the panel marks the current state on it.
      const source = stateDiagram(machine);
      const diagram = {light: diagramFileName(source, 'light'), dark: diagramFileName(source, 'dark')};
      const drawn =
        siteDir !== undefined &&
        existsSync(path.join(siteDir, diagramDirectory, diagram.light)) &&
        existsSync(path.join(siteDir, diagramDirectory, diagram.dark));
      machines[machine.schemaName] = {
        initial: machine.initial,
        states: machine.states,
        transitions: machine.transitions,
        ...(drawn ? {diagram} : {}),
      };
    }
    const responses = location.operation.responses ?? {};
    const success = Object.keys(responses).find(
      (status) => /^2\d\d$/.test(status) && (responses[status] as {content?: Record<string, unknown>}).content?.['application/json'],
    );
    const base = `/paths/${token(location.key)}/${location.method}/responses`;
    const fields = [...view.pathParameters, ...view.queryParameters];
    const declared = (location.operation.parameters ?? []).map((parameter) => deref(document, parameter));
    const page = pages.get(location.operationId);
    operations.push({
      operationId: location.operationId,
      ...(page === undefined ? {} : {page}),
      summary: view.summary,
      method: view.method,
      path: view.path,
      parameters: engineOperation.parameters.map((parameter) => {
        const field = fields.find((candidate) => candidate.name === parameter.name);
        const contractParameter = declared.find((candidate) => candidate.name === parameter.name);
        let example = contractParameter?.example;
        for (let schema = contractParameter?.schema, depth = 0; example === undefined && schema && depth < 10; depth += 1) {
          example = schema.examples?.[0];
          schema = schema.$ref ? deref(document, schema) : undefined;
        }
        return {
          name: parameter.name,
          in: parameter.in,
          required: parameter.required,
          description: field?.descriptionHtml?.replace(/<[^>]+>/g, '') ?? '',
          type: field?.type ?? parameter.type,
          ...(field?.enumValues ? {enum: field.enumValues} : {}),
          ...(example === undefined ? {} : {example: typeof example === 'string' ? example : JSON.stringify(example)}),
          schemaPointer: parameter.schemaPointer,
        };
      }),
      examples: view.requestExamples.map((example) => ({name: example.name, summary: example.summary, value: example.value})),
      ...(engineOperation.bodySchemaPointer ? {bodyPointer: engineOperation.bodySchemaPointer} : {}),
      ...(view.requestBody ? {bodyForm: bodyForm(view.requestBody)} : {}),
      ...(success ? {successPointer: `${base}/${success}/content/application~1json/schema`} : {}),
      errorPointer: '/components/responses/Error/content/application~1json/schema',
      machines: view.stateMachines.map((machine) => machine.schemaName),
    });
  }
  const cards = spec.sandbox.cards.cards;
  const pays = cards.find((card) => card.behavior === 'ENDINGS')?.number;
  const declined = cards.find((card) => typeof card.behavior === 'object' && card.behavior.kind === 'DECLINED')?.number;
  if (!pays || !declined)
    throw new Error('sandbox-engine: the sandbox data needs a card that pays by the amount endings and a declined one, for Try it.');
  return {
    basePath: spec.basePath,
    cards: {pays, declined},
    statementReadyAfterUtc: spec.sandbox.statements.readyAfterUtc,
    operations,
    machines,
  };
}

/** The first notifyUrl in the contract's request examples: where the simulator starts when the test merchant has no default URL. */
function exampleNotifyUrl(document: OpenApiDocument): string | undefined {
  const find = (value: unknown, depth: number): string | undefined => {
    if (depth > 6 || value === null || typeof value !== 'object') return undefined;
    const url = (value as Record<string, unknown>)['notifyUrl'];
    if (typeof url === 'string') return url;
    for (const item of Object.values(value)) {
      const found = find(item, depth + 1);
      if (found) return found;
    }
    return undefined;
  };
  for (const location of listOperations(document)) {
    if (location.kind !== 'operation') continue;
    for (const example of Object.values(location.operation.requestBody?.content?.['application/json']?.examples ?? {})) {
      const found = find(example.value, 0);
      if (found) return found;
    }
  }
  return undefined;
}

/** What the notification simulator needs: the webhooks and their scenarios, the test merchant, where to deliver. */
export function notificationSimulatorData(document: OpenApiDocument, spec: EngineSpec): NotificationSimulatorData {
  const merchant = spec.sandbox.merchant;
  const notifyUrl = merchant.defaultNotifyUrl ?? exampleNotifyUrl(document);
  if (!notifyUrl)
    throw new Error(
      'sandbox-engine: the test merchant has no defaultNotifyUrl and no request example has a notifyUrl: the simulator has no URL to start from.',
    );
  return {
    clientId: merchant.clientId,
    notifyUrl,
    notifyUrlIsDefault: merchant.defaultNotifyUrl !== null,
    timestampWindowSeconds: spec.signing.timestampWindowSeconds,
    webhooks: spec.webhooks,
  };
}

/** The schema pointers of the responses Try it validates. */
export function responsePointers(data: TryItData): string[] {
  return [
    ...new Set(
      data.operations.flatMap((operation) =>
        [operation.successPointer, operation.errorPointer].filter((pointer): pointer is string => pointer !== undefined),
      ),
    ),
  ];
}

export default function sandboxEnginePlugin(context: LoadContext): Plugin {
  const outDir = path.join(context.generatedFilesDir, 'sandbox-engine');
  const contractPath = path.join(context.siteDir, contractRelativePath);
  const sandboxPath = path.join(context.siteDir, sandboxRelativePath);
  return {
    name: 'sandbox-engine',
    getPathsToWatch: () => [contractPath, sandboxPath],
    async loadContent() {
      const contract = loadContract(contractPath);
      const spec = buildEngineSpec(contract.document, loadSandboxData(sandboxPath, contract), contract.statementColumns);
      const keys = path.join(context.siteDir, 'api');
      const data: BrowserSandboxData = {
        spec,
        providerPrivateKeyPem: await readFile(path.join(keys, 'test-vectors', 'provider-test-private.pem'), 'utf8'),
        merchantPublicKeyPem: await readFile(path.join(keys, spec.sandbox.merchant.merchantKey.publicKey), 'utf8'),
        merchantPrivateKeyPem: await readFile(path.join(keys, spec.sandbox.merchant.merchantKey.privateKey), 'utf8'),
      };
      await mkdir(outDir, {recursive: true});
      await writeFile(path.join(outDir, 'spec.json'), JSON.stringify(data));
      const tryIt = tryItData(contract.document, spec, context.siteDir);
      await writeFile(path.join(outDir, 'tryit.json'), JSON.stringify(tryIt));
      await writeFile(path.join(outDir, 'notifications.json'), JSON.stringify(notificationSimulatorData(contract.document, spec)));
      await writeFile(
        path.join(outDir, 'validators.js'),
        standaloneValidators(contract.document as object, validatedPointers(spec, responsePointers(tryIt))),
      );
    },
  };
}
