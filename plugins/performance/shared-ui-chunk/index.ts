/**
 * The design system's small components that many route chunks import (Button, TableScroller, BreakAfter), in one
 * chunk of their own that a page loads once. Each is under the bundler's minimum chunk size, so it was copied into
 * every chunk that imports it, and a docs page loads several of those at once: an API page carried Button three
 * times (the docs root's not-found content, the DocItem chunk, the page's own) and the other two twice, about
 * 1.1 KB Brotli of its first load. api-reference.spec.ts holds the modules a page loads twice under 500 characters.
 */
import type {Plugin} from '@docusaurus/types';

/** The components that go to the shared chunk (either path separator). */
export const sharedUiModules = /[\\/]src[\\/]components[\\/]ui[\\/](Button|TableScroller|BreakAfter)[\\/]/;

export default function sharedUiChunkPlugin(): Plugin {
  return {
    name: 'shared-ui-chunk',
    configureWebpack(_config, isServer) {
      if (isServer) return {};
      // Async chunks only: `main` (the 404 page's not-found content) keeps its own copy. Their CSS still goes to
      // core's `styles` group, whose priority is higher.
      const sharedUi = {test: sharedUiModules, name: 'shared-ui', chunks: 'async' as const, enforce: true};
      return {optimization: {splitChunks: {cacheGroups: {sharedUi}}}};
    },
  };
}
