/**
 * Keeps Prism out of the browser's start-up bundle and out of hydration.
 * - The server build resolves `@portal/highlighter` to a synchronous Prism
 *   highlighter, so every code block is highlighted in the HTML; the browser
 *   build resolves it to a lazy one, and `prism-react-renderer` itself to a
 *   stub for the theme's start-up module (see plugins/performance/deferred-highlighting/highlighter).
 * - Code colours come from CSS per colour mode generated from the Prism
 *   themes given here, so the server markup is right in both modes and the
 *   browser keeps it (see src/theme/CodeBlock).
 */
import {mkdirSync, writeFileSync} from 'node:fs';
import path from 'node:path';
import type {LoadContext, Plugin} from '@docusaurus/types';
import type {PrismTheme} from 'prism-react-renderer';
import {codeThemeCss} from './codeThemeCss';

export interface DeferredHighlightingOptions {
  /**
   * A function rather than the themes themselves: Docusaurus ships every plugin's options to the
   * browser inside the site config (in main.js, about 0.5 KB Brotli for two themes), and leaves
   * functions out; the themes are only needed here, at build time.
   */
  readonly themes: () => Record<'light' | 'dark', PrismTheme>;
  /**
   * False only in the benchmark build without the highlighting group (first-load-switches): the
   * browser then bundles the server's synchronous highlighter, Prism included, as the theme does.
   */
  readonly deferred?: boolean;
}

function checkOptions(options: unknown): {themes: Record<'light' | 'dark', PrismTheme>; deferred?: boolean} {
  const given = (options as {themes?: unknown} | undefined)?.themes;
  if (typeof given !== 'function') throw new Error('deferred-highlighting: options.themes must be a function that returns {light, dark}.');
  const themes = (given as () => Record<string, unknown> | undefined)();
  for (const mode of ['light', 'dark']) {
    const theme = themes?.[mode] as {plain?: unknown; styles?: unknown} | undefined;
    if (typeof theme?.plain !== 'object' || !Array.isArray(theme.styles)) {
      throw new Error(`deferred-highlighting: options.themes().${mode} must be a prism-react-renderer theme ({plain, styles}).`);
    }
  }
  return {...(options as DeferredHighlightingOptions), themes: themes as Record<'light' | 'dark', PrismTheme>};
}

/** The modules of the `code-block` chunk: the theme's code block and the browser highlighter it imports. */
export const codeBlockChunkTest = /[\\/](src[\\/]theme[\\/]CodeBlock[\\/]|deferred-highlighting[\\/]highlighter[\\/]client\.tsx$)/;

export default function deferredHighlightingPlugin(context: LoadContext, rawOptions: unknown): Plugin {
  const options = checkOptions(rawOptions);
  const highlighter = (file: string) => path.join(__dirname, 'highlighter', file);
  const cssFile = path.join(context.generatedFilesDir, 'deferred-highlighting', 'code-theme.css');
  mkdirSync(path.dirname(cssFile), {recursive: true});
  writeFileSync(cssFile, codeThemeCss(options.themes));
  return {
    name: 'deferred-highlighting',
    getClientModules() {
      return [cssFile];
    },
    configureWebpack(_config, isServer) {
      const deferred = options.deferred ?? true;
      const alias: Record<string, string> =
        isServer || !deferred
          ? {'@portal/highlighter$': highlighter('server.tsx')}
          : {'@portal/highlighter$': highlighter('client.tsx'), 'prism-react-renderer$': highlighter('prismFacade.ts')};
      if (isServer) return {resolve: {alias}};
      // The code block in one chunk of its own. Otherwise each route chunk that renders it directly (the DocItem
      // chunk through MDXComponents, a page that imports @theme/CodeBlock) carries a copy, and a page that loads
      // two of them loads it twice: 1.1 KB Brotli of the integration guide's first load. The browser highlighter goes
      // with it: only the code block imports it, and left out it stayed in each of those chunks (0.5 KB Brotli).
      const codeBlock = {test: codeBlockChunkTest, name: 'code-block', chunks: 'async' as const, enforce: true};
      return {resolve: {alias}, optimization: {splitChunks: {cacheGroups: {codeBlock}}}};
    },
  };
}
