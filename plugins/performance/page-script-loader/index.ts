/**
 * Puts the page-script loader (load-after-paint.js) inline in every page's
 * <head>. The page template (ssrTemplate in docusaurus.config.ts) lists the
 * page's scripts in a data block, `<script type="application/json"
 * id="page-scripts">`, instead of loading them; the loader starts them after
 * the first paint.
 *
 * Inline rather than a file of its own so it runs while the head is parsed,
 * with no request to wait for. As a deferred file it ran at the end of parsing,
 * in the same task as the first style and layout pass, and a lab loader that
 * simulates a slow phone (Lighthouse) tied that whole task to the file's
 * download and counted it as blocking time after the first paint.
 *
 * A head tag rather than part of the template: the template is part of the
 * site config, which Docusaurus also ships to the browser in main.js.
 * The HTML minifier strips the loader's comments; plugins/checks/inline-script-csp
 * checks the hash the Content-Security-Policy needs for it.
 */
import {readFileSync} from 'node:fs';
import path from 'node:path';
import type {Plugin} from '@docusaurus/types';

export const pageScriptLoaderPath = path.join(__dirname, 'load-after-paint.js');

/** The loader's source, checked to be safe inside a <script> element. */
export function pageScriptLoaderSource(source: string = readFileSync(pageScriptLoaderPath, 'utf8')): string {
  const unsafe = /<\/script|<!--/i.exec(source);
  if (unsafe) throw new Error(`${pageScriptLoaderPath}: "${unsafe[0]}" cannot appear in a script inlined into the page.`);
  return source.trim();
}

export default function pageScriptLoaderPlugin(): Plugin {
  const source = pageScriptLoaderSource();
  return {
    name: 'page-script-loader',
    injectHtmlTags() {
      // Before the stylesheets (the template puts head tags first), so it runs at once instead of waiting for them.
      return {headTags: [{tagName: 'script', innerHTML: source}]};
    },
  };
}
