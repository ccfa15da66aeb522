/**
 * Finds the API pages: MDX files under docs/ that render an operation with
 * `<ApiOperation operationId="..." />`. Checks that every operation and
 * webhook of the contract has exactly one page and that no page names an
 * operation the contract lacks.
 */
import {contentSections, type ContentSection} from '../../contentSections';
import {docUrl} from './docRoutes';
import {readContentFiles} from './contentFiles';
import {ContractError, type LoadedContract} from './loadContract';

export interface ApiPage {
  readonly operationId: string;
  /** File path relative to the site directory. */
  readonly file: string;
  /** URL path of the page. */
  readonly url: string;
}

const usagePattern = /<ApiOperation\s+operationId="([^"]*)"\s*\/>/g;

/** The API pages of a docs section (the docs folder by default). */
export function scanApiPages(siteDir: string, section: ContentSection = contentSections.docs): ApiPage[] {
  return readContentFiles(siteDir, [section]).flatMap(({relativePath, file, text}) =>
    [...text.matchAll(usagePattern)].map((match) => ({
      operationId: match[1] ?? '',
      file,
      url: docUrl(section.routeBasePath, {relativePath, text}),
    })),
  );
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
    throw new ContractError(
      `${contract.file}: these operations have no page with <ApiOperation operationId="..." />: ${missing.join(', ')}.`,
    );
  }
  return byOperation;
}
