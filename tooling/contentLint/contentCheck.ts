/**
 * Runs the content rules (tooling/contentLint/contentLint.ts) over every page source:
 * docs, demos, blog and standalone pages. Shared by the unit test and the
 * `npm run check:content` command (scripts/contentCheck.ts), which prints the problems.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import {contentSections} from '../../src/contentSections';
import {lintContent, type ContentProblem} from './contentLint';
import {docUrl} from '../../src/contract/node/docRoutes';
import {scanApiPages} from '../../src/contract/node/apiPages';
import {contractRelativePath, loadContract} from '../../src/contract/node/loadContract';
import {contractVocabulary} from './vocabulary';
import {jsonExampleChecker} from './jsonExamples';
import {readContentFiles} from '../../src/contract/node/contentFiles';

/** Pages that render reference data and carry prose around it rather than a guide. */
const referenceMarkers = /<(ApiOperation|ResponseCodeCatalogue|StatementColumns)\b/;

export function checkContent(siteDir: string): ContentProblem[] {
  const contract = loadContract(path.join(siteDir, contractRelativePath));
  const vocabulary = contractVocabulary(contract, scanApiPages(siteDir));
  const checkJson = jsonExampleChecker(contract);
  const problems: ContentProblem[] = [];
  for (const {section, relativePath, file, text} of readContentFiles(siteDir)) {
    // Docs and demos pages are guides (unless they render reference data); their relative links resolve to docs URLs.
    const isDocs = section.plugin === 'docs';
    const root = path.join(siteDir, section.folder);
    const resolveLink = (target: string): string | undefined => {
      const bare = target.split('#')[0] ?? '';
      if (bare.startsWith(`${contentSections.docs.routeBasePath}/`)) return bare;
      if (!isDocs || !/\.mdx?$/.test(bare) || bare.includes('://')) return undefined;
      const linked = path.posix.normalize(path.posix.join(path.posix.dirname(relativePath), bare));
      try {
        const linkedText = readFileSync(path.join(root, linked), 'utf8');
        return docUrl(section.routeBasePath, {relativePath: linked, text: linkedText});
      } catch {
        return undefined;
      }
    };
    problems.push(...lintContent(file, text, vocabulary, {isGuide: isDocs && !referenceMarkers.test(text), resolveLink}));
    problems.push(...checkJson(file, text).problems);
  }
  return problems;
}
