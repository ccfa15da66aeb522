/** Markdown descriptions of the contract rendered to HTML at build time (no Markdown parser ships to the browser). */
import {fromMarkdown} from 'mdast-util-from-markdown';
import {toHast} from 'mdast-util-to-hast';
import {toHtml} from 'hast-util-to-html';

export function renderMarkdown(markdown: string): string {
  return toHtml(toHast(fromMarkdown(markdown)));
}
