/**
 * Keeps what was moved out of the first load out of it (scripts/checkHtml.ts, after the test build).
 * Each rule names a page, text that marks code or data that page must not load at once, and where it
 * now lives. "At once" is what the bench counts as first-load JavaScript (tooling/bench/measure.ts):
 * the scripts the page's HTML lists, plus, on the sandbox console, the widget's own chunk, which
 * loads as soon as the page hydrates because the console is in the first viewport.
 */
import {existsSync, readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';

interface Rule {
  readonly page: string;
  /** Chunk-name prefixes loaded at once besides the listed scripts (webpackChunkName). */
  readonly alsoLoaded?: readonly string[];
  readonly marker: string | RegExp;
  readonly what: string;
}

const docsPages = ['/docs/integration-guide', '/docs/createorder', '/docs/sandbox-console', '/demos/dynqr'];

export const firstLoadRules: readonly Rule[] = [
  ...docsPages.map((page) => ({
    page,
    marker: /"docsSidebars":[\s\S]*"description":/,
    what: 'the docs descriptions in the version metadata (plugins/performance/slim-docs-metadata)',
  })),
  ...['/', '/docs/integration-guide', '/blog/long-blog-post'].map((page) => ({
    page,
    marker: 'Comlink.proxy',
    what: "the search bar's code, which loads when the reader reaches for search (plugins/performance/search-on-demand)",
  })),
  {
    page: '/',
    marker: '__disposeResources',
    what: 'all of tslib, where the browser code calls one helper (plugins/performance/tslib-used-helpers)',
  },
  {
    page: '/docs/sandbox-console',
    alsoLoaded: ['sandbox-console.'],
    marker: '"successPointer"',
    what: "Try it's operations (tryit.json), which the console loads with the engine (SandboxConsole/reader.ts)",
  },
  {
    page: '/docs/sandbox-console',
    alsoLoaded: ['sandbox-console.'],
    marker: 'refused to export',
    what: "the hosted merchant's signed export, which the console loads when the hosted sandbox is chosen",
  },
];

/** The scripts a built page loads at once: its listed scripts and the chunks a rule names. */
function scriptsLoadedAtOnce(buildDir: string, page: string, alsoLoaded: readonly string[]): string[] {
  const html = readFileSync(path.join(buildDir, page, 'index.html'), 'utf8');
  const listed = /id="?page-scripts"?>([^<]*)</.exec(html);
  if (!listed?.[1]) throw new Error(`${page}: no page-scripts list in its HTML`);
  const scripts = (JSON.parse(listed[1]) as string[]).map((src) => path.join(buildDir, src));
  const jsDir = path.join(buildDir, 'assets', 'js');
  const extra = readdirSync(jsDir).filter((file) => file.endsWith('.js') && alsoLoaded.some((prefix) => file.startsWith(prefix)));
  if (extra.length < alsoLoaded.length) throw new Error(`${page}: no chunk ${alsoLoaded.join(', ')} in ${jsDir}`);
  return [...scripts, ...extra.map((file) => path.join(jsDir, file))];
}

/** One sentence per rule a build breaks. */
export function firstLoadProblems(buildDir: string): string[] {
  return firstLoadRules.flatMap((rule) => {
    if (!existsSync(path.join(buildDir, rule.page, 'index.html'))) return [`${rule.page}: not in ${buildDir}`];
    const found = scriptsLoadedAtOnce(buildDir, rule.page, rule.alsoLoaded ?? []).filter((file) => {
      const text = readFileSync(file, 'utf8');
      return typeof rule.marker === 'string' ? text.includes(rule.marker) : rule.marker.test(text);
    });
    return found.map((file) => `${rule.page}: ${path.basename(file)} carries ${rule.what}`);
  });
}

/**
 * The stylesheets a page of each type links, by name before the content hash, in order: the main sheet, then its page
 * type's (plugins/performance/page-type-styles). Another sheet here means a module imported where its group does not
 * expect it, and the page pays for another page type's rules.
 */
export const pageSheets: ReadonlyArray<readonly [page: string, sheets: readonly string[]]> = [
  ['/', ['styles', 'home']],
  ['/docs/integration-guide', ['styles', 'docs']],
  ['/docs/createorder', ['styles', 'docs', 'api-reference']],
  ['/docs/payment/payment-result-notification', ['styles', 'docs', 'api-reference']],
  ['/docs/response-code', ['styles', 'docs', 'api-tables']],
  ['/docs/sandbox-console', ['styles', 'docs', 'console']],
  ['/docs/hosted-sandbox', ['styles', 'docs', 'widget-form', 'api-tables', 'sandbox']],
  ['/demos/dynqr', ['styles', 'docs', 'demo']],
  ['/blog/long-blog-post', ['styles', 'blog']],
  ['/blog', ['styles', 'blog']],
  ['/search', ['styles', 'search-page']],
  ['/markdown-page', ['styles']],
  ['/404.html', ['styles']],
];

/** The names, before the hash, of the stylesheets a page's HTML links. */
export function linkedSheets(html: string): string[] {
  return [...html.matchAll(/<link\b[^>]*\brel=["']?stylesheet["']?[^>]*\bhref=["']?\/assets\/css\/([\w-]+)\.[0-9a-f]{8}\.css/g)].map(
    (match) => match[1] ?? '',
  );
}

/** One sentence per page of `pageSheets` that links other stylesheets than its type's. */
export function pageSheetProblems(buildDir: string): string[] {
  return pageSheets.flatMap(([page, expected]) => {
    const file = path.join(buildDir, page.endsWith('.html') ? page : path.join(page, 'index.html'));
    if (!existsSync(file)) return [`${page}: not in ${buildDir}`];
    const linked = linkedSheets(readFileSync(file, 'utf8'));
    return linked.join() === expected.join()
      ? []
      : [`${page} links the stylesheets ${linked.join(', ')}; its type links ${expected.join(', ')}`];
  });
}
