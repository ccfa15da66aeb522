/**
 * Content rules every page must meet, checked on the Markdown/MDX sources:
 * no placeholder or template text, every code block names its language,
 * guides carry at least 300 words of prose, and identifiers written as inline
 * code are names the API contract defines. Pure: the caller supplies the
 * sources and the contract's vocabulary.
 */

export interface ContentProblem {
  readonly file: string;
  readonly line: number;
  readonly message: string;
}

export interface ContractVocabulary {
  /** Property, parameter and header names, operation IDs. */
  readonly names: ReadonlySet<string>;
  /** Enum and const values, response codes, event types. */
  readonly values: ReadonlySet<string>;
  /** For each API page URL path, the names and values its own operation defines. */
  readonly byPage: ReadonlyMap<string, {readonly names: ReadonlySet<string>; readonly values: ReadonlySet<string>}>;
}

export const minimumGuideWords = 300;

/** Words and phrases that mark unfinished or template content. */
export const placeholderPattern =
  /\b(lorem ipsum|coming soon|TODO|TBD|FIXME|placeholder text|under construction|to be documented|Tutorial Intro|My Site|dinosaurs?)\b/i;

/** Identifiers in inline code that are not contract names but are fine to write (platform APIs). */
export const nonContractIdentifiers: ReadonlySet<string> = new Set([
  'postMessage',
  'targetOrigin',
  'onActivityResult',
  'requestPayment',
  'sha256sum',
  // Variables of the Postman collection (src/contract/node/postman.ts), which docs/local-sandbox explains.
  'baseUrl',
  'privateKeyPem',
  'sandboxControls',
]);

const camelCase = /^[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+$/;
const upperSnake = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const eventType = /^[A-Z][A-Z_]+\.[A-Z][A-Z_]+$/;

interface Line {
  readonly number: number;
  readonly text: string;
}

/** Source lines outside front matter, split into prose lines and fenced code blocks. */
function scan(text: string): {prose: Line[]; fences: Array<{line: number; info: string}>} {
  const lines = text.split(/\r?\n/);
  const prose: Line[] = [];
  const fences: Array<{line: number; info: string}> = [];
  let index = 0;
  if (lines[0] === '---') {
    index = lines.indexOf('---', 1) + 1;
  }
  let fence: string | undefined;
  for (; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    const marker = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (marker) {
      if (fence === undefined) {
        fence = marker[1];
        fences.push({line: index + 1, info: (marker[2] ?? '').trim()});
        continue;
      }
      if (line.trim().startsWith(fence ?? '```') && (marker[2] ?? '').trim() === '') {
        fence = undefined;
        continue;
      }
    }
    if (fence === undefined) prose.push({number: index + 1, text: line});
  }
  return {prose, fences};
}

/** Counts words of running prose: paragraphs, list items and quotes, not headings, tables, JSX or imports. */
export function proseWordCount(text: string): number {
  let words = 0;
  for (const {text: line} of scan(text).prose) {
    const trimmed = line.trim();
    if (trimmed === '' || /^(#|\||import |export |<|\{\/\*|:::)/.test(trimmed)) continue;
    const plain = trimmed
      .replace(/^([-*+]|\d+\.)\s+/, '')
      .replace(/^>\s*/, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, ' ');
    words += plain.split(/\s+/).filter((word) => /[A-Za-z0-9]/.test(word)).length;
  }
  return words;
}

export interface LintOptions {
  /** The page is a guide and needs the minimum prose. */
  readonly isGuide: boolean;
  /** Resolves a Markdown link target in this file to a URL path, when it points into the docs. */
  readonly resolveLink: (target: string) => string | undefined;
}

export function lintContent(file: string, text: string, vocabulary: ContractVocabulary, options: LintOptions): ContentProblem[] {
  const problems: ContentProblem[] = [];
  const {prose, fences} = scan(text);

  for (const fence of fences) {
    if (fence.info === '') problems.push({file, line: fence.line, message: 'code block without a language (```bash, ```json, ...)'});
  }
  text.split(/\r?\n/).forEach((line, index) => {
    const match = placeholderPattern.exec(line);
    if (match) problems.push({file, line: index + 1, message: `placeholder or template text "${match[0]}"`});
  });
  for (const line of prose) {
    // The MDX 1 title form (`:::warning Title`) reaches the page as a literal paragraph here.
    const legacy = /^:::(\w+) +(\S.*)$/.exec(line.text.trim());
    if (legacy) problems.push({file, line: line.number, message: `admonition title in the old form: write :::${legacy[1]}[${legacy[2]}]`});
  }

  for (const line of prose) {
    // Inline code inside a link to an API page must name something of that page's operation.
    for (const link of line.text.matchAll(/\[`([^`]+)`\]\(([^)\s]+)\)/g)) {
      const [, code = '', target = ''] = link;
      const page = vocabulary.byPage.get(options.resolveLink(target) ?? '');
      if (!page) continue;
      const known = code.split('.').every((part) => page.names.has(part) || page.values.has(part)) || page.values.has(code);
      if (!known) problems.push({file, line: line.number, message: `\`${code}\` is not defined by the operation of ${target}`});
    }
    for (const inline of line.text.matchAll(/`([^`\n]+)`/g)) {
      const code = inline[1] ?? '';
      const parts = code.split('.');
      if (parts.every((part) => camelCase.test(part))) {
        const unknown = parts.filter((part) => !vocabulary.names.has(part) && !nonContractIdentifiers.has(part));
        if (unknown.length > 0)
          problems.push({file, line: line.number, message: `\`${code}\`: ${unknown.join(', ')} is not a name in the API contract`});
      } else if ((upperSnake.test(code) || eventType.test(code)) && !vocabulary.values.has(code)) {
        problems.push({file, line: line.number, message: `\`${code}\` is not a value, response code or event type in the API contract`});
      }
    }
  }

  if (options.isGuide) {
    const words = proseWordCount(text);
    if (words < minimumGuideWords)
      problems.push({file, line: 1, message: `only ${words} words of prose; a guide needs at least ${minimumGuideWords}`});
  }
  return problems;
}
