/**
 * Links to published files (not pages) must resolve in the built site. Docusaurus checks links
 * between pages, but a `pathname:///file` link in Markdown and the contract's own pointer to the
 * test vectors escape its checker, so a renamed or unpublished file would ship as a dead link.
 * This runs after the openapi-contract plugin has written its files, and fails the build naming
 * each dead link and where it is.
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {readContentFiles} from '../../../tooling/contentFiles';
import {ContractError, type LoadedContract} from './loadContract';

export interface PublishedLink {
  /** Where the link is written: a content file, or the contract and its field. */
  readonly from: string;
  /** The site path it points at, such as /test-vectors/signing.json. */
  readonly target: string;
}

const pathnameLink = /pathname:\/\/(\/[^)\s"'`<>]+)/g;

/** Every `pathname:///...` link of the docs, demos and blog sources. */
export function contentFileLinks(siteDir: string): PublishedLink[] {
  return readContentFiles(siteDir).flatMap(({file, text}) =>
    [...text.matchAll(pathnameLink)].map((match) => ({from: file, target: (match[1] ?? '').split(/[?#]/)[0] ?? ''})),
  );
}

/** The contract's links to published files, resolved against /openapi.yaml where the contract is served. */
export function contractFileLinks(contract: LoadedContract, publishedAs: string): PublishedLink[] {
  const signing = (contract.document as {'x-signature'?: {testVector?: unknown}})['x-signature'];
  const vector = signing?.testVector;
  if (typeof vector !== 'string') return [];
  return [{from: `${contract.file} x-signature.testVector`, target: new URL(vector, `https://site.invalid/${publishedAs}`).pathname}];
}

/** Throws a ContractError listing every link whose file is not in the build output. */
export function checkPublishedLinks(outDir: string, baseUrl: string, links: readonly PublishedLink[]): void {
  const base = baseUrl.replace(/\/$/, '');
  const dead = links.filter(({target}) => {
    const relative = target.startsWith(`${base}/`) ? target.slice(base.length) : target;
    return !existsSync(path.join(outDir, decodeURIComponent(relative)));
  });
  if (dead.length > 0) {
    throw new ContractError(`Links to files that the build does not publish:\n${dead.map(({from, target}) => `  ${from}: ${target}`).join('\n')}`);
  }
}
