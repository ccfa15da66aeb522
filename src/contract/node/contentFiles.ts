/**
 * Reads the Markdown and MDX sources of the content sections (src/contentSections.ts), for the
 * build-time tools and the tests that walk the content. Node only.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {allContentSections, type ContentSection} from '../../contentSections';

export interface ContentFile {
  readonly section: ContentSection;
  /** Path inside the section folder, with forward slashes: "transfer/transfer.md". */
  readonly relativePath: string;
  /** Path inside the site directory, with forward slashes: "docs/transfer/transfer.md". */
  readonly file: string;
  readonly text: string;
}

/**
 * Files a content plugin skips by default (its `exclude` option): a path part starting with "_"
 * marks a partial, which pages import and which has no route of its own.
 */
function isPartial(relativePath: string): boolean {
  return relativePath.split('/').some((part) => part.startsWith('_'));
}

/** The .md and .mdx files of the given sections (all by default) that publish a page, in a stable order. */
export function readContentFiles(siteDir: string, sections: readonly ContentSection[] = allContentSections): ContentFile[] {
  return sections.flatMap((section) => {
    const root = path.join(siteDir, section.folder);
    return readdirSync(root, {recursive: true, encoding: 'utf8'})
      .map((relative) => relative.split(path.sep).join('/'))
      .filter((relativePath) => /\.mdx?$/.test(relativePath) && !isPartial(relativePath))
      .sort((a, b) => a.localeCompare(b))
      .map((relativePath) => ({
        section,
        relativePath,
        file: `${section.folder}/${relativePath}`,
        text: readFileSync(path.join(root, relativePath), 'utf8'),
      }));
  });
}
