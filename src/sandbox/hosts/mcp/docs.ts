/**
 * The docs tools' data: the Markdown twins the site build writes next to every page (`<route>.md`) and
 * their index, markdown-twins.json. Read from a built site directory (build/ by default), never from the
 * sources: the twins are what a reader of the site sees, with the API reference and the generated tables
 * filled in. Re-read when the index changes, so a build while the server runs is picked up.
 */
import {existsSync, readFileSync, statSync} from 'node:fs';
import path from 'node:path';
import {brand} from '../../../brand';
import type {TwinEntry} from '../../../lib/markdownTwins/twins';
import {ToolInputError} from './toolError';

interface LoadedTwin extends TwinEntry {
  readonly text: string;
  readonly lower: string;
  readonly headings: string;
}

export interface SearchHit {
  readonly title: string;
  readonly path: string;
  readonly url: string;
  readonly markdownUrl: string;
  readonly section: string;
  readonly score: number;
  readonly snippet: string;
}

export const twinsIndexName = 'markdown-twins.json';
export const siteOrigin = `https://${brand.hosts.portal}`;

function isTwinEntry(value: unknown): value is TwinEntry {
  const entry = value as Partial<Record<keyof TwinEntry, unknown>> | null;
  return typeof entry?.path === 'string' && typeof entry.markdown === 'string' && typeof entry.title === 'string';
}

export class DocsLibrary {
  private loaded: {mtimeMs: number; twins: LoadedTwin[]} | undefined;

  /** `directory` undefined: the server has no copy of the docs (the downloaded bundle without --docs). */
  constructor(readonly directory: string | undefined) {}

  /** The twins, or a tool error saying what to run when the site has not been built. */
  private twins(): LoadedTwin[] {
    if (this.directory === undefined) {
      throw new ToolInputError(
        `This server has no copy of the docs: start it with --docs <a built portal directory> to use search_docs and read_page. Without one, read the pages on ${siteOrigin}: ${siteOrigin}/llms.txt lists every page and its Markdown. The contract and sandbox tools work without it.`,
      );
    }
    const index = path.join(this.directory, twinsIndexName);
    if (!existsSync(index)) {
      throw new ToolInputError(
        `The docs are not built: ${index} does not exist. Build the site (npm run build in the portal repository), or start the server with --docs <a built site directory>, then call this tool again. The contract and sandbox tools work without it.`,
      );
    }
    const mtimeMs = statSync(index).mtimeMs;
    if (this.loaded?.mtimeMs === mtimeMs) return this.loaded.twins;
    let entries: unknown;
    try {
      entries = JSON.parse(readFileSync(index, 'utf8'));
    } catch (error) {
      throw new ToolInputError(`${index} is not valid JSON (${(error as Error).message}). Run \`npm run build\` again.`);
    }
    if (!Array.isArray(entries)) throw new ToolInputError(`${index} is not a list of pages. Run \`npm run build\` again.`);
    const twins: LoadedTwin[] = [];
    for (const entry of entries as unknown[]) {
      if (!isTwinEntry(entry)) continue;
      const file = this.fileOf(entry.markdown);
      if (!file || !existsSync(file)) continue;
      const text = readFileSync(file, 'utf8');
      const headings = [...text.matchAll(/^#{1,6}\s+(.+)$/gm)]
        .map((match) => match[1] ?? '')
        .join('\n')
        .toLowerCase();
      twins.push({
        ...entry,
        description: typeof entry.description === 'string' ? entry.description : '',
        section: typeof entry.section === 'string' ? entry.section : '',
        text,
        lower: text.toLowerCase(),
        headings,
      });
    }
    this.loaded = {mtimeMs, twins};
    return twins;
  }

  /** The file of a twin's URL path, only inside the directory. */
  private fileOf(markdownPath: string): string | undefined {
    if (this.directory === undefined) return undefined;
    const file = path.resolve(this.directory, `.${path.posix.normalize(`/${markdownPath}`)}`);
    const root = path.resolve(this.directory);
    return file.startsWith(`${root}${path.sep}`) ? file : undefined;
  }

  search(query: string, limit: number): SearchHit[] {
    const words = [
      ...new Set(
        query
          .toLowerCase()
          .split(/[^\p{L}\p{N}_.-]+/u)
          .filter((word) => word.length > 0),
      ),
    ];
    if (words.length === 0)
      throw new ToolInputError('query has no words to search for: give one or more words, such as "refund notification".');
    const hits: SearchHit[] = [];
    for (const twin of this.twins()) {
      const title = twin.title.toLowerCase();
      const description = twin.description.toLowerCase();
      let score = 0;
      let all = true;
      for (const word of words) {
        const body = occurrences(twin.lower, word);
        if (body === 0 && !title.includes(word) && !description.includes(word)) {
          all = false;
          break;
        }
        // A title hit says what the page is about; a heading hit, what a section is about; body hits count less, with diminishing returns.
        score +=
          (title.includes(word) ? 10 : 0) +
          (description.includes(word) ? 3 : 0) +
          Math.min(occurrences(twin.headings, word), 5) * 3 +
          Math.log2(1 + body);
      }
      if (!all) continue;
      if (title.includes(query.toLowerCase().trim())) score += 10;
      hits.push({
        title: twin.title,
        path: twin.path,
        url: `${siteOrigin}${twin.path}`,
        markdownUrl: `${siteOrigin}${twin.markdown}`,
        section: twin.section,
        score: Math.round(score * 10) / 10,
        snippet: snippet(twin.text, words),
      });
    }
    return hits.sort((a, b) => b.score - a.score || a.path.localeCompare(b.path)).slice(0, limit);
  }

  /** A page's twin by its path, its .md URL or its full URL. */
  read(reference: string): {entry: TwinEntry; markdown: string} {
    const twins = this.twins();
    const wanted = normalisePath(reference);
    const twin = twins.find((candidate) => candidate.path === wanted || (wanted === '/' && candidate.markdown === '/index.md'));
    if (!twin) {
      const close = closest(
        wanted,
        twins.map((candidate) => candidate.path),
        5,
      );
      throw new ToolInputError(
        `No page has the path ${wanted}.${close.length ? ` Close paths: ${close.join(', ')}.` : ''} search_docs finds pages by their words.`,
      );
    }
    return {entry: twin, markdown: twin.text};
  }
}

/** "/docs/createorder", from "/docs/createorder.md", "docs/createorder/", "https://<portal>/docs/createorder#x". */
export function normalisePath(reference: string): string {
  let text = reference.trim();
  if (/^https?:\/\//i.test(text)) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ToolInputError(`"${text.slice(0, 80)}" is not a valid URL; give a path such as /docs/createorder.`);
    }
    if (url.host !== brand.hosts.portal)
      throw new ToolInputError(`${url.host} is not the portal; give a path such as /docs/createorder or a URL on ${siteOrigin}.`);
    text = url.pathname;
  }
  text = text.replace(/[?#].*$/, '');
  if (!text.startsWith('/')) text = `/${text}`;
  text = text.replace(/\/index\.md$/, '/').replace(/\.md$/, '');
  if (text.length > 1) text = text.replace(/\/+$/, '');
  return text;
}

function occurrences(text: string, word: string): number {
  let count = 0;
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length)) count += 1;
  return count;
}

/** About 240 characters of prose around the first body hit, on one line. */
function snippet(text: string, words: readonly string[]): string {
  const prose = text.replace(/^---\n[\s\S]*?\n---\n/, '');
  const lower = prose.toLowerCase();
  const at =
    words
      .map((word) => lower.indexOf(word))
      .filter((index) => index >= 0)
      .sort((a, b) => a - b)[0] ?? 0;
  const start = Math.max(0, at - 80);
  const piece = prose
    .slice(start, start + 240)
    .replace(/\s+/g, ' ')
    .trim();
  return `${start > 0 ? '…' : ''}${piece}${start + 240 < prose.length ? '…' : ''}`;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  const row = Array.from({length: b.length + 1}, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

/** The candidates nearest to `wanted`: sharing its last segment first, then by edit distance. */
export function closest(wanted: string, candidates: readonly string[], count: number): string[] {
  const last = wanted.split('/').pop() ?? '';
  return [...candidates]
    .map((candidate) => ({candidate, rank: distance(wanted, candidate) - (last && candidate.includes(last) ? 100 : 0)}))
    .sort((a, b) => a.rank - b.rank)
    .slice(0, count)
    .map(({candidate}) => candidate);
}
