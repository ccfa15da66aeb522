/**
 * Local plugin that prepares the in-browser sandbox at build time, so the browser never parses YAML
 * or compiles a schema:
 * - `@generated/sandbox-engine/spec.json`: the EngineSpec (src/sandbox/engine/spec.ts) built from the
 *   contract and the sandbox data, and the published test keys the engine signs and verifies with;
 * - `@generated/sandbox-engine/validators.js`: Ajv's standalone code for every parameter and request
 *   body schema the engine checks, keyed by JSON pointer. Compiled here, so the page's
 *   Content-Security-Policy needs no 'unsafe-eval' (Ajv otherwise compiles with `new Function`).
 * Both are imported only by src/sandbox/browser/host.ts, which a page loads on demand: they are
 * never part of a page's first load.
 */
import {mkdir, readFile, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import standaloneCode from 'ajv/dist/standalone';
import {buildEngineSpec, type BrowserSandboxData, type EngineSpec} from '../../../src/sandbox/engine/spec';
import {contractRelativePath, loadContract} from '../openapi-contract/loadContract';
import {loadSandboxData, sandboxRelativePath} from '../openapi-contract/sandboxData';

/** Every schema the engine validates a request against: parameters and bodies. */
export function validatedPointers(spec: EngineSpec): string[] {
  const pointers = new Set<string>();
  for (const operation of spec.operations) {
    for (const parameter of operation.parameters) pointers.add(parameter.schemaPointer);
    if (operation.bodySchemaPointer) pointers.add(operation.bodySchemaPointer);
  }
  return [...pointers].sort();
}

/** CommonJS module exporting `byPointer`: each pointer's compiled validation function. */
export function standaloneValidators(document: object, pointers: readonly string[]): string {
  // The same options as src/lib/contract/validator.ts, plus source code for the standalone module.
  const ajv = new Ajv2020({strict: false, allErrors: true, validateSchema: false, code: {source: true}});
  addFormats(ajv);
  ajv.addSchema(document, 'contract');
  const exports: Record<string, string> = {};
  pointers.forEach((pointer, index) => {
    if (!ajv.getSchema(`contract#${pointer}`)) throw new Error(`sandbox-engine: the contract has no schema at ${pointer}.`);
    exports[`v${index}`] = `contract#${pointer}`;
  });
  const table = pointers.map((pointer, index) => `${JSON.stringify(pointer)}: exports.v${index}`).join(',\n  ');
  return `${standaloneCode(ajv, exports)}\nexports.byPointer = {\n  ${table}\n};\n`;
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
      const spec = buildEngineSpec(contract.document, loadSandboxData(sandboxPath, contract));
      const keys = path.join(context.siteDir, 'api');
      const data: BrowserSandboxData = {
        spec,
        providerPrivateKeyPem: await readFile(path.join(keys, 'test-vectors', 'provider-test-private.pem'), 'utf8'),
        merchantPublicKeyPem: await readFile(path.join(keys, spec.sandbox.merchant.merchantKey.publicKey), 'utf8'),
        merchantPrivateKeyPem: await readFile(path.join(keys, spec.sandbox.merchant.merchantKey.privateKey), 'utf8'),
      };
      await mkdir(outDir, {recursive: true});
      await writeFile(path.join(outDir, 'spec.json'), JSON.stringify(data));
      await writeFile(path.join(outDir, 'validators.js'), standaloneValidators(contract.document as object, validatedPointers(spec)));
    },
  };
}
