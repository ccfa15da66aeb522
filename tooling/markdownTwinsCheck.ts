/**
 * Checks the Markdown twins of a build (plugins/content/markdown-twins) against the built pages:
 * every page of the route contract and src/extraRoutes.ts has its twin; each twin holds the page's
 * title and every code block of the page; an API page's twin names every field of its operation
 * and has all six sample languages; every link in a twin leads to a twin, page or file of the
 * build; llms.txt links every twin exactly once and every llms-*.txt file; no llms file is over 1 MB,
 * so that an assistant can hold it. Run by scripts/checkHtml.ts (npm run check:html).
 */
import {existsSync, readdirSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import type {Nodes} from 'mdast';
import {fromMarkdown} from 'mdast-util-from-markdown';
import {apiPageReferences, htmlFileOf} from '../plugins/content/markdown-twins';
import {brand} from '../src/brand';
import {operationFieldPaths} from '../src/lib/markdownTwins/apiReference';
import {pageCodeBlocks, parsePage, twinPath} from '../src/lib/markdownTwins/htmlToMarkdown';
import type {TwinEntry} from '../src/lib/markdownTwins/twins';
import {allPages, type RouteContract} from '../tooling/routeContract';

export interface TwinProblem {
  readonly page: string;
  readonly message: string;
}

/** Code as compared: no trailing spaces on a line, no blank lines around it. */
const normalise = (value: string): string =>
  value
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .trim();

function collect(tree: Nodes, found: {code: Array<{lang: string; value: string}>; urls: string[]}): void {
  if (tree.type === 'code') found.code.push({lang: tree.lang ?? '', value: normalise(tree.value)});
  if (tree.type === 'link' || tree.type === 'image' || tree.type === 'definition') found.urls.push(tree.url);
  if ('children' in tree) for (const child of tree.children) collect(child, found);
}

/** Whether a URL path of the site names something the build serves: a twin, a page or a file. */
export function servedByBuild(buildDir: string, pathname: string): boolean {
  const local = path.join(buildDir, decodeURIComponent(pathname));
  if (!local.startsWith(buildDir)) return false;
  const isFile = (file: string) => existsSync(file) && statSync(file).isFile();
  return isFile(local) || isFile(path.join(local, 'index.html')) || isFile(`${local.replace(/\/$/, '')}.html`);
}

/** The problems of one twin's links: internal ones must be absolute on the site and lead somewhere. */
export function linkProblems(urls: readonly string[], siteUrl: string, exists: (pathname: string) => boolean): string[] {
  const site = new URL(`${siteUrl}/`);
  return urls.flatMap((url) => {
    if (url.startsWith('#')) return [];
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return [`link "${url}" is relative; twins link to absolute URLs of the site`];
    }
    if (parsed.origin !== site.origin) return [];
    return exists(parsed.pathname) ? [] : [`link "${url}" leads to nothing in the build`];
  });
}

/** The most an llms file may hold: about a quarter of a large context window, and under what common assistants accept as one attachment. */
export const maxLlmsFileBytes = 1_000_000;

/** The llms files over maxLlmsFileBytes, each named with its size. */
export function llmsSizeProblems(files: ReadonlyArray<{name: string; bytes: number}>, limit = maxLlmsFileBytes): TwinProblem[] {
  return files
    .filter((file) => file.bytes > limit)
    .map((file) => ({
      page: `/${file.name}`,
      message: `is ${file.bytes.toLocaleString('en-US')} bytes, over the ${limit.toLocaleString('en-US')}-byte limit for a file an assistant loads whole`,
    }));
}

export function checkMarkdownTwins(buildDir: string, siteDir: string, contract: RouteContract, siteUrl: string): TwinProblem[] {
  const problems: TwinProblem[] = [];
  // The twins come from the build's routes; every page the contract and src/extraRoutes.ts require must be among them.
  const pages = allPages(contract).map((pagePath) => ({path: pagePath}));
  const indexFile = path.join(buildDir, 'markdown-twins.json');
  const index = existsSync(indexFile) ? (JSON.parse(readFileSync(indexFile, 'utf8')) as TwinEntry[]) : [];
  if (index.length === 0) problems.push({page: '/markdown-twins.json', message: 'missing or empty'});
  const indexed = new Set(index.map((entry) => entry.path));
  const references = apiPageReferences(siteDir);

  for (const page of pages) {
    const add = (message: string) => problems.push({page: page.path, message});
    const twinFile = path.join(buildDir, twinPath(page.path));
    if (!existsSync(twinFile)) {
      add(`has no twin at ${twinPath(page.path)}`);
      continue;
    }
    if (!indexed.has(page.path)) add('is not listed in markdown-twins.json');
    const twin = readFileSync(twinFile, 'utf8');
    const parsed = parsePage(readFileSync(htmlFileOf(buildDir, page.path), 'utf8'), brand.name);
    if (!twin.startsWith(`# ${parsed.title}\n`)) add(`twin does not start with the page's title "# ${parsed.title}"`);
    const found = {code: [] as Array<{lang: string; value: string}>, urls: [] as string[]};
    collect(fromMarkdown(twin), found);
    const fences = new Set(found.code.map((block) => block.value));
    for (const block of pageCodeBlocks(parsed.content)) {
      if (!fences.has(normalise(block))) add(`twin lacks the page's code block starting "${block.split('\n')[0]?.slice(0, 60) ?? ''}"`);
    }
    const reference = references.get(page.path);
    if (reference) {
      for (const field of operationFieldPaths(reference.operation)) {
        if (!twin.includes(`\`${field}\``)) add(`API twin lacks the field ${field}`);
      }
      for (const sample of reference.samples) {
        if (!found.code.some((block) => block.lang === sample.highlight && block.value === normalise(sample.code)))
          add(`API twin lacks the ${sample.label} sample`);
      }
    }
    for (const message of linkProblems(found.urls, siteUrl, (pathname) => servedByBuild(buildDir, pathname))) add(message);
  }

  const llmsFile = path.join(buildDir, 'llms.txt');
  const llms = existsSync(llmsFile) ? readFileSync(llmsFile, 'utf8') : '';
  if (llms === '') problems.push({page: '/llms.txt', message: 'missing or empty'});
  const listed = [...llms.matchAll(/^- \[[^\]]*\]\(([^)]+)\)/gm)].map((match) => match[1] ?? '');
  const llmsFiles = existsSync(buildDir) ? readdirSync(buildDir).filter((name) => /^llms(-[a-z0-9-]+)?\.txt$/.test(name)) : [];
  for (const name of ['llms-full.txt', 'llms-api.txt'])
    if (!llmsFiles.includes(name)) problems.push({page: `/${name}`, message: 'missing'});
  problems.push(...llmsSizeProblems(llmsFiles.map((name) => ({name, bytes: statSync(path.join(buildDir, name)).size}))));
  for (const name of llmsFiles.filter((candidate) => candidate !== 'llms.txt')) {
    if (!listed.includes(`${siteUrl}/${name}`)) problems.push({page: '/llms.txt', message: `does not list /${name}`});
  }
  for (const page of pages) {
    const url = `${siteUrl}${twinPath(page.path)}`;
    const count = listed.filter((candidate) => candidate === url).length;
    if (count !== 1) problems.push({page: '/llms.txt', message: `links ${url} ${count} times, not once`});
  }
  return problems;
}
