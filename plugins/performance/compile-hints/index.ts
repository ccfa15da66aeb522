/**
 * Splits the start-up bundle into three scripts and marks each for eager
 * compilation, so no single start-up task carries all of its cost.
 *
 * Nearly every function in the start-up bundle runs while the page starts:
 * React, the router and the theme's layout. V8 compiles a function lazily, on
 * the main thread, the first time it is called, which made up a third of the
 * bundle's evaluation time. Chrome (136+) reads the magic comment
 * `//# allFunctionsCalledOnLoad` at the top of a script and compiles the whole
 * file on its background streaming thread instead. Other browsers ignore the
 * comment. It is added after minification, which would strip it.
 *
 * The background compile still ends on the main thread (publishing the
 * compiled functions), about 5 ms per 200 KB here, in the task that runs the
 * script. In one 420 KB main.js that came on top of the app's start-up code,
 * in the one task Lighthouse counted as blocking on every page. Split out,
 * react-dom and the other libraries finish compiling in tasks of their own
 * that only register modules; main.js, listed last in each page
 * (docusaurus.config.ts), is left with its smaller compile plus the start-up,
 * which plugins/performance/staged-start-up spreads over several tasks.
 */
import type {Plugin} from '@docusaurus/types';

/** The start-up scripts besides main, by chunk name. */
export const startupChunkNames = ['react-dom', 'startup-libraries'] as const;

/** The emitted start-up scripts (main and the chunks above) that carry the compile hint. */
export const compileHintedAsset = new RegExp(`^assets/js/(main|${startupChunkNames.join('|')})\\.[0-9a-f]+\\.js$`);

export default function compileHintsPlugin(): Plugin {
  return {
    name: 'compile-hints',
    configureWebpack(_config, isServer, {currentBundler}) {
      if (isServer) {
        return {};
      }
      const {BannerPlugin, Compilation} = currentBundler.instance;
      return {
        optimization: {
          splitChunks: {
            cacheGroups: {
              // chunks: 'initial' takes only modules the entry loads, so route chunks are untouched;
              // type keeps the theme's CSS in the one render-blocking stylesheet.
              reactDom: {
                type: /^javascript\//,
                test: /[\\/]node_modules[\\/](react-dom|scheduler)[\\/]/,
                name: startupChunkNames[0],
                chunks: 'initial',
                priority: 100,
                enforce: true,
              },
              startupLibraries: {
                type: /^javascript\//,
                test: /[\\/]node_modules[\\/]/,
                name: startupChunkNames[1],
                chunks: 'initial',
                priority: 90,
                enforce: true,
              },
            },
          },
        },
        plugins: [
          new BannerPlugin({
            banner: '//# allFunctionsCalledOnLoad',
            raw: true,
            // The split chunks are not entry chunks; `include` picks the start-up scripts.
            entryOnly: false,
            include: compileHintedAsset,
            stage: Compilation.PROCESS_ASSETS_STAGE_REPORT,
          }),
        ],
      };
    },
  };
}
