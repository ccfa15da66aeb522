/**
 * Links to published files (not pages) must resolve in the built site. Docusaurus checks links
 * between pages, but a `pathname:///file` link in Markdown and the contract's own pointer to the
 * test vectors escape its checker, so a renamed or unpublished file would ship as a dead link.
 * This runs after the openapi-contract plugin has written its files, and fails the build naming
 * each dead link and where it is.
 */
import {existsSync} from 'node:fs';
import path from 'node:path';
import {readContentFiles} from './contentFiles';
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

/** A published file named in the contract's text, such as test-vectors/provider-test-public.pem. */
const contractFileMention = /(?<![\w/.-])(test-vectors\/[\w.-]+\.(?:json|pem))\b/g;

/**
 * The contract's links to published files, resolved against /openapi.yaml where the contract is served:
 * x-signature.testVector, and every test-vectors/ file any x-signature text names (the provider key).
 */
export function contractFileLinks(contract: LoadedContract, publishedAs: string): PublishedLink[] {
  const signing = (contract.document as {'x-signature'?: Record<string, unknown>})['x-signature'] ?? {};
  const resolve = (file: string) => new URL(file, `https://site.invalid/${publishedAs}`).pathname;
  const links: PublishedLink[] = [];
  for (const [field, value] of Object.entries(signing)) {
    if (typeof value !== 'string') continue;
    if (field === 'testVector') links.push({from: `${contract.file} x-signature.testVector`, target: resolve(value)});
    else
      for (const match of value.matchAll(contractFileMention))
        links.push({from: `${contract.file} x-signature.${field}`, target: resolve(match[1] ?? '')});
  }
  return links;
}

/**
 * Throws a ContractError listing every link whose file is not in the build output. Docusaurus runs the
 * plugins' postBuild hooks concurrently, and the blog writes its feeds in its own, so a file still missing
 * gets `graceMs` to appear before its link counts as dead.
 */
export async function checkPublishedLinks(
  outDir: string,
  baseUrl: string,
  links: readonly PublishedLink[],
  graceMs = 10_000,
): Promise<void> {
  const base = baseUrl.replace(/\/$/, '');
  const missing = () =>
    links.filter(({target}) => {
      const relative = target.startsWith(`${base}/`) ? target.slice(base.length) : target;
      return !existsSync(path.join(outDir, decodeURIComponent(relative)));
    });
  const deadline = Date.now() + graceMs;
  let dead = missing();
  while (dead.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    dead = missing();
  }
  if (dead.length > 0) {
    throw new ContractError(
      `Links to files that the build does not publish:\n${dead.map(({from, target}) => `  ${from}: ${target}`).join('\n')}`,
    );
  }
}
