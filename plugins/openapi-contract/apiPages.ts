/**
 * Finds the API pages: MDX files under docs/ that render an operation with
 * `<ApiOperation operationId="..." />`. Checks that every operation and
 * webhook of the contract has exactly one page and that no page names an
 * operation the contract lacks.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {docUrl} from '../../src/lib/docRoutes';
import {ContractError, type LoadedContract} from './loadContract';

export interface ApiPage {
  readonly operationId: string;
  /** File path relative to the site directory. */
  readonly file: string;
  /** URL path of the page. */
  readonly url: string;
}

const usagePattern = /<ApiOperation\s+operationId="([^"]*)"\s*\/>/g;

export function scanApiPages(siteDir: string, docsFolder = 'docs', routeBasePath = 'docs'): ApiPage[] {
  const root = path.join(siteDir, docsFolder);
  const pages: ApiPage[] = [];
  for (const relative of readdirSync(root, {recursive: true, encoding: 'utf8'})) {
    if (!/\.mdx?$/.test(relative)) continue;
    const text = readFileSync(path.join(root, relative), 'utf8');
    const relativePath = relative.split(path.sep).join('/');
    for (const match of text.matchAll(usagePattern)) {
      pages.push({
        operationId: match[1] ?? '',
        file: `${docsFolder}/${relativePath}`,
        url: docUrl(routeBasePath, {relativePath, text}),
      });
    }
  }
  return pages.sort((a, b) => a.file.localeCompare(b.file));
}

/** Throws a ContractError naming the file or operation when pages and contract disagree. */
export function checkApiPages(contract: LoadedContract, pages: readonly ApiPage[]): Map<string, ApiPage> {
  const byOperation = new Map<string, ApiPage>();
  for (const page of pages) {
    if (!contract.operations.has(page.operationId)) {
      throw new ContractError(
        `${page.file}: <ApiOperation operationId="${page.operationId}" /> names no operation or webhook of ${contract.file}.`,
      );
    }
    const earlier = byOperation.get(page.operationId);
    if (earlier) {
      throw new ContractError(`${page.file}: operation "${page.operationId}" already has a page, ${earlier.file}; one page per operation.`);
    }
    byOperation.set(page.operationId, page);
  }
  const missing = [...contract.operations.keys()].filter((id) => !byOperation.has(id));
  if (missing.length > 0) {
    throw new ContractError(`${contract.file}: these operations have no page with <ApiOperation operationId="..." />: ${missing.join(', ')}.`);
  }
  return byOperation;
}
