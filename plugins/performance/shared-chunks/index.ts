/**
 * Code that several route chunks share, in chunks of its own that a reader's browser loads once.
 *
 * Core's bundler config turns the bundler's own `default` group off and keeps one `common` group for modules that at
 * least half of all pages use (`@docusaurus/core/lib/webpack/base.js`). Everything shared by fewer pages was copied
 * into each route chunk that imports it: the 40 operation and notification pages each carried the API reference's
 * components (field tables, code samples, the endpoint block, Try it's opener: about 26 KB of script, 7 KB Brotli), so
 * a reader moving from one API page to the next downloaded them again, and so did every prefetch of a sidebar link.
 * - `sharedByRoutes` gives back the bundler's default behaviour for chunks loaded on demand: a module that two or
 *   more of them import goes into a chunk named by the set of chunks that share it, when that chunk is worth a
 *   request (the production minimum of 20 kB); smaller shared modules stay copied.
 * - `sharedUi` holds the design system's small components that many route chunks import (Button, TableScroller,
 *   BreakAfter): each is under that minimum, and a docs page loads several route chunks at once, so an API page
 *   carried Button three times (the docs root's not-found content, the DocItem chunk, the page's own) and the other
 *   two twice, about 1.1 KB Brotli of its first load.
 * api-reference.spec.ts holds the modules a page has loaded twice, on arrival and after moving to another API page,
 * under 500 characters. Async chunks only: `main` (the 404 page's not-found content) keeps its own copies, and CSS
 * goes to core's `styles` group and page-type-styles', whose priorities are higher.
 */
import type {Plugin} from '@docusaurus/types';

/** The components that go to the `shared-ui` chunk (either path separator). */
export const sharedUiModules = /[\\/]src[\\/]components[\\/]ui[\\/](Button|TableScroller|BreakAfter)[\\/]/;

export const sharedChunkGroups = {
  sharedUi: {test: sharedUiModules, name: 'shared-ui', chunks: 'async', enforce: true},
  // The bundler's `default` group as webpack defines it, for async chunks: below every named group (priority -20).
  sharedByRoutes: {chunks: 'async', minChunks: 2, priority: -20, reuseExistingChunk: true},
} as const;

export default function sharedChunksPlugin(): Plugin {
  return {
    name: 'shared-chunks',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      return {optimization: {splitChunks: {cacheGroups: sharedChunkGroups}}};
    },
  };
}
