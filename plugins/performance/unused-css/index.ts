/**
 * Removes the rules of the site's stylesheet that nothing in the built site can match, after the build.
 *
 * Docusaurus ships one stylesheet for every page: all of Infima and theme-classic, our tokens and every CSS
 * module. Much of Infima (grid offsets, spacing utilities, pills, avatars...) is used by no page. PurgeCSS
 * keeps a rule when every class, id, tag and attribute of its selector occurs as a word in the built HTML or
 * in any built JavaScript chunk. The JavaScript counts because widgets, menus and colour modes add classes
 * after the first paint (theme code writes them as literal strings: `"navbar-sidebar--show"`,
 * `"alert alert--danger"`); only words can be matched, so what code assembles at run time is in `runtimeSafelist`.
 *
 * The rules only the search results match then leave for a sheet of their own, which the search bar loads with its
 * code (plugins/performance/search-on-demand/resultStyles.ts).
 *
 * The sheet is rewritten under a new content hash and every page's `<link>` is pointed at it, so a cached
 * old sheet is never served for the new one. `npm run build` precompresses after `docusaurus build`, so the
 * .br and .gz copies are made from the purged sheet.
 */
import {createHash} from 'node:crypto';
import {readdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';
import postcss, {type AtRule, type Declaration, type Rule} from 'postcss';
import {PurgeCSS, type UserDefinedSafelist} from 'purgecss';
import {resultSelector, resultsSheetAttribute, resultsSheetName} from '../search-on-demand/resultStyles';

const pluginName = 'unused-css';
/** The sheet of the initial chunk, which every page links and no runtime loads. */
const mainSheet = /^assets\/css\/styles\.[0-9a-f]{8}\.css$/;

/**
 * Selectors kept whether or not the built files name them, each with why: the classes and attributes that code
 * sets at run time from parts, or that a future page may use through a theme feature no page uses today.
 */
export const runtimeSafelist = {
  // Admonitions (`:::danger` and so on): every type keeps its look, even one no page uses yet.
  standard: [/^alert(--|$)/, /^theme-admonition/],
  // Greedy patterns keep a rule when any class, id or attribute of its selector matches (names without `.` or `#`).
  greedy: [
    // The colour mode is set on <html> by the theme's inline script before the first paint.
    /data-theme/,
    // Code colours: Prism names its tokens from its grammars at run time (plugins/performance/deferred-highlighting).
    /^token$/,
    /^language-/,
    /^prism-code$/,
    // The route-change progress bar, drawn by the nprogress library from a template string.
    /^nprogress$/,
    // The mobile menu and collapsible sidebar categories, toggled by theme state.
    /^navbar-sidebar/,
    /^menu__list-item--collapsed$/,
    // PurgeCSS 8 drops `:where()` whose arguments are tag names even when the page has them (custom.css's focus ring).
    /^:where$/,
  ],
} satisfies UserDefinedSafelist;

/** Selectors that must survive purging: the build fails when the purged sheet lacks one (a safelist pattern stopped matching). */
export const requiredSelectors = [
  '.alert--danger',
  '.alert--info',
  '.alert--secondary',
  '.alert--success',
  '.alert--warning',
  "[data-theme='dark']",
  '.navbar-sidebar--show',
  '.menu__list-item--collapsed',
  '#nprogress',
  '.token.comment',
  ':where(a,button,input,select,textarea,summary,[tabindex]):focus-visible',
] as const;

/** Custom properties the built HTML, JavaScript or other sheets name (inline styles, `getPropertyValue`, `var()`): they stay defined. */
export function namedCustomProperties(content: readonly string[]): string[] {
  const names = new Set<string>();
  for (const text of content) for (const match of text.matchAll(/--[A-Za-z][\w-]*/g)) names.add(match[0]);
  return [...names];
}

/**
 * The words of a built file, each also in lower case: React writes `tabIndex` or `readOnly` in the bundle, the
 * browser's attribute is `tabindex`, and a selector such as `[tabindex]:focus-visible` must still match.
 */
export function wordsOf(text: string): string[] {
  const words = new Set(text.match(/[\w-]+/g) ?? []);
  for (const word of [...words]) words.add(word.toLowerCase());
  return [...words];
}

/** A rule that sets custom properties on the root element in light and dark mode (Infima's and the theme's variables). */
const rootSelector = /^(:root|html)$/;
const darkRootSelector = /^(html\[data-theme=["']?dark["']?\]|\[data-theme=["']?dark["']?\](:root)?|:root\[data-theme=["']?dark["']?\])$/;

/**
 * Removes the custom properties that Infima and the theme set on the root element (inside `@layer`) when our tokens
 * (src/css/tokens.css, outside any layer) set the same property there too: a declaration outside a layer wins over one
 * inside, whatever the specificity, so the layered one never applies. Tokens in `:root` override both modes' layered
 * values; tokens in the dark-mode rule override the layered dark-mode values only. Declarations inside media queries are
 * left alone on both sides. The purge then drops the variables only the removed values read.
 */
export function withoutOverriddenRootProperties(css: string): string {
  const root = postcss.parse(css);
  const ours = {light: new Set<string>(), dark: new Set<string>()};
  for (const node of root.nodes) {
    if (node.type !== 'rule') continue;
    const mode = rootSelector.test(node.selector) ? 'light' : darkRootSelector.test(node.selector) ? 'dark' : undefined;
    if (mode) node.each((child) => void (child.type === 'decl' && child.prop.startsWith('--') && ours[mode].add(child.prop)));
  }
  root.walkAtRules('layer', (layer) => {
    layer.each((node) => {
      if (node.type !== 'rule') return;
      const rule: Rule = node;
      const dark = darkRootSelector.test(rule.selector);
      if (!dark && !rootSelector.test(rule.selector)) return;
      rule.each((child) => {
        if (child.type === 'decl' && (ours.light.has(child.prop) || (dark && ours.dark.has(child.prop)))) child.remove();
      });
      if (rule.nodes.length === 0) rule.remove();
    });
  });
  return root.toString();
}

/** A custom property set outside this sheet (`--name:` in a page's inline style, a script, another sheet), not only read there. */
function setIn(texts: readonly string[], name: string): boolean {
  const setter = new RegExp(`(?<!var\\(\\s*)${name.replace(/[-]/g, '\\-')}(?![\\w-])`);
  return texts.some((text) => setter.test(text));
}

/**
 * Writes in place of `var(--x)` the value of every custom property that is a constant: set once, on the root
 * element, in no media query, and named nowhere outside this sheet (`outside`: pages, scripts, the other sheets);
 * its definition goes. Infima names each of its settings as a root variable (`--ifm-button-padding-horizontal:1.5rem`)
 * that nothing else sets, and the names, each written twice, weigh more than the values. A value that reads other
 * variables is inlined only when those are themselves set on the root element alone, so an element that sets one
 * of them for its subtree (`.markdown h1{--ifm-h1-font-size:3rem}`) sees the same value before and after.
 */
export function withRootConstantsInlined(css: string, outside: readonly string[]): string {
  const root = postcss.parse(css);
  const declarations = new Map<string, Declaration[]>();
  root.walkDecls(/^--/, (decl) => void declarations.set(decl.prop, [...(declarations.get(decl.prop) ?? []), decl]));
  const named = new Set(namedCustomProperties(outside));
  const onRoot = (decl: Declaration) =>
    decl.parent?.type === 'rule' &&
    (rootSelector.test((decl.parent as Rule).selector) || darkRootSelector.test((decl.parent as Rule).selector));
  const atTopLevel = (decl: Declaration) => {
    for (let parent = decl.parent?.parent; parent && parent.type !== 'root'; parent = parent.parent) {
      if (parent.type !== 'atrule' || (parent as AtRule).name !== 'layer') return false;
    }
    return true;
  };
  const rootOnly = (name: string) => (declarations.get(name) ?? []).every(onRoot) && !setIn(outside, name);
  const withFallback = new Set([...css.matchAll(/var\(\s*(--[\w-]+)\s*,/g)].map((match) => match[1]));
  const constants = new Map<string, string>();
  for (const [name, [decl, ...others]] of declarations) {
    if (!decl || others.length > 0 || named.has(name) || withFallback.has(name) || decl.important) continue;
    if (!onRoot(decl) || !rootSelector.test((decl.parent as Rule).selector) || !atTopLevel(decl)) continue;
    constants.set(name, decl.value.trim());
  }
  const reference = /var\(\s*(--[\w-]+)\s*\)/g;
  const resolve = (value: string, seen: ReadonlySet<string> = new Set()): string =>
    value.replace(reference, (whole, name: string, offset: number, text: string) => {
      const constant = constants.get(name);
      if (constant === undefined || seen.has(name)) return whole;
      const inlined = resolve(constant, new Set([...seen, name]));
      // Keep tokens apart: `1.65var(--font)` must not become `1.65system-ui`.
      const before = /[\w%.]/.test(text.charAt(offset - 1)) ? ' ' : '';
      const after = offset + whole.length < text.length && !/[\s),/*;!]/.test(text.charAt(offset + whole.length)) ? ' ' : '';
      return before + inlined + after;
    });
  // A constant whose value reads a variable some element sets for its subtree would change meaning: it stays.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, value] of constants) {
      const reads = [...resolve(value, new Set([name])).matchAll(reference)].map((match) => match[1] ?? '');
      if (/var\(/.test(value) && reads.some((read) => read === name || !rootOnly(read))) {
        constants.delete(name);
        changed = true;
      }
    }
  }
  root.walkDecls((decl) => {
    if (constants.has(decl.prop) && (declarations.get(decl.prop) ?? [])[0] === decl) {
      const parent = decl.parent;
      decl.remove();
      if (parent && 'nodes' in parent && parent.nodes?.length === 0) parent.remove();
    } else if (decl.value.includes('var(')) decl.value = resolve(decl.value);
  });
  return root.toString();
}

/**
 * Moves out of `css` every rule all of whose selectors `moves` accepts, inside the same at-rules (`@media`, `@layer`)
 * as before; a rule that also has other selectors stays whole. `moved` is empty when nothing matched.
 */
export function splitRules(css: string, moves: (selector: string) => boolean): {kept: string; moved: string} {
  const root = postcss.parse(css);
  const moved = postcss.root();
  root.walkRules((rule) => {
    if (!rule.selectors.every(moves)) return;
    let copy: Rule | AtRule = rule.clone();
    for (let parent = rule.parent; parent && parent.type === 'atrule'; parent = parent.parent) {
      copy = (parent as AtRule).clone({nodes: [copy]});
    }
    moved.append(copy);
    rule.remove();
  });
  root.walkAtRules((atRule) => void (atRule.nodes?.length === 0 && atRule.remove()));
  return {kept: root.toString(), moved: moved.nodes.length > 0 ? moved.toString() : ''};
}

/** The file name with its 8-hex content hash replaced by one of `css` (names without a hash are kept). */
export function withContentHash(fileName: string, css: string): string {
  const hash = createHash('sha256').update(css).digest('hex').slice(0, 8);
  return fileName.replace(/\.[0-9a-f]{8}\.css$/, `.${hash}.css`);
}

/** Writes through a temporary file, so the other plugins' postBuild steps, which read pages concurrently, never see half a file. */
function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

export interface PurgeReport {
  sheet: string;
  before: number;
  after: number;
  removedSelectors: number;
  /** The search results' sheet and its length, when the sheet had their rules. */
  results?: {sheet: string; length: number};
}

/** Purges every stylesheet the pages link against the built pages and scripts, renames it, and relinks the pages. */
export async function purgeUnusedCss(outDir: string, safelist: typeof runtimeSafelist = runtimeSafelist): Promise<PurgeReport[]> {
  const files = readdirSync(outDir, {recursive: true, encoding: 'utf8'}).map((file) => file.split(path.sep).join('/'));
  const pages = files.filter((file) => file.endsWith('.html'));
  const scripts = files.filter((file) => file.startsWith('assets/js/') && file.endsWith('.js'));
  const pageTexts = new Map(pages.map((file) => [file, readFileSync(path.join(outDir, file), 'utf8')]));
  // Only the main sheet, which only pages link. The page-type sheets (plugins/performance/page-type-styles) are also loaded by the
  // runtime on a client-side navigation, under the name its chunk map holds: renamed, they would be missing there.
  const sheets = files.filter((file) => mainSheet.test(file) && [...pageTexts.values()].some((html) => html.includes(`/${file}`)));
  if (pages.length === 0 || sheets.length === 0) {
    throw new Error(
      `[${pluginName}] ${outDir} has no pages or no assets/css/styles.<hash>.css that they link: nothing to check the rules against.`,
    );
  }
  const content = [...pageTexts.values(), ...scripts.map((file) => readFileSync(path.join(outDir, file), 'utf8'))];
  // The page-type sheets (plugins/performance/page-type-styles) read custom properties this one defines.
  const otherSheets = files
    .filter((file) => /^assets\/css\/.*\.css$/.test(file) && !sheets.includes(file))
    .map((file) => readFileSync(path.join(outDir, file), 'utf8'));
  const keptProperties = namedCustomProperties([...content, ...otherSheets]);
  const reports: PurgeReport[] = [];
  for (const sheet of sheets) {
    const css = readFileSync(path.join(outDir, sheet), 'utf8');
    const [result] = await new PurgeCSS().purge({
      content: content.map((raw) => ({raw, extension: 'js'})),
      defaultExtractor: wordsOf,
      css: [{raw: withoutOverriddenRootProperties(css)}],
      safelist: {...safelist, variables: keptProperties},
      // Custom properties no remaining rule reads (Infima defines hundreds).
      variables: true,
      rejected: true,
    });
    if (!result) throw new Error(`[${pluginName}] PurgeCSS returned nothing for ${sheet}.`);
    const purged = withRootConstantsInlined(result.css, [...content, ...otherSheets]);
    const absentBefore = new Set(missingRequiredSelectors(css));
    const missing = missingRequiredSelectors(purged).filter((selector) => !absentBefore.has(selector));
    if (missing.length > 0) {
      throw new Error(
        `[${pluginName}] purging ${sheet} removed ${missing.join(', ')}, which code uses at run time: extend runtimeSafelist.`,
      );
    }
    // The search results' rules wait for the search bar (plugins/performance/search-on-demand/resultStyles.ts).
    const {kept, moved} = splitRules(purged, (selector) => resultSelector.test(selector));
    const renamed = withContentHash(sheet, kept);
    writeFileSync(path.join(outDir, renamed), kept);
    const results = moved ? withContentHash(`assets/css/${resultsSheetName}.00000000.css`, moved) : undefined;
    if (results) writeFileSync(path.join(outDir, results), moved);
    const link = new RegExp(`(<link[^>]*href=["']?)/${sheet.replace(/[.]/g, '\\.')}(["']?)`, 'g');
    const relinked = `$1/${renamed}$2${results ? ` ${resultsSheetAttribute}=/${results}` : ''}`;
    if (renamed !== sheet) rmSync(path.join(outDir, sheet));
    for (const [page, html] of pageTexts) {
      if (html.includes(`/${sheet}`)) writeAtomically(path.join(outDir, page), html.replace(link, relinked));
    }
    reports.push({
      sheet: renamed,
      before: css.length,
      after: kept.length,
      removedSelectors: result.rejected?.length ?? 0,
      ...(results ? {results: {sheet: results, length: moved.length}} : {}),
    });
  }
  return reports;
}

/** The required selectors missing from a stylesheet's text (whitespace and quotes as the minifier writes them). */
export function missingRequiredSelectors(css: string): string[] {
  const normalised = css.replace(/["']/g, '');
  return requiredSelectors.filter((selector) => !normalised.includes(selector.replace(/["']/g, '')));
}

export default function unusedCssPlugin(): Plugin {
  return {
    name: pluginName,
    async postBuild({outDir}) {
      for (const report of await purgeUnusedCss(outDir)) {
        console.log(
          `[${pluginName}] ${report.sheet}: ${report.before} → ${report.after} bytes, ${report.removedSelectors} unused selectors removed` +
            (report.results ? `; the search results' rules, ${report.results.length} bytes, in ${report.results.sheet}` : ''),
        );
      }
    },
  };
}
