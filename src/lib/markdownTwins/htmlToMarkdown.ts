/**
 * Turns a built page's HTML into the Markdown of its twin: the page's content (not the navbar,
 * sidebars, table of contents or footer) through hast -> mdast -> Markdown, with the site's own
 * markup mapped back to what it stands for: code blocks as fenced blocks with their language and
 * title, admonitions as quoted text, diagrams as their Mermaid source, tab groups as every tab
 * one after the other, and internal links pointing at the twins. Pure: the build plugin
 * (plugins/content/markdown-twins) and the build-output check call it.
 */
import type {Element, ElementContent, Nodes as HastNodes, Root as HastRoot} from 'hast';
import type {Nodes as MdastNodes, Root as MdastRoot} from 'mdast';
import {fromHtml} from 'hast-util-from-html';
import {toMdast, type Handle} from 'hast-util-to-mdast';
import {toMarkdown} from 'mdast-util-to-markdown';
import {gfmToMarkdown} from 'mdast-util-gfm';

export interface LinkContext {
  /** The site's origin and base, without a trailing slash: "https://developers.example.com". */
  readonly siteUrl: string;
  /** URL path of the page being converted, for relative links. */
  readonly pagePath: string;
  /** Whether a URL path (no trailing slash, no .md) is a page that has a twin. */
  readonly isTwinPage: (pathname: string) => boolean;
}

/** The twin's URL path of a page: "/" -> "/index.md", "/docs/refund" -> "/docs/refund.md". */
export function twinPath(pagePath: string): string {
  const clean = pagePath.replace(/\/+$/, '');
  return clean === '' ? '/index.md' : `${clean}.md`;
}

/** The marker element the API reference Markdown replaces (see replaceApiReference). */
export const apiReferenceMarker = 'data-twin-api-reference';

const classesOf = (node: Element): string[] => {
  const value = node.properties.className;
  return Array.isArray(value) ? value.map(String) : [];
};
const hasClass = (node: Element, test: (name: string) => boolean): boolean => classesOf(node).some(test);
const isElement = (node: HastNodes | ElementContent | undefined): node is Element => node?.type === 'element';

function textOf(node: HastNodes | ElementContent): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return (node.children as ElementContent[]).map(textOf).join('');
  return '';
}

function findAll(node: HastNodes, test: (element: Element) => boolean, found: Element[] = []): Element[] {
  if (isElement(node) && test(node)) found.push(node);
  if ('children' in node) for (const child of node.children) findAll(child as HastNodes, test, found);
  return found;
}

const findFirst = (node: HastNodes, test: (element: Element) => boolean): Element | undefined => findAll(node, test)[0];

/** The texts of a mock screen's innermost elements, each whole, skipping what is hidden from readers. */
function screenTexts(node: Element, found: string[] = []): string[] {
  if (String(node.properties.ariaHidden) === 'true') return found;
  const elements = node.children.filter(isElement);
  if (elements.length === 0 || elements.every((candidate) => ['b', 'strong', 'em', 'i', 'code', 'br'].includes(candidate.tagName))) {
    const value = textOf(node).replace(/\s+/g, ' ').trim();
    if (value !== '') found.push(value);
    return found;
  }
  for (const child of node.children) {
    if (isElement(child)) screenTexts(child, found);
    else if (child.type === 'text' && child.value.trim() !== '') found.push(child.value.replace(/\s+/g, ' ').trim());
  }
  return found;
}

const element = (tagName: string, properties: Element['properties'], children: ElementContent[]): Element => ({
  type: 'element',
  tagName,
  properties,
  children,
});
const text = (value: string): ElementContent => ({type: 'text', value});

/**
 * The plain text of a code block as the reader copies it: one entry per line, without line
 * numbers or button labels. Docusaurus renders each line as a `.token-line` element.
 */
export function codeBlockText(pre: Element): string {
  const lines = findAll(pre, (node) => hasClass(node, (name) => name === 'token-line'));
  if (lines.length === 0) return textOf(pre).replace(/\n$/, '');
  return lines
    .map((line) => {
      const content = findFirst(line, (node) => hasClass(node, (name) => name.startsWith('codeLineContent')));
      return textOf(content ?? line).replace(/\n$/, '');
    })
    .join('\n');
}

/** The language of a code block: `language-x` on the pre, its code, or its container. */
function codeLanguage(...nodes: Array<Element | undefined>): string | undefined {
  for (const node of nodes) {
    const name = node ? classesOf(node).find((candidate) => candidate.startsWith('language-')) : undefined;
    if (name) return name.slice('language-'.length);
  }
  return undefined;
}

/** A `<pre>` carrying its plain text, language and title in a form the code handler below reads. */
function plainPre(code: string, language: string | undefined, title: string | undefined): Element {
  return element('pre', {dataLang: language, dataTitle: title}, [element('code', {}, [text(code)])]);
}

const admonitionLabel = (node: Element): string => {
  const kind =
    classesOf(node)
      .find((name) => name.startsWith('theme-admonition-'))
      ?.slice('theme-admonition-'.length) ?? 'note';
  return kind.charAt(0).toUpperCase() + kind.slice(1);
};

/** Rewrites the site's markup, in place, into plain HTML whose standard conversion says the same. */
function simplify(node: Element | HastRoot): void {
  const out: ElementContent[] = [];
  for (const child of node.children as ElementContent[]) {
    if (!isElement(child)) {
      if (child.type === 'text') out.push(child);
      continue;
    }
    const classes = classesOf(child);
    const has = (test: (name: string) => boolean) => classes.some(test);
    // Controls and navigation are the web page's, not its content.
    if (['button', 'nav', 'aside', 'script', 'style', 'noscript', 'form', 'input', 'select', 'textarea', 'svg'].includes(child.tagName))
      continue;
    if (
      has(
        (name) =>
          name === 'hash-link' ||
          name.startsWith('theme-doc-toc') ||
          name.startsWith('tocCollapsible') ||
          name.startsWith('buttonGroup') ||
          name === 'sr-only',
      )
    )
      continue;
    if (child.tagName === 'h1') continue;
    // The web page's own summary of what follows (an API page's endpoint block): the twin says it in full.
    if (child.properties.dataTwinSkip !== undefined) continue;
    if (child.tagName === 'figure' && child.properties.dataDiagram !== undefined) {
      const source = findFirst(child, (candidate) => candidate.tagName === 'code');
      if (source) out.push(plainPre(textOf(source).trim(), 'mermaid', undefined));
      continue;
    }
    if (child.tagName === 'figure' && typeof child.properties.ariaLabel === 'string') {
      // A demo's mock screen (a phone or browser window drawn in HTML): its words one by one, in reading
      // order, under the screen's name; converted as markup, its fake buttons ran together ("USDCancel").
      const words = screenTexts(child);
      out.push(
        element('blockquote', {}, [
          element('p', {}, [element('em', {}, [text(`${child.properties.ariaLabel}:`)]), text(` ${words.join(' · ')}`)]),
        ]),
      );
      continue;
    }
    if (
      has((name) => name === 'theme-code-block') ||
      (child.tagName === 'pre' && !findFirst(child, (candidate) => candidate.tagName === 'pre' && candidate !== child))
    ) {
      const pre = child.tagName === 'pre' ? child : findFirst(child, (candidate) => candidate.tagName === 'pre');
      if (pre) {
        const title = findFirst(child, (candidate) => hasClass(candidate, (name) => name.startsWith('codeBlockTitle')));
        const code = findFirst(pre, (candidate) => candidate.tagName === 'code');
        out.push(plainPre(codeBlockText(pre), codeLanguage(pre, code, child), title ? textOf(title).trim() : undefined));
        continue;
      }
    }
    if (has((name) => name === 'theme-admonition')) {
      const content = findFirst(child, (candidate) => hasClass(candidate, (name) => name.startsWith('admonitionContent'))) ?? child;
      const heading = findFirst(child, (candidate) => hasClass(candidate, (name) => name.startsWith('admonitionHeading')));
      const custom = heading ? textOf(heading).trim() : '';
      const label = custom !== '' && custom.toLowerCase() !== admonitionLabel(child).toLowerCase() ? custom : admonitionLabel(child);
      simplify(content);
      const blocks = content.children.filter(
        (candidate) => isElement(candidate) || (candidate.type === 'text' && candidate.value.trim() !== ''),
      );
      const [first, ...rest] = blocks;
      const lead = element('strong', {}, [text(`${label}:`)]);
      const opening = isElement(first) && first.tagName === 'p' ? element('p', {}, [lead, text(' '), ...first.children]) : undefined;
      out.push(element('blockquote', {}, opening ? [opening, ...rest] : [element('p', {}, [lead]), ...blocks]));
      continue;
    }
    if (has((name) => name === 'tabs-container')) {
      // Every tab, each under its label: the web page shows one at a time.
      const labels = findAll(child, (candidate) => candidate.properties.role === 'tab').map((tab) => textOf(tab).trim());
      const panels = findAll(child, (candidate) => candidate.properties.role === 'tabpanel');
      panels.forEach((panel, index) => {
        simplify(panel);
        out.push(element('p', {}, [element('strong', {}, [text(labels[index] ?? `Tab ${index + 1}`)])]), ...panel.children);
      });
      continue;
    }
    if (child.tagName === 'details') {
      simplify(child);
      const summary = child.children.find((candidate) => isElement(candidate) && candidate.tagName === 'summary');
      const rest = child.children.filter((candidate) => candidate !== summary);
      // A fold's summary (ui/Fold) is a control, not a title: data-twin-skip leaves it out.
      const title =
        summary && isElement(summary) && summary.properties.dataTwinSkip === undefined
          ? [element('p', {}, [element('strong', {}, summary.children)])]
          : [];
      out.push(...title, ...rest);
      continue;
    }
    if (child.tagName === 'caption') {
      // A table caption has no Markdown form; the conversion below puts it before the table.
      continue;
    }
    if (child.tagName === 'table') {
      const caption = findFirst(child, (candidate) => candidate.tagName === 'caption');
      simplify(child);
      if (caption) out.push(element('p', {}, [element('strong', {}, [text(textOf(caption).trim())])]));
      out.push(child);
      continue;
    }
    simplify(child);
    out.push(child);
  }
  node.children = out;
}

/** A link's target in the twin: internal pages to their twins, everything else absolute on the site. */
export function rewriteUrl(url: string, context: LinkContext): string {
  if (url.startsWith('#') || url === '') return url;
  let parsed: URL;
  const pageUrl = new URL(context.pagePath, `${context.siteUrl}/`);
  try {
    parsed = new URL(url, pageUrl);
  } catch {
    return url;
  }
  const site = new URL(`${context.siteUrl}/`);
  if (parsed.origin !== site.origin) return url;
  const pathname = parsed.pathname.replace(/\/+$/, '') || '/';
  if (context.isTwinPage(pathname)) return `${site.origin}${twinPath(pathname)}${parsed.hash}`;
  return `${site.origin}${parsed.pathname}${parsed.search}${parsed.hash}`;
}

function rewriteLinks(tree: MdastNodes, context: LinkContext): void {
  if (tree.type === 'link' || tree.type === 'image' || tree.type === 'definition') tree.url = rewriteUrl(tree.url, context);
  if ('children' in tree) for (const child of tree.children) rewriteLinks(child, context);
}

const preHandler: Handle = (state, node) => {
  const result: MdastNodes = {
    type: 'code',
    lang: typeof node.properties.dataLang === 'string' ? node.properties.dataLang : null,
    meta: typeof node.properties.dataTitle === 'string' ? `title=${JSON.stringify(node.properties.dataTitle)}` : null,
    value: textOf(node).replace(/\n+$/, ''),
  };
  state.patch(node, result);
  return result;
};

/** Markdown of some HTML content (already the part of the page to convert). */
export function contentToMarkdown(content: Element | HastRoot, context: LinkContext, extra: Record<string, string> = {}): string {
  simplify(content);
  const root: HastRoot = content.type === 'root' ? content : {type: 'root', children: [content]};
  const mdast = toMdast(root, {
    handlers: {
      pre: preHandler,
      div: (state, node) => {
        const key = node.properties.dataTwinApiReference;
        if (typeof key === 'string' && extra[key] !== undefined) return {type: 'html', value: extra[key]};
        return state.toFlow(state.all(node));
      },
    },
  }) as MdastRoot;
  rewriteLinks(mdast, context);
  return toMarkdown(mdast, {
    extensions: [gfmToMarkdown({tablePipeAlign: false})],
    bullet: '-',
    fences: true,
    rule: '-',
    emphasis: '_',
  }).trim();
}

/** HTML fragment (a field description) as one line of Markdown, for a table cell. */
export function inlineMarkdown(html: string, context: LinkContext): string {
  if (html.trim() === '') return '';
  return contentToMarkdown(fromHtml(html, {fragment: true}), context)
    .replace(/\n+/g, ' ')
    .replace(/\|/g, '\\|')
    .trim();
}

/** HTML fragment as Markdown blocks. */
export function blockMarkdown(html: string, context: LinkContext): string {
  if (html.trim() === '') return '';
  return contentToMarkdown(fromHtml(html, {fragment: true}), context);
}

export interface ParsedPage {
  readonly title: string;
  readonly description: string;
  /** The page's content element: the doc's Markdown container, or the main landmark. */
  readonly content: Element;
  readonly tree: HastRoot;
}

const metaContent = (tree: HastRoot, name: string): string | undefined => {
  const meta = findFirst(tree, (node) => node.tagName === 'meta' && (node.properties.name === name || node.properties.property === name));
  return typeof meta?.properties.content === 'string' ? meta.properties.content : undefined;
};

/** Reads a built page: its title (the h1, else the document title before " | site"), description and content. */
export function parsePage(html: string, siteTitle: string): ParsedPage {
  const tree = fromHtml(html);
  const main = findFirst(tree, (node) => node.tagName === 'main');
  const doc = findFirst(tree, (node) => hasClass(node, (name) => name === 'theme-doc-markdown'));
  const content = doc ?? main;
  if (!content) throw new Error('The page has no <main> element to convert.');
  const h1 = findFirst(content, (node) => node.tagName === 'h1') ?? findFirst(main ?? content, (node) => node.tagName === 'h1');
  const titleElement = findFirst(tree, (node) => node.tagName === 'title');
  const documentTitle = titleElement
    ? textOf(titleElement)
        .replace(new RegExp(`\\s*\\|\\s*${siteTitle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`), '')
        .trim()
    : '';
  const title = (h1 ? textOf(h1).trim() : '') || documentTitle || siteTitle;
  return {title, description: metaContent(tree, 'description') ?? '', content, tree};
}

/** The code blocks of a page's content as the twin must hold them (diagram sources included). */
export function pageCodeBlocks(content: Element): string[] {
  return findAll(content, (node) => node.tagName === 'pre').map((pre) => codeBlockText(pre).trim());
}

/**
 * Cuts the generated API reference (from the endpoint header through the code samples) out of an
 * API page's content and puts a marker in its place. Returns false when the page has none.
 */
export function replaceApiReference(content: Element, markerKey: string): boolean {
  const parentOf = (target: Element): Element | undefined =>
    findFirst(content, (node) => node.children.includes(target)) ?? (content.children.includes(target) ? content : undefined);
  const header = findFirst(content, (node) => node.tagName === 'section' && node.properties.dataOperationId !== undefined);
  const samplesHeading = findFirst(content, (node) => node.properties.id === 'api-code-samples');
  if (!header || !samplesHeading) return false;
  const parent = parentOf(header);
  if (!parent || parentOf(samplesHeading) !== parent) return false;
  const start = parent.children.indexOf(header);
  let end = parent.children.indexOf(samplesHeading) + 1;
  // The tab group of samples follows its heading (whitespace between them is text).
  while (end < parent.children.length && !isElement(parent.children[end])) end += 1;
  parent.children.splice(start, end - start + 1, element('div', {dataTwinApiReference: markerKey}, []));
  return true;
}
