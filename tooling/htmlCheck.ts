/**
 * The static half of the accessibility checks: html-validate's structural and
 * WCAG rules (landmarks, headings, ids, labels, permitted content) over the
 * built pages, in seconds instead of a browser scan per page. The site's
 * server HTML is what the reader's browser shows for almost everything (the
 * API tables keep their server markup on purpose), so these rules need no
 * browser; the browser scans (tests/e2e/routes.spec.ts) keep what needs
 * layout and colour.
 */
import {fork} from 'node:child_process';
import {readFileSync} from 'node:fs';
import {availableParallelism} from 'node:os';
import path from 'node:path';
import {HtmlValidate, type ConfigData} from 'html-validate';
import {parse, serialize, type DefaultTreeAdapterMap} from 'parse5';

type ParentNode = DefaultTreeAdapterMap['parentNode'];
type ChildNode = DefaultTreeAdapterMap['childNode'];

export const htmlCheckConfig: ConfigData = {
  extends: ['html-validate:recommended', 'html-validate:a11y'],
  rules: {
    // Named so they stay on whatever the presets do: the structure axe no longer re-checks in every page scan.
    // A page may open with a sidebar's headings before its h1 (the blog's year groups); WCAG asks only for no skipped levels.
    'heading-level': ['error', {minInitialRank: 'any'}],
    'input-missing-label': 'error',
    'unique-landmark': 'error',
    'no-dup-id': 'error',
    'wcag/h30': 'error',
    'wcag/h37': 'error',
    // Style of the markup, not its meaning: the pages are minified and then re-serialised below.
    'attr-quotes': 'off',
    'void-style': 'off',
    'doctype-style': 'off',
    'attribute-boolean-style': 'off',
    'attribute-empty-style': 'off',
    'no-trailing-whitespace': 'off',
    // Docusaurus and Prism write inline styles and repeat token classes; neither is an accessibility matter.
    'no-inline-style': 'off',
    'no-dup-class': 'off',
    // The theme's own markup: role=button on sidebar category links, a labelled role=region
    // announcement bar, aria-label on the footer's external-link icon, the search input without type.
    'prefer-native-element': 'off',
    'aria-label-misuse': 'off',
    'no-implicit-input-type': 'off',
    // Kept on purpose: list-style: none drops list semantics in WebKit unless the role is explicit.
    'no-redundant-role': 'off',
    // HTML5 allows any id without spaces; the theme's start with "__", React's useId with "_R_", year anchors with digits.
    'valid-id': ['error', {relaxed: true}],
  },
};

export interface HtmlProblem {
  readonly file: string;
  readonly rule: string;
  readonly message: string;
  readonly selector: string | null;
}

/**
 * Drops subtrees marked `hidden` (inactive tab panels): assistive technology does not see them either. And reads the
 * theme's code lines (theme-classic's CodeBlock/Line writes each line of a <code> as a <div>) as the spans they act
 * as: reported and then dropped, those were about 8,000 messages a build and a third of the check's processor time.
 */
function normalise(node: ParentNode, inCode = false): void {
  node.childNodes = node.childNodes.filter(
    (child: ChildNode) => !('attrs' in child && child.attrs.some((attribute) => attribute.name === 'hidden')),
  );
  for (const child of node.childNodes) {
    if (inCode && 'tagName' in child && child.tagName === 'div') {
      child.tagName = 'span';
      child.nodeName = 'span';
    }
    if ('childNodes' in child) normalise(child, inCode || ('tagName' in child && child.tagName === 'code'));
    if ('content' in child) normalise(child.content, inCode);
  }
}

/** A page's markup as a spec-compliant parser builds it, with every end tag written out. */
export function normalisedMarkup(html: string): string {
  const document = parse(html);
  normalise(document);
  return serialize(document);
}

/** A client-side redirect page written by @docusaurus/plugin-client-redirects, not a page readers see. */
export function isRedirectPage(html: string): boolean {
  return /<meta http-equiv="?refresh"?/i.test(html.slice(0, 2000));
}

export function createHtmlChecker(): (html: string, file: string) => HtmlProblem[] {
  const validator = new HtmlValidate(htmlCheckConfig);
  return (html, file) => {
    const report = validator.validateStringSync(normalisedMarkup(html), file);
    return report.results.flatMap((result) =>
      result.messages.map((message) => ({file, rule: message.ruleId, message: message.message, selector: message.selector})),
    );
  };
}

export function checkHtmlFiles(files: readonly string[]): {checked: number; problems: HtmlProblem[]} {
  const check = createHtmlChecker();
  let checked = 0;
  const problems: HtmlProblem[] = [];
  for (const file of files) {
    const html = readFileSync(file, 'utf8');
    if (isRedirectPage(html)) continue;
    checked += 1;
    problems.push(...check(html, file));
  }
  return {checked, problems};
}

/**
 * checkHtmlFiles over several processes (tooling/htmlCheckWorker.ts): html-validate is single-threaded
 * and the pages do not depend on each other, so on two cores one process leaves a core idle. The pages
 * are dealt out in turn, so each process gets a like share of small and large ones; the problems come
 * back in the order of `files`.
 */
export async function checkHtmlFilesInParallel(
  files: readonly string[],
  processes = availableParallelism(),
): Promise<{checked: number; problems: HtmlProblem[]}> {
  const shares = Array.from({length: Math.max(1, Math.min(processes, files.length))}, (_, index) =>
    files.filter((_file, at) => at % processes === index),
  );
  const results = await Promise.all(
    shares.map(
      (share) =>
        new Promise<{checked: number; problems: HtmlProblem[]}>((resolve, reject) => {
          // fork() runs the worker with this process's Node options, tsx's loader among them.
          const worker = fork(path.join(__dirname, 'htmlCheckWorker.ts'), {stdio: ['ignore', 'inherit', 'inherit', 'ipc']});
          let result: {checked: number; problems: HtmlProblem[]} | undefined;
          worker.once('message', (message: {checked: number; problems: HtmlProblem[]}) => (result = message));
          worker.once('error', reject);
          worker.once('exit', (code) =>
            result && code === 0
              ? resolve(result)
              : reject(new Error(`The HTML check of ${share.length} pages stopped (exit code ${String(code)}).`)),
          );
          worker.send(share);
        }),
    ),
  );
  const order = new Map(files.map((file, index) => [file, index]));
  return {
    checked: results.reduce((sum, result) => sum + result.checked, 0),
    problems: results.flatMap((result) => result.problems).sort((a, b) => (order.get(a.file) ?? 0) - (order.get(b.file) ?? 0)),
  };
}
