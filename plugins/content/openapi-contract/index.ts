/**
 * Local plugin for the API contract. At load time it validates the contract
 * (references, response codes, state machines, every example against its
 * schema) and checks that every operation and webhook has exactly one API
 * page; any problem stops the build with a message naming file and field.
 * It writes the integration guide's quick-start script (a generated module the
 * QuickStart component imports). After the build it publishes the contract as
 * /openapi.yaml and /openapi.json, a Postman collection generated from it, and
 * the signing test vector with its throw-away keys under /test-vectors/.
 *
 * The API changelog (api/changelog.yaml, changelog.ts in this folder) is checked
 * against the contract at load time, handed to the changelog page as a generated
 * module, and published after the build as the Atom feed /api-changelog.xml,
 * which every page names in a <link rel="alternate"> for feed readers.
 *
 * API pages get their data from remarkApiReference (same folder), which
 * inlines each page's operation at MDX compile time.
 */
import {existsSync} from 'node:fs';
import {copyFile, mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import {quickStartSample, renderSamples, sampleInputFor, type RenderedSample} from '../../../src/lib/samples';
import type {ChangelogView} from '../../../src/contract/changelogModel';
import {checkApiPages, scanApiPages, type ApiPage} from '../../../src/contract/node/apiPages';
import {
  buildChangelogView,
  changelogFeedFile,
  changelogRelativePath,
  loadChangelog,
  writeChangelogFeed,
  writeChangelogModule,
} from '../../../src/contract/node/changelog';
import {contractRelativePath, loadContract} from '../../../src/contract/node/loadContract';
import {buildPostmanCollection} from '../../../src/contract/node/postman';
import {loadSandboxData, sandboxRelativePath, sandboxSchemaRelativePath} from '../../../src/contract/node/sandboxData';
import {checkPublishedLinks, contentFileLinks, contractFileLinks} from '../../../src/contract/node/publishedLinks';
import {sampleModuleFile} from './sampleModules';

/** Files published next to the site, linked from the footer and the integration guide. */
export const publishedFiles = {
  yaml: 'openapi.yaml',
  json: 'openapi.json',
  postman: 'veloxa-pay.postman_collection.json',
  /** The sandbox's rules as data (api/sandbox.yaml), for tools that simulate it. */
  sandbox: 'sandbox.yaml',
} as const;

/**
 * The signing test vector and the throw-away keys it was made with, published under
 * /test-vectors/ so that a reader with only the portal can reproduce it. The contract's
 * x-signature.testVector (test-vectors/signing.json) resolves against /openapi.yaml to the
 * same place.
 */
export const testVectorFiles = [
  'signing.json',
  'merchant-test-private.pem',
  'merchant-test-public.pem',
  'provider-test-private.pem',
  'provider-test-public.pem',
] as const;
export const testVectorDir = 'test-vectors';

/**
 * The quick-start snippet's module, under the site's generated files, which the bundler serves
 * as `@generated/openapi-contract/quick-start.json` (declared in src/components/api/QuickStart/).
 */
export const quickStartModule = path.join('openapi-contract', 'quick-start.json');

export interface ContractContent {
  readonly operationCount: number;
  readonly pages: readonly ApiPage[];
  /** The home page's first call, generated from the curl sample template. */
  readonly quickStart: RenderedSample;
  /** api/changelog.yaml, checked, as the changelog page and feed show it. */
  readonly changelog: ChangelogView;
  /** Every operation's code samples, by operation ID; all but the first language's are written as a module (sampleModules.ts). */
  readonly samples: ReadonlyMap<string, readonly RenderedSample[]>;
}

export default function openapiContractPlugin(context: LoadContext): Plugin {
  const contractPath = path.join(context.siteDir, contractRelativePath);
  const changelogPath = path.join(context.siteDir, changelogRelativePath);
  const sandboxPath = path.join(context.siteDir, sandboxRelativePath);
  return {
    name: 'openapi-contract',
    getPathsToWatch() {
      return [
        contractPath,
        path.join(path.dirname(contractPath), 'statement-columns.yaml'),
        changelogPath,
        sandboxPath,
        path.join(context.siteDir, sandboxSchemaRelativePath),
      ];
    },
    async loadContent(): Promise<ContractContent> {
      const contract = loadContract(contractPath);
      const pages = scanApiPages(context.siteDir);
      const pagesByOperation = checkApiPages(contract, pages);
      loadSandboxData(sandboxPath, contract); // a bad data file stops the build even where no page quotes it
      const changelog = buildChangelogView(loadChangelog(changelogPath, contract), contract, pagesByOperation);
      const samples = new Map(
        [...contract.operations.values()].map((location) => [
          location.operationId,
          renderSamples(sampleInputFor(contract.document, location)),
        ]),
      );
      return {operationCount: contract.operations.size, pages, quickStart: quickStartSample(contract.document), changelog, samples};
    },
    async contentLoaded({content}) {
      // What loadContent returned (the config's plugin list types every plugin's content as unknown).
      const {quickStart, changelog, samples} = content as ContractContent;
      const file = path.join(context.generatedFilesDir, quickStartModule);
      await mkdir(path.dirname(file), {recursive: true});
      await writeFile(file, JSON.stringify(quickStart));
      await writeChangelogModule(context.generatedFilesDir, changelog);
      await mkdir(path.join(context.generatedFilesDir, path.dirname(sampleModuleFile(''))), {recursive: true});
      for (const [operationId, [, ...others]] of samples) {
        const code = Object.fromEntries(others.map((sample) => [sample.language, sample.code]));
        await writeFile(path.join(context.generatedFilesDir, sampleModuleFile(operationId)), JSON.stringify(code));
      }
    },
    injectHtmlTags() {
      return {
        headTags: [
          {
            tagName: 'link',
            attributes: {
              rel: 'alternate',
              type: 'application/atom+xml',
              title: `${context.siteConfig.title} API changelog`,
              href: `${context.baseUrl}${changelogFeedFile}`,
            },
          },
        ],
      };
    },
    async postBuild({outDir, content, routesPaths}) {
      // The feed's links are absolute: the site's URL with its base path, without a trailing slash.
      const siteUrl = `${context.siteConfig.url.replace(/\/$/, '')}${context.baseUrl.replace(/\/$/, '')}`;
      await writeChangelogFeed(outDir, (content as ContractContent).changelog, {url: siteUrl, name: context.siteConfig.title}, routesPaths);
      const contract = loadContract(contractPath);
      await copyFile(contractPath, path.join(outDir, publishedFiles.yaml));
      await copyFile(sandboxPath, path.join(outDir, publishedFiles.sandbox));
      await writeFile(path.join(outDir, publishedFiles.json), `${JSON.stringify(contract.document, null, 2)}\n`);
      await writeFile(path.join(outDir, publishedFiles.postman), `${JSON.stringify(buildPostmanCollection(contract.document), null, 2)}\n`);
      const vectorSource = path.join(path.dirname(contractPath), testVectorDir);
      const missing = testVectorFiles.filter((file) => !existsSync(path.join(vectorSource, file)));
      if (missing.length > 0) {
        throw new Error(
          `openapi-contract: ${missing.join(', ')} missing from ${path.relative(context.siteDir, vectorSource)}; the guide links them and x-signature.testVector points there.`,
        );
      }
      await mkdir(path.join(outDir, testVectorDir), {recursive: true});
      for (const file of testVectorFiles) await copyFile(path.join(vectorSource, file), path.join(outDir, testVectorDir, file));
      // Last, once every file this plugin publishes is written: no link to a published file may be dead.
      await checkPublishedLinks(outDir, context.baseUrl, [
        ...contentFileLinks(context.siteDir),
        ...contractFileLinks(contract, publishedFiles.yaml),
      ]);
    },
  };
}
