/**
 * Local plugin that writes, after the build, a Markdown twin of every content page the build
 * produced (the routes `postBuild` receives, less the search page, the 404 page, blog list
 * pagination and test-only pages) next to its HTML: `/docs/createorder` ->
 * `<outDir>/docs/createorder.md`, `/` -> `<outDir>/index.md`. Also
 * `/markdown-twins.json`, the index the MCP server's docs tools read, and the files for language
 * models: `/llms.txt` (the index), `/llms-full.txt` (every page but the API reference),
 * `/llms-api.txt` (the API reference, samples in curl only, repeated tables given once) and
 * `/llms-samples-<language>.txt` (the other languages' samples), each under 1 MB so that an
 * assistant can hold it (tooling/markdownTwinsCheck.ts checks the size). Twins are converted from the built HTML (src/lib/markdownTwins), so they say what
 * the page says; an API page's reference part comes from the contract instead, because the
 * page shows one example and one sample language at a time.
 */
import {readFileSync} from 'node:fs';
import {mkdir, writeFile} from 'node:fs/promises';
import path from 'node:path';
import type {LoadedContent as DocsContent, LoadedVersion} from '@docusaurus/plugin-content-docs';
import type {LoadContext, LoadedPlugin, Plugin} from '@docusaurus/types';
import {brand} from '../../../src/brand';
import {buildOperationView, type OperationView} from '../../../src/contract/apiModel';
import {renderSamples, sampleInputFor, type RenderedSample} from '../../../src/lib/samples';
import {apiReferenceMarkdown, endpointOf, fenced} from '../../../src/lib/markdownTwins/apiReference';
import {twinPath, type LinkContext} from '../../../src/lib/markdownTwins/htmlToMarkdown';
import {
  buildTwin,
  llmsFullTxt,
  llmsSamplesTxt,
  llmsTxt,
  pageUrl,
  type LlmsFile,
  type SampleOfPage,
  type TwinEntry,
} from '../../../src/lib/markdownTwins/twins';
import {sampleLanguages, type SampleLanguage} from '../../../src/lib/samples/types';
import {scanApiPages} from '../../../src/contract/node/apiPages';
import {contractRelativePath, loadContract} from '../../../src/contract/node/loadContract';
import {renderMarkdown} from '../openapi-contract/markdown';
import {stateDiagram} from '../openapi-contract/remarkApiReference';

/**
 * Pages whose interactive part renders nothing on the server (a lazily loaded widget), so the
 * twin says in one line what the web page offers there.
 */
export const interactivePages: Readonly<Record<string, string>> = {
  '/docs/signature-debugger':
    'the signature debugger builds the canonical string of a pasted request, response or notification, verifies its signature and names the likely cause of a mismatch; it also generates a key pair. Everything runs in the browser.',
  '/docs/sandbox-console':
    "the sandbox console lists the in-browser sandbox's orders, refunds, payouts, balances, ledger, notification inbox and clock, and resets, exports and imports its state.",
  '/blog/mdx-blog-post': 'a converter between decimal amounts and integer minor units per currency.',
};

/** Routes the build serves that are not content: no twin. */
const routesWithoutTwin: readonly RegExp[] = [/^\/404(\.html)?$/, /^\/search$/, /^\/tests(\/|$)/, /\/page\/\d+$/];

/** A page's section, by the first segment of its path: "docs", "demos", "blog", or "general" for the rest. */
export function sectionOf(pagePath: string): string {
  const first = pagePath.split('/')[1] ?? '';
  return ['docs', 'demos', 'blog'].includes(first) ? first : 'general';
}

type SidebarItems = LoadedVersion['sidebars'][string];

/** The permalinks of the docs plugins' pages in sidebar order: the order a reader meets them. */
export function sidebarOrder(plugins: readonly LoadedPlugin[]): string[] {
  const order: string[] = [];
  for (const plugin of plugins) {
    if (plugin.name !== 'docusaurus-plugin-content-docs' || !plugin.content) continue;
    for (const version of (plugin.content as DocsContent).loadedVersions) {
      const permalinks = new Map(version.docs.map((doc) => [doc.id, doc.permalink]));
      const visit = (items: SidebarItems): void => {
        for (const item of items) {
          if (item.type === 'doc' || item.type === 'ref') order.push(permalinks.get(item.id) ?? '');
          if (item.type === 'category') {
            if (item.link?.type === 'doc') order.push(permalinks.get(item.link.id) ?? '');
            visit(item.items);
          }
        }
      };
      for (const sidebar of Object.values(version.sidebars)) visit(sidebar);
    }
  }
  return order.filter(Boolean);
}

/**
 * Every page with a twin, with its section, from the build's own routes, one entry per path: the
 * home page first, then the pages of `order` (the sidebars) in that order, then the rest as the
 * build lists them.
 */
export function twinPages(routesPaths: readonly string[], order: readonly string[] = []): Array<{path: string; section: string}> {
  const normalised = routesPaths.map((route) => (route.length > 1 ? route.replace(/\/$/, '') : route));
  const pages = new Set(normalised.filter((route) => !routesWithoutTwin.some((pattern) => pattern.test(route))));
  const ordered = [...new Set(['/', ...order])].filter((route) => pages.has(route));
  return [...new Set([...ordered, ...pages])].map((pagePath) => ({path: pagePath, section: sectionOf(pagePath)}));
}

/** The built HTML file of a page. */
export function htmlFileOf(outDir: string, pagePath: string): string {
  return pagePath === '/' ? path.join(outDir, 'index.html') : path.join(outDir, pagePath, 'index.html');
}

export interface ApiPageReference {
  readonly operation: OperationView;
  readonly samples: RenderedSample[];
}

/** Each API page's operation view and code samples, keyed by page URL. */
export function apiPageReferences(siteDir: string): Map<string, ApiPageReference> {
  const contract = loadContract(path.join(siteDir, contractRelativePath));
  const references = new Map<string, ApiPageReference>();
  for (const page of scanApiPages(siteDir)) {
    const location = contract.operations.get(page.operationId);
    if (!location) continue;
    references.set(page.url, {
      operation: buildOperationView(contract.document, location, renderMarkdown),
      samples: renderSamples(sampleInputFor(contract.document, location)),
    });
  }
  return references;
}

export interface TwinsOutput {
  readonly entries: TwinEntry[];
  readonly twins: Map<string, string>;
}

/** The sample languages /llms-api.txt carries; the others get a file of their own. */
export const bundledSampleLanguages: readonly SampleLanguage[] = ['curl'];

/** The file of one sample language, e.g. "/llms-samples-python.txt". */
export const samplesFilePath = (language: SampleLanguage): string => `/llms-samples-${language}.txt`;

/** The bundle files /llms.txt lists, with what each holds. */
export function llmsFiles(labels: ReadonlyMap<SampleLanguage, string>): LlmsFile[] {
  return [
    {
      path: '/llms-full.txt',
      title: 'Guides',
      holds:
        'every page except the API reference in one file: integration guide, payment scenes, signing, sandbox, response codes, demos and blog.',
    },
    {
      path: '/llms-api.txt',
      title: 'API reference',
      holds: `every operation and notification in one file: endpoint, fields, examples, states, result codes and the ${bundledSampleLanguages.map((language) => labels.get(language) ?? language).join(', ')} sample. A table already shown is not repeated; the codes every call shares are in Response codes.`,
    },
    ...sampleLanguages
      .filter((language) => !bundledSampleLanguages.includes(language))
      .map((language) => ({
        path: samplesFilePath(language),
        title: `Code samples: ${labels.get(language) ?? language}`,
        holds: `the ${labels.get(language) ?? language} code sample of every operation and notification.`,
      })),
  ];
}

/** Builds every twin from the HTML in outDir and writes them with the llms files and the index. */
export async function writeMarkdownTwins(
  siteDir: string,
  outDir: string,
  siteUrl: string,
  pages: ReadonlyArray<{path: string; section: string}>,
): Promise<TwinsOutput> {
  const known = new Set(pages.map((page) => page.path));
  const references = apiPageReferences(siteDir);
  const entries: TwinEntry[] = [];
  const twins = new Map<string, string>();
  // /llms-api.txt's version of each API twin, and each language's samples.
  const bundledTwins = new Map<string, string>();
  const shown = new Map<string, string>();
  const samplesByLanguage = new Map<SampleLanguage, SampleOfPage[]>();
  const labels = new Map<SampleLanguage, string>();
  for (const page of pages) {
    const context: LinkContext = {siteUrl, pagePath: page.path, isTwinPage: (pathname) => known.has(pathname)};
    const reference = references.get(page.path);
    const html = readFileSync(htmlFileOf(outDir, page.path), 'utf8');
    const twinOf = (apiReference?: string) =>
      buildTwin({
        html,
        path: page.path,
        section: page.section,
        siteTitle: brand.name,
        context,
        interactive: interactivePages[page.path],
        apiReference,
      });
    const referenceInput = reference && {...reference, pageUrl: pageUrl(siteUrl, page.path), context, stateDiagram};
    const {entry, markdown} = twinOf(referenceInput && apiReferenceMarkdown(referenceInput));
    const file = path.join(outDir, twinPath(page.path));
    await mkdir(path.dirname(file), {recursive: true});
    await writeFile(file, markdown);
    entries.push(entry);
    twins.set(entry.markdown, markdown);
    if (!reference || !referenceInput) continue;
    const compact = {
      languages: bundledSampleLanguages,
      shown,
      title: entry.title,
      samplesFile: (language: SampleLanguage) => `${siteUrl}${samplesFilePath(language)}`,
      commonCodesUrl: `${siteUrl}${twinPath('/docs/response-code')}`,
    };
    bundledTwins.set(entry.markdown, twinOf(apiReferenceMarkdown({...referenceInput, compact})).markdown);
    for (const sample of reference.samples) {
      labels.set(sample.language, sample.label);
      const list = samplesByLanguage.get(sample.language) ?? [];
      list.push({
        title: entry.title,
        twinUrl: `${siteUrl}${entry.markdown}`,
        endpoint: endpointOf(reference.operation),
        fenced: fenced(sample.code, sample.highlight, `title=${JSON.stringify(sample.fileName)}`),
      });
      samplesByLanguage.set(sample.language, list);
    }
  }
  const summary = `${brand.tagline} Developer documentation of the ${brand.name} payments API: guides, API reference, code samples and demos.`;
  const llms = {siteTitle: brand.name, summary, siteUrl, entries};
  const files = llmsFiles(labels);
  const otherFiles = (own: string) =>
    `This file holds ${files.find((candidate) => candidate.path === own)?.holds ?? ''} The rest: ${files
      .filter((candidate) => candidate.path !== own)
      .map((candidate) => `${siteUrl}${candidate.path} (${candidate.title})`)
      .join(', ')}; the index of every page is ${siteUrl}/llms.txt.`;
  await writeFile(path.join(outDir, 'llms.txt'), llmsTxt(llms, files));
  const guides = entries.filter((entry) => !bundledTwins.has(entry.markdown));
  await writeFile(path.join(outDir, 'llms-full.txt'), llmsFullTxt({...llms, entries: guides}, twins, otherFiles('/llms-full.txt')));
  const reference = entries.filter((entry) => bundledTwins.has(entry.markdown));
  await writeFile(path.join(outDir, 'llms-api.txt'), llmsFullTxt({...llms, entries: reference}, bundledTwins, otherFiles('/llms-api.txt')));
  for (const [language, samples] of samplesByLanguage) {
    if (bundledSampleLanguages.includes(language)) continue;
    await writeFile(
      path.join(outDir, samplesFilePath(language).slice(1)),
      llmsSamplesTxt(brand.name, labels.get(language) ?? language, samples),
    );
  }
  await writeFile(path.join(outDir, 'markdown-twins.json'), `${JSON.stringify(entries, null, 2)}\n`);
  return {entries, twins};
}

export default function markdownTwinsPlugin(context: LoadContext): Plugin {
  return {
    name: 'markdown-twins',
    async postBuild({outDir, siteConfig, routesPaths, plugins}) {
      const siteUrl = `${siteConfig.url.replace(/\/$/, '')}${siteConfig.baseUrl.replace(/\/$/, '')}`;
      const pages = twinPages(routesPaths, sidebarOrder(plugins));
      const {entries} = await writeMarkdownTwins(context.siteDir, outDir, siteUrl, pages);
      console.log(`[markdown-twins] ${entries.length} twins, llms.txt and the files it lists in ${path.relative(context.siteDir, outDir)}`);
    },
  };
}
